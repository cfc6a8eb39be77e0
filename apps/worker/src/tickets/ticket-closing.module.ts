import { ChannelGateway, Clock, DeliverTicketSend, ExpireTicketRating, HandleSenderFailure, IdGenerator, UnitOfWork, ticketSendQueueDefinitions } from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import type { ServiceUnitOfWork } from '@carteiro/postgres';
import { ContainerModule } from 'inversify';
import { JobHandler } from '../jobs/job-handler.js';
import { RatingExpiryJob, TicketClosingJob } from './ticket-closing.job.js';

/** The jobs of closing and CSAT: automatic ticket messages sent once, rating requests expired after 24 hours. */
export const ticketClosingWorkerModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(ticketSendQueueDefinitions);
  bind(DeliverTicketSend)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, gateway: ChannelGateway, clock: Clock, ids: IdGenerator) => new DeliverTicketSend(uow, gateway, new HandleSenderFailure(uow, clock, ids), clock, ids),
      [UnitOfWork, ChannelGateway, Clock, IdGenerator],
    )
    .inSingletonScope();
  bind(ExpireTicketRating)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock) => new ExpireTicketRating(uow, clock), [UnitOfWork, Clock])
    .inSingletonScope();
  bind(JobHandler).toResolvedValue((deliver: DeliverTicketSend) => new TicketClosingJob(deliver), [DeliverTicketSend]);
  bind(JobHandler).toResolvedValue((expire: ExpireTicketRating) => new RatingExpiryJob(expire), [ExpireTicketRating]);
});
