import {
  Clock,
  CreateOpportunity,
  CreateProduct,
  DeleteOpportunity,
  IdGenerator,
  ListFunnelStages,
  ListProducts,
  ManageFunnelStages,
  MoveOpportunityStage,
  ReadOpportunities,
  Repositories,
  UnitOfWork,
  UpdateOpportunity,
} from '@carteiro/core';
import { ContainerModule } from 'inversify';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';

/** The CRM's use cases: funnel, catalogue, opportunities (routes: crm.routes.ts). */
export const crmModule = new ContainerModule(({ bind }) => {
  const withClock = [UnitOfWork, IdGenerator, Clock] as const;
  bind(ListFunnelStages)
    .toResolvedValue((uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock) => new ListFunnelStages(uow, ids, clock), [...withClock])
    .inSingletonScope();
  bind(ManageFunnelStages)
    .toResolvedValue((uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock) => new ManageFunnelStages(uow, ids, clock), [...withClock])
    .inSingletonScope();
  bind(ListProducts)
    .toResolvedValue((repos: ServiceRepositories) => new ListProducts(repos), [Repositories])
    .inSingletonScope();
  bind(CreateProduct)
    .toResolvedValue((uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock) => new CreateProduct(uow, ids, clock), [...withClock])
    .inSingletonScope();
  bind(CreateOpportunity)
    .toResolvedValue((uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock) => new CreateOpportunity(uow, ids, clock), [...withClock])
    .inSingletonScope();
  bind(ReadOpportunities)
    .toResolvedValue((repos: ServiceRepositories) => new ReadOpportunities(repos), [Repositories])
    .inSingletonScope();
  bind(UpdateOpportunity)
    .toResolvedValue((uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock) => new UpdateOpportunity(uow, ids, clock), [...withClock])
    .inSingletonScope();
  bind(MoveOpportunityStage)
    .toResolvedValue((uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock) => new MoveOpportunityStage(uow, ids, clock), [...withClock])
    .inSingletonScope();
  bind(DeleteOpportunity)
    .toResolvedValue((uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock) => new DeleteOpportunity(uow, ids, clock), [...withClock])
    .inSingletonScope();
});
