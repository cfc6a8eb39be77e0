import {
  ChannelGateway,
  Clock,
  DEFAULT_INBOUND_BATCHING,
  HandleSenderFailure,
  IdGenerator,
  type InboundBatching,
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
import { AppConfig, type Config } from '@carteiro/system';

/**
 * Inbound groups pipelined (InboundBatching.pipelined) when INBOUND_HOLD_MS is set (2 is about the time an answer takes
 * to come back as the next request on one machine): after a group, the next waits up to that long for its senders.
 * Off by default: on the shared 2-core machine it cost 5-15 % more CPU a message (docs/tickets.md, inbound throughput).
 */
function inboundBatching(config: Config): InboundBatching {
  if (config.inboundHoldMs === 0) return DEFAULT_INBOUND_BATCHING;
  return { ...DEFAULT_INBOUND_BATCHING, pipelined: { holdMs: config.inboundHoldMs, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) } };
}

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
      (uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator, config: Config, listeners?: InboundMessageListener[], threads?: InboundThreads, rules?: TagRuleCache) =>
        new ReceiveInboundMessage(uow, clock, ids, listeners ?? [], threads ?? null, inboundBatching(config), rules ?? null),
      [
        UnitOfWork,
        Clock,
        IdGenerator,
        AppConfig,
        { serviceIdentifier: InboundMessageListener, isMultiple: true, optional: true },
        { serviceIdentifier: InboundThreads, optional: true },
        { serviceIdentifier: TagRuleCache, optional: true },
      ],
    )
    .inSingletonScope();
});
