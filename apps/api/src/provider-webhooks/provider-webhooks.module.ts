import { Clock, IdGenerator, InboundThreads, ReceiveInboundMessage, ReceiveProviderWebhook, RecordReceipt, Repositories, TicketInboundThreads, UnitOfWork } from '@carteiro/core';
import { ContainerModule } from 'inversify';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';

/**
 * Inbound messages and receipts from the simulator and the providers' webhooks: the tickets side of
 * inbound messages (`InboundThreads`, injected into `ReceiveInboundMessage` by the messages module),
 * receipts, and the provider webhooks' use case.
 */
export const providerWebhooksModule = new ContainerModule(({ bind }) => {
  bind<InboundThreads>(InboundThreads)
    .toResolvedValue((ids: IdGenerator) => new TicketInboundThreads(ids), [IdGenerator])
    .inSingletonScope();
  bind(RecordReceipt)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => new RecordReceipt(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bind(ReceiveProviderWebhook)
    .toResolvedValue(
      (repos: ServiceRepositories, inbound: ReceiveInboundMessage, receipts: RecordReceipt) => new ReceiveProviderWebhook(repos, inbound, receipts),
      [Repositories, ReceiveInboundMessage, RecordReceipt],
    )
    .inSingletonScope();
});
