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
import { bindSingleton } from '@carteiro/system';
import { ActiveCampaigns } from './tokens.js';
import type { ServiceRepositories } from '@carteiro/postgres';

/** Authentication, rate limits, limits and the operator API. */
export const foundationModule = new ContainerModule(({ bind }) => {
  // What every /v1 request goes through: key, company and both rate-limit counters in one trip.
  bindSingleton(bind, AuthenticateRequest, [RequestGate, Clock]);
  bind(GetLimits)
    .toResolvedValue(
      (repos: ServiceRepositories, clock: Clock, active: (companyId: string) => Promise<number>, counters?: QuotaUsageCounter[]) => new GetLimits(repos, clock, active, counters ?? []),
      [Repositories, Clock, ActiveCampaigns, { serviceIdentifier: QuotaUsageCounter, isMultiple: true, optional: true }],
    )
    .inSingletonScope();
  bindSingleton(bind, AdminService, [UnitOfWork, Repositories, Clock, IdGenerator, Random]);
  bindSingleton(bind, UpdateCompanySettings, [UnitOfWork, Clock]);
});
