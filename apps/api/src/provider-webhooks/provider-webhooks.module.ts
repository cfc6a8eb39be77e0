import { Clock, IdGenerator, InboundThreads, ReceiveInboundMessage, ReceiveProviderWebhook, RecordReceipt, Repositories, TicketInboundThreads, UnitOfWork } from '@carteiro/core';
import { ContainerModule } from 'inversify';
import { bindSingleton } from '@carteiro/system';

/**
 * Inbound messages and receipts from the simulator and the providers' webhooks: the tickets side of
 * inbound messages (`InboundThreads`, injected into `ReceiveInboundMessage` by the messages module),
 * receipts, and the provider webhooks' use case.
 */
export const providerWebhooksModule = new ContainerModule(({ bind }) => {
  bind<InboundThreads>(InboundThreads)
    .toResolvedValue((ids: IdGenerator) => new TicketInboundThreads(ids), [IdGenerator])
    .inSingletonScope();
  bindSingleton(bind, RecordReceipt, [UnitOfWork, Clock, IdGenerator]);
  bindSingleton(bind, ReceiveProviderWebhook, [Repositories, ReceiveInboundMessage, RecordReceipt]);
});
