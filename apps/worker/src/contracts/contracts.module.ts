import { Clock, contractQueueDefinitions, IdGenerator, ReconcileContracts, SigningProviders, SweepStuckContractSends, UnitOfWork } from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import { signingConfigFromEnv, signingModule } from '@carteiro/signing';
import { ContainerModule } from 'inversify';
import { bindSingleton } from '@carteiro/system';
import { JobHandler } from '../jobs/job-handler.js';
import { reconcileContractsJob, sweepContractSendsJob } from './contracts-jobs.js';
import { Logger } from '../tokens.js';

/** The contracts' periodic jobs: the reconcile (10 minutes) and the sweep of stuck sends (every minute). */
export const contractsWorkerModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(contractQueueDefinitions);
  bindSingleton(bind, ReconcileContracts, [UnitOfWork, SigningProviders, IdGenerator, Clock]);
  bindSingleton(bind, SweepStuckContractSends, [UnitOfWork, SigningProviders, IdGenerator, Clock]);
  bind(JobHandler).toResolvedValue(reconcileContractsJob, [ReconcileContracts, Logger]).inSingletonScope();
  bind(JobHandler).toResolvedValue(sweepContractSendsJob, [SweepStuckContractSends, Logger]).inSingletonScope();
});

/** The signing adapters the worker's jobs use, from `SIGNING_PROVIDER` / `ZAPSIGN_*`. */
export const workerSigningModule = () => signingModule(signingConfigFromEnv(process.env));
