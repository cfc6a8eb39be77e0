import {
  ChannelGateway,
  Clock,
  DEFAULT_TICKET_SEND_LEASE_MS,
  DeliverTicketSend,
  ExpireTicketRating,
  HandleSenderFailure,
  IdGenerator,
  SweepTicketSends,
  UnitOfWork,
  ticketSendQueueDefinitions,
} from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import type { ServiceUnitOfWork } from '@carteiro/postgres';
import { ContainerModule } from 'inversify';
import { bindSingleton } from '@carteiro/system';
import { Housekeeper } from '../housekeeping/housekeeping.job.js';
import { positiveFromEnv } from '../jobs/env-settings.js';
import { BackgroundService, JobHandler } from '../jobs/job-handler.js';
import { Logger } from '../tokens.js';
import { ratingExpiryJob, ticketClosingJob, ticketSendStartupSweep } from './ticket-closing.job.js';

/** How long a ticket send may stay queued or claimed before it is enqueued again (`TICKET_SEND_LEASE_MS`, tunable for tests). */
export const ticketSendLeaseMs = (env: NodeJS.ProcessEnv = process.env): number => positiveFromEnv(env, 'TICKET_SEND_LEASE_MS', DEFAULT_TICKET_SEND_LEASE_MS);

/** The jobs of closing and CSAT: automatic ticket messages sent once (and swept back after a crash), rating requests expired after 24 hours. */
export const ticketClosingWorkerModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(ticketSendQueueDefinitions);
  bind(DeliverTicketSend)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, gateway: ChannelGateway, clock: Clock, ids: IdGenerator) => new DeliverTicketSend(uow, gateway, new HandleSenderFailure(uow, clock, ids), clock, ids),
      [UnitOfWork, ChannelGateway, Clock, IdGenerator],
    )
    .inSingletonScope();
  bindSingleton(bind, ExpireTicketRating, [UnitOfWork, Clock]);
  bind(SweepTicketSends)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock) => new SweepTicketSends(uow, clock, ticketSendLeaseMs()), [UnitOfWork, Clock])
    .inSingletonScope();
  bind(JobHandler).toResolvedValue(ticketClosingJob, [DeliverTicketSend]);
  bind(JobHandler).toResolvedValue(ratingExpiryJob, [ExpireTicketRating]);
  bind(BackgroundService).toResolvedValue((sweep: SweepTicketSends, logger: Logger) => ticketSendStartupSweep(sweep, logger, ticketSendLeaseMs()), [SweepTicketSends, Logger]);
  bind<(now: Date) => Promise<number>>(Housekeeper).toResolvedValue((sweep: SweepTicketSends) => () => sweep.execute(), [SweepTicketSends]);
});
