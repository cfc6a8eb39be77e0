import { Clock, IdGenerator, LeadSource, leadQueueDefinitions, PurgeLeadSearches, RunLeadSearch, SampleLeadSource, SampleLeadSourceToken, UnitOfWork } from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import { ContainerModule } from 'inversify';
import { Housekeeper } from '../housekeeping/housekeeping.job.js';
import { JobHandler } from '../jobs/job-handler.js';
import { CnpjaLeadSource } from './cnpja-lead-source.js';
import { LeadSearchJob } from './lead-search.job.js';
import type { ServiceUnitOfWork } from '@carteiro/postgres';

/** The source of live keys: `LEAD_SOURCE=cnpja` with `CNPJA_API_KEY` (and `CNPJA_API_URL` for tests), else the sample. */
export function liveLeadSource(env: NodeJS.ProcessEnv = process.env): LeadSource {
  if (env.LEAD_SOURCE === 'cnpja') return new CnpjaLeadSource({ apiKey: env.CNPJA_API_KEY ?? '', baseUrl: env.CNPJA_API_URL ?? 'https://api.cnpja.com' });
  return new SampleLeadSource();
}

/** The lead-search job, the sources and the purge of searches past their 7 days. */
export const leadsWorkerModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(leadQueueDefinitions);
  bind(LeadSource).toConstantValue(liveLeadSource());
  bind(SampleLeadSourceToken).toConstantValue(new SampleLeadSource());
  bind(RunLeadSearch)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator, live: LeadSource, test: LeadSource) => new RunLeadSearch(uow, clock, ids, { live, test }),
      [UnitOfWork, Clock, IdGenerator, LeadSource, SampleLeadSourceToken],
    )
    .inSingletonScope();
  bind(PurgeLeadSearches).toResolvedValue((uow: ServiceUnitOfWork, clock: Clock) => new PurgeLeadSearches(uow, clock), [UnitOfWork, Clock]).inSingletonScope();
  bind(JobHandler).toResolvedValue((run: RunLeadSearch) => new LeadSearchJob(run), [RunLeadSearch]);
  bind<(now: Date) => Promise<number>>(Housekeeper).toResolvedValue((purge: PurgeLeadSearches) => () => purge.execute(), [PurgeLeadSearches]);
});
