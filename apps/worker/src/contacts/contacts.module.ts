import { Clock, contactQueueDefinitions, DEFAULT_IMPORT_LEASE_MS, IdGenerator, RunContactImport, SweepContactImports, UnitOfWork } from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import { ContainerModule } from 'inversify';
import { bindSingleton } from '@carteiro/system';
import { Housekeeper } from '../housekeeping/housekeeping.job.js';
import { positiveFromEnv } from '../jobs/env-settings.js';
import { BackgroundService, JobHandler } from '../jobs/job-handler.js';
import { Logger } from '../tokens.js';
import { contactImportJob, importStartupSweep } from './contact-import.job.js';
import type { ServiceUnitOfWork } from '@carteiro/postgres';

/** How long a worker holds an import between batches (`IMPORT_LEASE_MS`, tunable for tests). */
export const importLeaseMs = (env: NodeJS.ProcessEnv = process.env): number => positiveFromEnv(env, 'IMPORT_LEASE_MS', DEFAULT_IMPORT_LEASE_MS);

/** The contact import job, its startup sweep, and the minute sweep of imports whose worker died. */
export const contactsWorkerModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(contactQueueDefinitions);
  bind(RunContactImport)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => new RunContactImport(uow, clock, ids, importLeaseMs()), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bindSingleton(bind, SweepContactImports, [UnitOfWork, Clock]);
  bind(JobHandler).toResolvedValue(contactImportJob, [RunContactImport]);
  bind(BackgroundService).toResolvedValue((sweep: SweepContactImports, logger: Logger) => importStartupSweep(sweep, logger, importLeaseMs()), [SweepContactImports, Logger]);
  bind<(now: Date) => Promise<number>>(Housekeeper).toResolvedValue((sweep: SweepContactImports) => () => sweep.execute(), [SweepContactImports]);
});
