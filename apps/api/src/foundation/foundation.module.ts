import {
  AdminService,
  AuthenticateRequest,
  Clock,
  GetLimits,
  IdGenerator,
  Random,
  Repositories,
  RequestGate,
  UnitOfWork,
} from '@carteiro/core';
import { ContainerModule } from 'inversify';
import { AdminCompaniesController } from '../admin/admin-companies.controller.js';
import { AdminSetoresController } from '../admin/admin-setores.controller.js';
import { AdminController, Controller } from '../http/controller.js';
import { AccountController } from './account.controller.js';
import { ActiveCampaigns } from './tokens.js';

/** Authentication, rate limits, limits and the operator API. */
export const foundationModule = new ContainerModule(({ bind }) => {
  // What every /v1 request goes through: key, company and both rate-limit counters in one trip.
  bind(AuthenticateRequest)
    .toResolvedValue((gate: RequestGate, clock: Clock) => new AuthenticateRequest(gate, clock), [RequestGate, Clock])
    .inSingletonScope();
  bind(GetLimits)
    .toResolvedValue(
      (repos: Repositories, clock: Clock, active: (companyId: string) => Promise<number>) => new GetLimits(repos, clock, active),
      [Repositories, Clock, ActiveCampaigns],
    )
    .inSingletonScope();
  bind(AdminService)
    .toResolvedValue(
      (uow: UnitOfWork, repos: Repositories, clock: Clock, ids: IdGenerator, random: Random) => new AdminService(uow, repos, clock, ids, random),
      [UnitOfWork, Repositories, Clock, IdGenerator, Random],
    )
    .inSingletonScope();
  bind(Controller).to(AccountController).inSingletonScope();
  bind(AdminController).to(AdminCompaniesController).inSingletonScope();
  bind(AdminController).to(AdminSetoresController).inSingletonScope();
});
