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
import { bindSingleton } from '@carteiro/system';

/** The CRM's use cases: funnel, catalogue, opportunities (routes: crm.routes.ts). */
export const crmModule = new ContainerModule(({ bind }) => {
  const withClock = [UnitOfWork, IdGenerator, Clock] as const;
  bindSingleton(bind, ListFunnelStages, [...withClock]);
  bindSingleton(bind, ManageFunnelStages, [...withClock]);
  bindSingleton(bind, ListProducts, [Repositories]);
  bindSingleton(bind, CreateProduct, [...withClock]);
  bindSingleton(bind, CreateOpportunity, [...withClock]);
  bindSingleton(bind, ReadOpportunities, [Repositories]);
  bindSingleton(bind, UpdateOpportunity, [...withClock]);
  bindSingleton(bind, MoveOpportunityStage, [...withClock]);
  bindSingleton(bind, DeleteOpportunity, [...withClock]);
});
