import {
  ChannelGateway,
  Clock,
  DEFAULT_INBOUND_BATCHING,
  HandleSenderFailure,
  IdGenerator,
  InboundMessageListener,
  InboundThreads,
  ManageSentMessage,
  ReceiveInboundMessage,
  Repositories,
  SendMessage,
  TagRuleCache,
  TicketThreads,
  UnitOfWork,
} from '@carteiro/core';
import { ContainerModule } from 'inversify';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';

/** Single sends, edits, deletes and reactions (/v1/messages) and simulated inbound messages (/admin/v1/simulator/inbound). */
export const messagesModule = new ContainerModule(({ bind }) => {
  bind(SendMessage)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, repos: ServiceRepositories, gateway: ChannelGateway, clock: Clock, ids: IdGenerator) =>
        new SendMessage(uow, repos, gateway, new HandleSenderFailure(uow, clock, ids), clock, ids, new TicketThreads()),
      [UnitOfWork, Repositories, ChannelGateway, Clock, IdGenerator],
    )
    .inSingletonScope();
  bind(ManageSentMessage)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, gateway: ChannelGateway, clock: Clock, ids: IdGenerator) =>
        new ManageSentMessage(uow, gateway, new HandleSenderFailure(uow, clock, ids), clock),
      [UnitOfWork, ChannelGateway, Clock, IdGenerator],
    )
    .inSingletonScope();
  bind(ReceiveInboundMessage)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator, listeners?: InboundMessageListener[], threads?: InboundThreads, rules?: TagRuleCache) =>
        new ReceiveInboundMessage(uow, clock, ids, listeners ?? [], threads ?? null, DEFAULT_INBOUND_BATCHING, rules ?? null),
      [
        UnitOfWork,
        Clock,
        IdGenerator,
        { serviceIdentifier: InboundMessageListener, isMultiple: true, optional: true },
        { serviceIdentifier: InboundThreads, optional: true },
        { serviceIdentifier: TagRuleCache, optional: true },
      ],
    )
    .inSingletonScope();
});
