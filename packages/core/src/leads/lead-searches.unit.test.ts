import { describe, expect, it } from '@jest/globals';
import { createCompany } from '../companies/index.js';
import { SequentialIds } from '../shared/testing/deterministic.js';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import type { LeadPage, LeadSearchCriteria, LeadSource } from './lead.js';
import { LeadQueues } from './lead-queues.js';
import { LeadSourceError, RunLeadSearch, StartLeadSearch } from './lead-searches.js';
import { SampleLeadSource } from './sample-lead-source.js';

const criteria: LeadSearchCriteria = { cnaes: ['4721102', '5611201', '4712100'], municipios: [], ufs: ['SP', 'RJ', 'MG'], includeMei: true, onlyWithPhone: false, onlyWithEmail: false, limit: 250 };

/** The sample source, except that the page after `cursor` dies once (as a worker killed mid-search would). */
class CrashingOnce implements LeadSource {
  readonly name = 'sample';
  private crashed = false;
  readonly reads: (string | null)[] = [];
  constructor(
    private readonly inner: LeadSource,
    private readonly crashAt: string,
  ) {}
  async search(c: LeadSearchCriteria, cursor: string | null): Promise<LeadPage> {
    this.reads.push(cursor);
    if (cursor === this.crashAt && !this.crashed) {
      this.crashed = true;
      throw new Error('worker killed');
    }
    return this.inner.search(c, cursor);
  }
}

async function setup(options: { unlimited?: boolean; leadCredits?: number } = {}) {
  const clock = new ManualClock();
  const ids = new SequentialIds();
  const uow = new InMemoryUnitOfWork();
  const company = createCompany('c1', clock.now(), { name: 'Acme', planCode: 'pro', unlimited: options.unlimited ?? false });
  await uow.repos.companies.insert(company);
  if (options.leadCredits) await uow.repos.billing.adjust(company.id, 'lead_credits', options.leadCredits);
  return { clock, ids, uow, company };
}

describe('lead searches', () => {
  it('resumes a search whose run died after its first page: every lead once, charged once', async () => {
    const { clock, ids, uow, company } = await setup({ leadCredits: 1000 });
    const start = new StartLeadSearch(uow, clock, ids, 'sample');
    const search = await start.execute(company.id, { id: 'k1', mode: 'live' }, criteria);
    expect(uow.store.jobs).toEqual([expect.objectContaining({ queue: LeadQueues.search, data: { searchId: search.id } })]);
    const source = new CrashingOnce(new SampleLeadSource(), '100');
    const run = new RunLeadSearch(uow, clock, ids, { live: source, test: source });
    await expect(run.execute(search.id)).rejects.toThrow('worker killed');
    const midway = await uow.repos.leadSearches.findByIdForUpdate(search.id);
    expect(midway).toMatchObject({ status: 'running', returned: 100, creditsUsed: 100, cursor: '100' });
    // The job's retry.
    const done = await run.execute(search.id);
    expect(done).toMatchObject({ status: 'completed', returned: 250, creditsUsed: 250, error: null });
    expect(source.reads).toEqual([null, '100', '100', '200']);
    const stored = await uow.repos.leadSearches.listItems(search.id, { page: 1, limit: 1000 });
    const expected = new SampleLeadSource().generate(criteria).slice(0, 250);
    expect(stored.items).toEqual(expected);
    expect(new Set(stored.items.map((l) => l.cnpj)).size).toBe(stored.items.length);
    expect((await uow.repos.billing.balances(company.id)).lead_credits).toBe(750);
    const completed = uow.store.events.filter((e) => e.event === 'lead.search_completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data).toEqual({ jobId: search.id, status: 'completed', total: expect.any(Number), returned: 250, creditsUsed: 250, error: null });
    // A duplicate job finds the search completed and does nothing.
    expect(await run.execute(search.id)).toBeNull();
  });

  it('stops with what was paid for when lead credits run out, and alerts once at 0', async () => {
    const { clock, ids, uow, company } = await setup({ leadCredits: 130 });
    const search = await new StartLeadSearch(uow, clock, ids, 'sample').execute(company.id, { id: 'k1', mode: 'live' }, criteria);
    const sample = new SampleLeadSource();
    const done = await new RunLeadSearch(uow, clock, ids, { live: sample, test: sample }).execute(search.id);
    expect(done).toMatchObject({ status: 'completed', returned: 130, creditsUsed: 130, error: 'lead_credits_exhausted' });
    expect((await uow.repos.billing.balances(company.id)).lead_credits).toBe(0);
    const alerts = uow.store.events.filter((e) => e.event === 'billing.low_balance').map((e) => e.data);
    expect(alerts).toEqual([
      { kind: 'lead_credits', balance: 30, threshold: 50, level: 'low', modality: company.modality },
      { kind: 'lead_credits', balance: 0, threshold: 50, level: 'exhausted', modality: company.modality },
    ]);
  });

  it('charges nothing for test keys and unlimited companies', async () => {
    const { clock, ids, uow, company } = await setup({ unlimited: true });
    const sample = new SampleLeadSource();
    const run = new RunLeadSearch(uow, clock, ids, { live: sample, test: sample });
    const live = await new StartLeadSearch(uow, clock, ids, 'sample').execute(company.id, { id: 'k1', mode: 'live' }, { ...criteria, limit: 10 });
    expect(await run.execute(live.id)).toMatchObject({ status: 'completed', returned: 10, creditsUsed: 0 });
    const test = await new StartLeadSearch(uow, clock, ids, 'cnpja').execute(company.id, { id: 'k2', mode: 'test' }, { ...criteria, limit: 10 });
    expect(test.source).toBe('sample');
    expect(await run.execute(test.id)).toMatchObject({ status: 'completed', returned: 10, creditsUsed: 0 });
    expect(uow.store.events.filter((e) => e.event === 'billing.low_balance')).toEqual([]);
  });

  it('fails the search when the source refuses it for good', async () => {
    const { clock, ids, uow, company } = await setup({ leadCredits: 10 });
    const refusing: LeadSource = { name: 'cnpja', search: async () => Promise.reject(new LeadSourceError('cnpja_http_401')) };
    const search = await new StartLeadSearch(uow, clock, ids, 'cnpja').execute(company.id, { id: 'k1', mode: 'live' }, criteria);
    const done = await new RunLeadSearch(uow, clock, ids, { live: refusing, test: new SampleLeadSource() }).execute(search.id);
    expect(done).toMatchObject({ status: 'failed', error: 'cnpja_http_401', returned: 0 });
    expect(uow.store.events.filter((e) => e.event === 'lead.search_completed').map((e) => e.data.status)).toEqual(['failed']);
  });
});
