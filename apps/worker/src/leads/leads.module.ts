import {
  Clock,
  IdGenerator,
  LeadSource,
  leadQueueDefinitions,
  PurgeLeadSearches,
  ResumeLeadSearches,
  RunLeadSearch,
  SampleLeadSource,
  SampleLeadSourceToken,
  UnitOfWork,
  type LeadPage,
  type LeadSearchCriteria,
} from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import { ContainerModule } from 'inversify';
import { bindSingleton } from '@carteiro/system';
import { Housekeeper } from '../housekeeping/housekeeping.job.js';
import { BackgroundService, JobHandler } from '../jobs/job-handler.js';
import { Logger } from '../tokens.js';
import { CnpjaLeadSource } from './cnpja-lead-source.js';
import { leadSearchJob, leadSearchStartupSweep } from './lead-search.job.js';
import type { ServiceUnitOfWork } from '@carteiro/postgres';

/** The source of live keys: `LEAD_SOURCE=cnpja` with `CNPJA_API_KEY` (and `CNPJA_API_URL` for tests), else the sample. */
export function liveLeadSource(env: NodeJS.ProcessEnv = process.env): LeadSource {
  if (env.LEAD_SOURCE === 'cnpja') return new CnpjaLeadSource({ apiKey: env.CNPJA_API_KEY ?? '', baseUrl: env.CNPJA_API_URL ?? 'https://api.cnpja.com' });
  return sampleSource(env);
}

/** The sample source; `LEAD_SAMPLE_PAGE_DELAY_MS` (tests only) makes each page slow, as a remote source is. */
export function sampleSource(env: NodeJS.ProcessEnv = process.env): LeadSource {
  const sample = new SampleLeadSource();
  const delay = Number(env.LEAD_SAMPLE_PAGE_DELAY_MS ?? 0);
  if (!(delay > 0)) return sample;
  return {
    name: sample.name,
    search: async (criteria: LeadSearchCriteria, cursor: string | null): Promise<LeadPage> => {
      await new Promise((resolve) => setTimeout(resolve, delay));
      return sample.search(criteria, cursor);
    },
  };
}

/** The lead-search job, the sources and the purge of searches past their 7 days. */
export const leadsWorkerModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(leadQueueDefinitions);
  bind(LeadSource).toConstantValue(liveLeadSource());
  bind(SampleLeadSourceToken).toConstantValue(sampleSource());
  bind(RunLeadSearch)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator, live: LeadSource, test: LeadSource) => new RunLeadSearch(uow, clock, ids, { live, test }),
      [UnitOfWork, Clock, IdGenerator, LeadSource, SampleLeadSourceToken],
    )
    .inSingletonScope();
  bindSingleton(bind, PurgeLeadSearches, [UnitOfWork, Clock]);
  bind(JobHandler).toResolvedValue(leadSearchJob, [RunLeadSearch]);
  bindSingleton(bind, ResumeLeadSearches, [UnitOfWork]);
  bind(BackgroundService).toResolvedValue(leadSearchStartupSweep, [ResumeLeadSearches, Logger]);
  bind<(now: Date) => Promise<number>>(Housekeeper).toResolvedValue((purge: PurgeLeadSearches) => () => purge.execute(), [PurgeLeadSearches]);
});
