import { ChannelGateway, Clock, IdGenerator, Repositories, schedulingQueueDefinitions, SendTimedMessages, SweepTimedSends, TimedSends, TIMED_SEND_RETRY_DELAYS_MS, UnitOfWork, type DispatchSettings } from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import { ContainerModule } from 'inversify';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';
import { DispatchSettingsToken } from '../campaigns/campaigns.module.js';
import { LaneRunner } from '../campaigns/lane-runner.js';
import { BackgroundService, JobHandler } from '../jobs/job-handler.js';
import type { Logger } from '../tokens.js';
import { Logger as LoggerToken } from '../tokens.js';
import { schedulingStartupSweep, schedulingSweepJob, schedulingWakeJob } from './scheduling-jobs.js';

/**
 * Timed sends on the worker: the lanes send them (bound as the lane's `TimedSends`), the wake job
 * and the minute sweep wake the lanes. Load after the campaigns module (it uses its lane runner).
 */
export const schedulingWorkerModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(schedulingQueueDefinitions);
  bind<TimedSends>(TimedSends)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator, gateway: ChannelGateway, settings: DispatchSettings, direct: ServiceRepositories) =>
        new SendTimedMessages(uow, clock, ids, gateway, { retryDelaysMs: TIMED_SEND_RETRY_DELAYS_MS, pacingScale: settings.pacingScale }, direct),
      [UnitOfWork, Clock, IdGenerator, ChannelGateway, DispatchSettingsToken, Repositories],
    )
    .inSingletonScope();
  bind(SweepTimedSends)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, settings: DispatchSettings) => new SweepTimedSends(uow, clock, settings.leaseMs), [UnitOfWork, Clock, DispatchSettingsToken])
    .inSingletonScope();
  bind(JobHandler).toResolvedValue(schedulingWakeJob, [LaneRunner]);
  bind(JobHandler).toResolvedValue(schedulingSweepJob, [SweepTimedSends, LaneRunner]);
  bind(BackgroundService).toResolvedValue(
    (sweep: SweepTimedSends, runner: LaneRunner, logger: Logger, settings: DispatchSettings) => schedulingStartupSweep(sweep, runner, logger, settings.leaseMs),
    [SweepTimedSends, LaneRunner, LoggerToken, DispatchSettingsToken],
  );
});
