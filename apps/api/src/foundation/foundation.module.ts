import {
  AdminService,
  AuthenticateRequest,
  Clock,
  GetLimits,
  QuotaUsageCounter,
  IdGenerator,
  Random,
  Repositories,
  RequestGate,
  UnitOfWork,
  UpdateCompanySettings,
} from '@carteiro/core';
import { ContainerModule } from 'inversify';
import { ActiveCampaigns } from './tokens.js';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';

/** Authentication, rate limits, limits and the operator API. */
export const foundationModule = new ContainerModule(({ bind }) => {
  // What every /v1 request goes through: key, company and both rate-limit counters in one trip.
  bind(AuthenticateRequest)
    .toResolvedValue((gate: RequestGate, clock: Clock) => new AuthenticateRequest(gate, clock), [RequestGate, Clock])
    .inSingletonScope();
  bind(GetLimits)
    .toResolvedValue(
      (repos: ServiceRepositories, clock: Clock, active: (companyId: string) => Promise<number>, counters?: QuotaUsageCounter[]) => new GetLimits(repos, clock, active, counters ?? []),
      [Repositories, Clock, ActiveCampaigns, { serviceIdentifier: QuotaUsageCounter, isMultiple: true, optional: true }],
    )
    .inSingletonScope();
  bind(AdminService)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, repos: ServiceRepositories, clock: Clock, ids: IdGenerator, random: Random) => new AdminService(uow, repos, clock, ids, random),
      [UnitOfWork, Repositories, Clock, IdGenerator, Random],
    )
    .inSingletonScope();
  bind(UpdateCompanySettings).toResolvedValue((uow: ServiceUnitOfWork, clock: Clock) => new UpdateCompanySettings(uow, clock), [UnitOfWork, Clock]).inSingletonScope();
});
