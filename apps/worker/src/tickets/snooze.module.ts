import { Clock, IdGenerator, Repositories, UnitOfWork, WakeSnoozedTickets, ticketQueueDefinitions } from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import { ContainerModule } from 'inversify';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';
import { JobHandler } from '../jobs/job-handler.js';
import { WakeSnoozedSweepJob, WakeSnoozedTicketJob } from './snooze-wake.job.js';

/** The snooze wake-up of tickets: one job per snooze at its time, and a minute sweep for missed ones. */
export const ticketSnoozeWorkerModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(ticketQueueDefinitions);
  bind(WakeSnoozedTickets)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, repos: ServiceRepositories, ids: IdGenerator, clock: Clock) => new WakeSnoozedTickets(uow, repos, ids, clock),
      [UnitOfWork, Repositories, IdGenerator, Clock],
    )
    .inSingletonScope();
  bind(JobHandler).toResolvedValue((wake: WakeSnoozedTickets) => new WakeSnoozedTicketJob(wake), [WakeSnoozedTickets]);
  bind(JobHandler).toResolvedValue((wake: WakeSnoozedTickets) => new WakeSnoozedSweepJob(wake), [WakeSnoozedTickets]);
});
