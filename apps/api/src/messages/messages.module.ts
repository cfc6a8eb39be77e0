import {
  ChannelGateway,
  DomainError,
  Clock,
  HandleSenderFailure,
  IdGenerator,
  ManageSentMessage,
  ReceiveInboundMessage,
  Repositories,
  SendMessage,
  UnitOfWork,
} from '@carteiro/core';
import { ContainerModule } from 'inversify';
import { AdminController, Controller } from '../http/controller.js';
import { SimulatorInboundController } from '../simulator-inbound/simulator-inbound.controller.js';
import { MessagesController } from './messages.controller.js';

/** Single sends, edits, deletes and reactions (/v1/messages) and simulated inbound messages (/admin/v1/simulator/inbound). */
export const messagesModule = new ContainerModule(({ bind }) => {
  bind(SendMessage)
    .toResolvedValue(
      (uow: UnitOfWork, repos: Repositories, gateway: ChannelGateway, clock: Clock, ids: IdGenerator) =>
        new SendMessage(uow, repos, gateway, new HandleSenderFailure(uow, clock, ids), clock, ids),
      [UnitOfWork, Repositories, ChannelGateway, Clock, IdGenerator],
    )
    .inSingletonScope();
  bind(ManageSentMessage)
    .toResolvedValue((uow: UnitOfWork, clock: Clock) => new ManageSentMessage(uow, clock), [UnitOfWork, Clock])
    .inSingletonScope();
  bind(ReceiveInboundMessage)
    .toResolvedValue((uow: UnitOfWork, clock: Clock, ids: IdGenerator) => new ReceiveInboundMessage(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bind(Controller).to(MessagesController).inSingletonScope();
  bind(AdminController).to(SimulatorInboundController).inSingletonScope();
});

/**
 * A gateway for processes where no channel adapter is bound: every call answers 503, so the
 * rest of the API keeps working. The composition root binds it only when nothing else did.
 */
export const unavailableChannelGateway: ChannelGateway = new Proxy({} as ChannelGateway, {
  get: (_target, property) => {
    if (property === 'then') return undefined;
    return () => {
      throw new DomainError('SERVICE_UNAVAILABLE', 'No channel gateway is configured in this process', { operation: String(property) });
    };
  },
});
