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
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';

/** The contracts' use cases (routes: contracts.routes.ts); the renderer and providers come from `signingModule`. */
export const contractsModule = new ContainerModule(({ bind }) => {
  bind(CreateContract)
    .toResolvedValue((uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock) => new CreateContract(uow, ids, clock), [UnitOfWork, IdGenerator, Clock])
    .inSingletonScope();
  bind(UpdateContract)
    .toResolvedValue((uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock) => new UpdateContract(uow, ids, clock), [UnitOfWork, IdGenerator, Clock])
    .inSingletonScope();
  bind(ReadContracts)
    .toResolvedValue((repos: ServiceRepositories) => new ReadContracts(repos), [Repositories])
    .inSingletonScope();
  bind(CancelContract)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, providers: SigningProviders, ids: IdGenerator, clock: Clock) => new CancelContract(uow, providers, ids, clock),
      [UnitOfWork, SigningProviders, IdGenerator, Clock],
    )
    .inSingletonScope();
  bind(SendContract)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, gateway: ChannelGateway, renderer: ContractRenderer, providers: SigningProviders, ids: IdGenerator, clock: Clock) =>
        new SendContract(uow, gateway, renderer, providers, ids, clock),
      [UnitOfWork, ChannelGateway, ContractRenderer, SigningProviders, IdGenerator, Clock],
    )
    .inSingletonScope();
  // The plan quota of this area, as GET /v1/limits shows it: contracts sent by live keys in the month.
  bind<QuotaUsageCounter>(QuotaUsageCounter).toResolvedValue(
    (repos: ServiceRepositories) => ({ quota: 'contracts_per_month', count: (company, window) => repos.contracts.countSentSince(company.id, window!.from) }),
    [Repositories],
  );
  bind(ListContractTemplates)
    .toResolvedValue((repos: ServiceRepositories) => new ListContractTemplates(repos), [Repositories])
    .inSingletonScope();
  bind(ManageContractTemplates)
    .toResolvedValue((uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock) => new ManageContractTemplates(uow, ids, clock), [UnitOfWork, IdGenerator, Clock])
    .inSingletonScope();
  bind(HandleSigningWebhook)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, providers: SigningProviders, ids: IdGenerator, clock: Clock) => new HandleSigningWebhook(uow, providers, ids, clock),
      [UnitOfWork, SigningProviders, IdGenerator, Clock],
    )
    .inSingletonScope();
  bind(SimulateSignature)
    .toResolvedValue(
      (repos: ServiceRepositories, webhooks: HandleSigningWebhook, clock: Clock) => new SimulateSignature(repos, webhooks, clock),
      [Repositories, HandleSigningWebhook, Clock],
    )
    .inSingletonScope();
});
