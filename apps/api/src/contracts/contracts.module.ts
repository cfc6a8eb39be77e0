import {
  CancelContract,
  ChannelGateway,
  Clock,
  ContractRenderer,
  CreateContract,
  HandleSigningWebhook,
  IdGenerator,
  ListContractTemplates,
  ManageContractTemplates,
  QuotaUsageCounter,
  ReadContracts,
  Repositories,
  SendContract,
  SigningProviders,
  SimulateSignature,
  UnitOfWork,
  UpdateContract,
} from '@carteiro/core';
import { ContainerModule } from 'inversify';
import type { ServiceRepositories } from '@carteiro/postgres';
import { bindSingleton } from '@carteiro/system';

/** The contracts' use cases (routes: contracts.routes.ts); the renderer and providers come from `signingModule`. */
export const contractsModule = new ContainerModule(({ bind }) => {
  bindSingleton(bind, CreateContract, [UnitOfWork, IdGenerator, Clock]);
  bindSingleton(bind, UpdateContract, [UnitOfWork, IdGenerator, Clock]);
  bindSingleton(bind, ReadContracts, [Repositories]);
  bindSingleton(bind, CancelContract, [UnitOfWork, SigningProviders, IdGenerator, Clock]);
  bindSingleton(bind, SendContract, [UnitOfWork, ChannelGateway, ContractRenderer, SigningProviders, IdGenerator, Clock]);
  // The plan quota of this area, as GET /v1/limits shows it: contracts sent by live keys in the month.
  bind<QuotaUsageCounter>(QuotaUsageCounter).toResolvedValue(
    (repos: ServiceRepositories) => ({ quota: 'contracts_per_month', count: (company, window) => repos.contracts.countSentSince(company.id, window!.from) }),
    [Repositories],
  );
  bindSingleton(bind, ListContractTemplates, [Repositories]);
  bindSingleton(bind, ManageContractTemplates, [UnitOfWork, IdGenerator, Clock]);
  bindSingleton(bind, HandleSigningWebhook, [UnitOfWork, SigningProviders, IdGenerator, Clock]);
  bindSingleton(bind, SimulateSignature, [Repositories, HandleSigningWebhook, Clock]);
});
