import { expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi } from '../../../api/src/testing/test-api.js';
import { crashFixture } from '../testing/crash-fixture.js';
import { eventually } from '../testing/test-worker.js';

const fixture = crashFixture(createTestApi);

const criteria = { cnaes: ['4721102', '5611201', '4712100', '9602501'], ufs: ['SP', 'RJ', 'MG', 'BA', 'RS'], limit: 450 };

it('a lead search whose worker process is killed mid-search resumes from its last committed page: every lead once, charged once', async () => {
  const { api } = fixture;
  const company = await api.createCompany({ company_rpm: 100_000 });
  const auth = { Authorization: `Bearer ${await api.createKey(company.id, { mode: 'live', rpm: 100_000 })}` };
  await request(api.app).post(`/admin/v1/companies/${company.id}/payments`).set(api.adminAuth).send({ kind: 'lead_credits', units: 1000, amount: 100, method: 'pix', external_ref: 'crash-1' }).expect(201);
  const created = await request(api.app).post('/v1/leads/search').set(auth).send(criteria);
  expect(created.status).toBe(202);
  const jobId: string = created.body.data.jobId;
  const progress = () => api.database.db.selectFrom('lead_searches').select(['status', 'returned', 'credits_used', 'cursor']).where('id', '=', jobId).executeTakeFirstOrThrow();

  // The whole worker process, its source slowed down (as a remote one is), killed with SIGKILL after its first page.
  const child = await fixture.startWorkerProcess({ LEAD_SAMPLE_PAGE_DELAY_MS: '700' });
  await eventually(async () => (await progress()).returned >= 100, { timeoutMs: 30_000, intervalMs: 5 });
  await child.kill();
  const atKill = await progress();
  expect(atKill.status).toBe('running');
  expect(atKill.returned).toBeLessThan(criteria.limit);

  // A new worker's start-up re-queues the search; it reads on from the stored cursor.
  await fixture.successor();
  const done = await eventually(
    async () => {
      const res = await request(api.app).get(`/v1/leads/search/${jobId}?limit=100`).set(auth);
      return res.body.data.status === 'completed' ? res.body.data : null;
    },
    { timeoutMs: 60_000 },
  );
  expect(done).toMatchObject({ returned: criteria.limit, credits_used: criteria.limit, error: null, source: 'sample', dataset_month: '2026-01' });
  const items = await api.database.db.selectFrom('lead_search_items').select(['position', 'lead']).where('search_id', '=', jobId).orderBy('position').execute();
  expect(items.map((i) => i.position)).toEqual(Array.from({ length: criteria.limit }, (_, i) => i));
  expect(new Set(items.map((i) => (i.lead as { cnpj: string }).cnpj)).size).toBe(criteria.limit);
  const balance = (await request(api.app).get('/v1/billing/balance').set(auth)).body.data.balances.lead_credits;
  expect(balance).toBe(1000 - criteria.limit);
  const completed = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', company.id).where('event', '=', 'lead.search_completed').execute();
  expect(completed.map((e) => e.data)).toEqual([{ jobId, status: 'completed', total: expect.any(Number), returned: criteria.limit, creditsUsed: criteria.limit, error: null }]);
  process.stdout.write(`killed after ${atKill.returned} leads\n`);
}, 120_000);

it('runs a test-key search to completion for free, readable by page', async () => {
  const { api } = fixture;
  const company = await api.createCompany();
  const auth = { Authorization: `Bearer ${await api.createKey(company.id)}` };
  const created = await request(api.app).post('/v1/leads/search').set(auth).send({ cnaes: ['5611-2/01'], municipios: ['3550308', '3304557'], only_with_phone: true, limit: 15 });
  const jobId = created.body.data.jobId;
  const done = await eventually(async () => {
    const res = await request(api.app).get(`/v1/leads/search/${jobId}?limit=10&page=2`).set(auth);
    return res.body.data.status === 'completed' ? res.body.data : null;
  });
  expect(done).toMatchObject({ returned: 15, credits_used: 0, page: 2, limit: 10, totalPages: 2 });
  expect(done.items).toHaveLength(5);
  for (const lead of done.items) {
    expect(lead.phones.length).toBeGreaterThan(0);
    expect(['3550308', '3304557']).toContain(lead.address.ibge_code);
    expect(lead.cnae_principal).toBe('5611201');
  }
});
