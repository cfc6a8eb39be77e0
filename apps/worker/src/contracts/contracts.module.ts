import { Clock, contractQueueDefinitions, IdGenerator, ReconcileContracts, SigningProviders, SweepStuckContractSends, UnitOfWork } from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import type { ServiceUnitOfWork } from '@carteiro/postgres';
import { signingConfigFromEnv, signingModule } from '@carteiro/signing';
import { ContainerModule } from 'inversify';
import { JobHandler } from '../jobs/job-handler.js';
import { reconcileContractsJob, sweepContractSendsJob } from './contracts-jobs.js';
import { Logger } from '../tokens.js';

/** The contracts' periodic jobs: the reconcile (10 minutes) and the sweep of stuck sends (every minute). */
export const contractsWorkerModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(contractQueueDefinitions);
  bind(ReconcileContracts)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, providers: SigningProviders, ids: IdGenerator, clock: Clock) => new ReconcileContracts(uow, providers, ids, clock),
      [UnitOfWork, SigningProviders, IdGenerator, Clock],
    )
    .inSingletonScope();
  bind(SweepStuckContractSends)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, providers: SigningProviders, ids: IdGenerator, clock: Clock) => new SweepStuckContractSends(uow, providers, ids, clock),
      [UnitOfWork, SigningProviders, IdGenerator, Clock],
    )
    .inSingletonScope();
  bind(JobHandler).toResolvedValue(reconcileContractsJob, [ReconcileContracts, Logger]).inSingletonScope();
  bind(JobHandler).toResolvedValue(sweepContractSendsJob, [SweepStuckContractSends, Logger]).inSingletonScope();
});

/** The signing adapters the worker's jobs use, from `SIGNING_PROVIDER` / `ZAPSIGN_*`. */
export const workerSigningModule = () => signingModule(signingConfigFromEnv(process.env));
