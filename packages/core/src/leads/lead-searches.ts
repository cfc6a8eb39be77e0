import type { KeyMode } from '../api-keys/index.js';
import { creditsExhausted, debitUpTo, type BillingRepositories } from '../billing/index.js';
import type { CompanyRepositories } from '../companies/index.js';
import { assertWithinQuota, quotaWindow } from '../quotas/index.js';
import type { Clock } from '../shared/clock.js';
import { DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { Lead, LeadSearchCriteria, LeadSource } from './lead.js';
import { findCnae, findMunicipio, UFS } from './lead-reference.js';
import { LeadQueues } from './lead-queues.js';
import type { LeadRepositories } from './lead-repositories.js';
import { createLeadSearch, LEAD_SEARCH_RETENTION_MS, type LeadSearch } from './lead-search.js';

/** The sources of the searches: the configured one for live keys, the sample for test keys. */
export interface LeadSources {
  live: LeadSource;
  test: LeadSource;
}

/** A source's refusal that retrying will not change (bad credentials, a refused query): the search fails. */
export class LeadSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LeadSourceError';
  }
}

type Areas = LeadRepositories & BillingRepositories & CompanyRepositories;

/** Checks the criteria against the reference data: unknown codes are 400 BAD_REQUEST naming them. */
export function checkCriteria(criteria: LeadSearchCriteria): LeadSearchCriteria {
  const cnaes = [...new Set(criteria.cnaes.map((c) => c.replace(/[^0-9]/g, '')))];
  const unknownCnaes = criteria.cnaes.filter((c) => !findCnae(c));
  if (unknownCnaes.length > 0) throw new ValidationError('Unknown CNAE code', { field: 'cnaes', unknown: unknownCnaes }, 'BAD_REQUEST');
  const municipios = [...new Set(criteria.municipios)];
  const unknownMunicipios = municipios.filter((m) => !findMunicipio(m));
  if (unknownMunicipios.length > 0) throw new ValidationError('Unknown IBGE municipality code', { field: 'municipios', unknown: unknownMunicipios }, 'BAD_REQUEST');
  const ufs = [...new Set(criteria.ufs.map((u) => u.toUpperCase()))];
  const unknownUfs = ufs.filter((u) => !(UFS as readonly string[]).includes(u));
  if (unknownUfs.length > 0) throw new ValidationError('Unknown UF', { field: 'ufs', unknown: unknownUfs }, 'BAD_REQUEST');
  if (municipios.length === 0 && ufs.length === 0) throw new ValidationError('municipios or ufs is required', { field: 'municipios' }, 'BAD_REQUEST');
  return { ...criteria, cnaes, municipios, ufs };
}

/**
 * `POST /v1/leads/search`: checks the codes, the plan's `lead_searches_per_day` quota (live keys,
 * company row locked first) and that lead credits remain (402 INSUFFICIENT_CREDITS when none), then
 * queues the search and its job in one transaction.
 */
export class StartLeadSearch {
  constructor(
    private readonly uow: UnitOfWork<Areas>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    /** The name of the source live keys read (`LEAD_SOURCE`); test keys always read the sample. */
    private readonly liveSource: string,
  ) {}

  async execute(companyId: string, apiKey: { id: string; mode: KeyMode }, input: LeadSearchCriteria): Promise<LeadSearch> {
    const criteria = checkCriteria(input);
    return this.uow.transaction(async (repos) => {
      const now = this.clock.now();
      const company = await repos.companies.findByIdForUpdate(companyId);
      if (!company) throw new NotFoundError('Company');
      if (apiKey.mode === 'live') {
        const window = quotaWindow('lead_searches_per_day', now, company.timezone)!;
        assertWithinQuota({ company, quota: 'lead_searches_per_day', used: await repos.leadSearches.countLiveSince(companyId, window.from), now });
        if (!company.unlimited) {
          const balance = (await repos.billing.balances(companyId)).lead_credits;
          if (balance <= 0) throw creditsExhausted('lead_credits', balance, 1);
        }
      }
      const source = apiKey.mode === 'test' ? 'sample' : this.liveSource;
      const search = createLeadSearch(this.ids.newId(), companyId, apiKey, criteria, source, now);
      await repos.leadSearches.insert(search);
      await repos.jobs.enqueue(LeadQueues.search, { searchId: search.id }, { singletonKey: search.id });
      return search;
    });
  }
}

/** `GET /v1/leads/search/:jobId`: the search (7 days) and a page of its leads. */
export class ReadLeadSearch {
  constructor(
    private readonly repos: Repositories<LeadRepositories>,
    private readonly clock: Clock,
  ) {}
  async execute(companyId: string, id: string, page: PageRequest): Promise<{ search: LeadSearch; items: Page<Lead> }> {
    const search = await this.repos.leadSearches.findById(companyId, id, this.clock.now());
    if (!search) throw new NotFoundError('Lead search');
    return { search, items: await this.repos.leadSearches.listItems(id, page) };
  }
}

/**
 * The job of one search: reads the source page by page from the search's stored cursor. Each page
 * commits its leads, the next cursor and its lead credits together (a lead credit per lead, never
 * below zero; when credits run out the search completes with what was paid for and error
 * `lead_credits_exhausted`), so a worker killed between pages leaves a search the job's retry
 * resumes with every lead once. A run that finds the cursor moved by a concurrent run reads on
 * from the new one. The last page records `lead.search_completed`.
 */
export class RunLeadSearch {
  constructor(
    private readonly uow: UnitOfWork<Areas>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly sources: LeadSources,
  ) {}

  async execute(searchId: string): Promise<LeadSearch | null> {
    let search = await this.uow.transaction(async (repos) => {
      const found = await repos.leadSearches.findByIdForUpdate(searchId);
      if (!found || found.status === 'completed' || found.status === 'failed') return null;
      if (found.status === 'queued') {
        const running: LeadSearch = { ...found, status: 'running', startedAt: this.clock.now() };
        await repos.leadSearches.update(running);
        return running;
      }
      return found;
    });
    if (!search) return null;
    const source = search.mode === 'test' ? this.sources.test : this.sources.live;
    for (;;) {
      const readFrom = search.cursor;
      let page;
      try {
        page = await source.search(search.criteria, readFrom);
      } catch (error) {
        if (error instanceof LeadSourceError) return this.finish(searchId, 'failed', error.message);
        throw error;
      }
      const next: LeadSearch | null = await this.uow.transaction(async (repos) => {
        const current = await repos.leadSearches.findByIdForUpdate(searchId);
        if (!current || current.status !== 'running') return null;
        if (current.cursor !== readFrom || (readFrom === null && current.pagesRead > 0)) return current; // another run moved on
        const company = await repos.companies.findById(current.companyId);
        if (!company) throw new DomainError('NOT_FOUND', 'Company not found');
        const now = this.clock.now();
        const wanted = Math.min(page.items.length, current.criteria.limit - current.returned);
        const { taken, charged } = await debitUpTo(repos, company, 'lead_credits', wanted, now, current.mode);
        const items = page.items.slice(0, taken);
        await repos.leadSearches.appendItems(searchId, current.returned, items);
        const returned = current.returned + taken;
        const exhausted = taken < wanted;
        const done = exhausted || returned >= current.criteria.limit || page.nextCursor === null;
        const updated: LeadSearch = {
          ...current,
          returned,
          total: Math.max(returned, (page.total ?? 0), current.total),
          creditsUsed: current.creditsUsed + charged,
          datasetMonth: page.datasetMonth,
          cursor: page.nextCursor,
          pagesRead: current.pagesRead + 1,
          ...(done ? { status: 'completed' as const, completedAt: now, error: exhausted ? 'lead_credits_exhausted' : null } : {}),
        };
        await repos.leadSearches.update(updated);
        if (done) await this.recordCompleted(repos, updated, now);
        return updated;
      });
      if (!next || next.status !== 'running') return next;
      search = next;
    }
  }

  private async finish(searchId: string, status: 'failed', error: string): Promise<LeadSearch | null> {
    return this.uow.transaction(async (repos) => {
      const current = await repos.leadSearches.findByIdForUpdate(searchId);
      if (!current || current.status === 'completed' || current.status === 'failed') return current;
      const now = this.clock.now();
      const updated: LeadSearch = { ...current, status, error, completedAt: now };
      await repos.leadSearches.update(updated);
      await this.recordCompleted(repos, updated, now);
      return updated;
    });
  }

  private async recordCompleted(repos: Repositories<Areas>, search: LeadSearch, now: Date): Promise<void> {
    await repos.events.record([
      {
        id: this.ids.newId(),
        event: 'lead.search_completed',
        companyId: search.companyId,
        setorId: null,
        occurredAt: now,
        data: { jobId: search.id, status: search.status, total: search.total, returned: search.returned, creditsUsed: search.creditsUsed, error: search.error },
        actor: { user_id: null, source: 'system' },
      },
    ]);
  }
}

/**
 * A worker's start-up: queues a job for every search left queued or running (its worker may have
 * died; a job still queued for it keeps the new one out). A search a live worker is still running
 * may get a second run: runs are safe together (each page is claimed under the row lock by cursor).
 */
export class ResumeLeadSearches {
  constructor(private readonly uow: UnitOfWork<LeadRepositories>) {}
  execute(): Promise<number> {
    return this.uow.transaction(async (repos) => {
      const ids = await repos.leadSearches.listUnfinished(1000);
      for (const id of ids) await repos.jobs.enqueue(LeadQueues.search, { searchId: id }, { singletonKey: id });
      return ids.length;
    });
  }
}

/** Housekeeping: deletes searches past their 7 days, and number checks past the cache's 7 days. */
export class PurgeLeadSearches {
  constructor(
    private readonly uow: UnitOfWork<LeadRepositories>,
    private readonly clock: Clock,
  ) {}
  execute(): Promise<number> {
    return this.uow.transaction(async (repos) => {
      const now = this.clock.now();
      const searches = await repos.leadSearches.deleteExpired(now);
      const checks = await repos.channelChecks.deleteCheckedBefore(new Date(now.getTime() - LEAD_SEARCH_RETENTION_MS));
      return searches + checks;
    });
  }
}
