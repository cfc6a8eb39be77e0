import { Clock, GetRatingReport, GetTicketTimeline, IdGenerator, RateTicket, ReplyToTicket, Repositories, SendMessage, UnitOfWork, ticketSendQueueDefinitions } from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import { ContainerModule } from 'inversify';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';

/**
 * Ticket replies and notes, the timeline, ratings: the use cases of ticket-messages.routes.ts and
 * ratings.routes.ts; and the queues closing and rating replies enqueue into (ticket sends, rating expiry).
 */
export const ticketRepliesModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(ticketSendQueueDefinitions);
  bind(ReplyToTicket)
    .toResolvedValue((uow: ServiceUnitOfWork, send: SendMessage, clock: Clock, ids: IdGenerator) => new ReplyToTicket(uow, send, clock, ids), [UnitOfWork, SendMessage, Clock, IdGenerator])
    .inSingletonScope();
  bind(GetTicketTimeline)
    .toResolvedValue((repos: ServiceRepositories) => new GetTicketTimeline(repos), [Repositories])
    .inSingletonScope();
  bind(RateTicket)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => new RateTicket(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bind(GetRatingReport)
    .toResolvedValue((repos: ServiceRepositories, clock: Clock) => new GetRatingReport(repos, clock), [Repositories, Clock])
    .inSingletonScope();
});
