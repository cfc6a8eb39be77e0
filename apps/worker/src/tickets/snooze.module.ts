import { Clock, IdGenerator, Repositories, UnitOfWork, WakeSnoozedTickets, ticketQueueDefinitions } from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import { ContainerModule } from 'inversify';
import { bindSingleton } from '@carteiro/system';
import { JobHandler } from '../jobs/job-handler.js';
import { WakeSnoozedSweepJob, WakeSnoozedTicketJob } from './snooze-wake.job.js';

/** The snooze wake-up of tickets: one job per snooze at its time, and a minute sweep for missed ones. */
export const ticketSnoozeWorkerModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(ticketQueueDefinitions);
  bindSingleton(bind, WakeSnoozedTickets, [UnitOfWork, Repositories, IdGenerator, Clock]);
  bind(JobHandler).toResolvedValue((wake: WakeSnoozedTickets) => new WakeSnoozedTicketJob(wake), [WakeSnoozedTickets]);
  bind(JobHandler).toResolvedValue((wake: WakeSnoozedTickets) => new WakeSnoozedSweepJob(wake), [WakeSnoozedTickets]);
});
