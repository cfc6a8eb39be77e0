import { expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi } from '../../../api/src/testing/test-api.js';
import { crashFixture } from '../testing/crash-fixture.js';
import { eventually } from '../testing/test-worker.js';

const LEASE_MS = '1000';
const ROWS = 10_000;

const fixture = crashFixture(createTestApi, { IMPORT_LEASE_MS: LEASE_MS });

it('an import whose worker is killed mid-file resumes after the last committed batch: every row once', async () => {
  const { api } = fixture;
  const company = await api.createCompany({ company_rpm: 100_000 });
  const auth = { Authorization: `Bearer ${await api.createKey(company.id, { rpm: 100_000 })}` };
  const tag = (await request(api.app).post('/v1/tags').set(auth).send({ name: 'Lote' })).body.data;
  const rows = Array.from({ length: ROWS }, (_, i) => ({ phone: `+55119${(60_000_000 + i).toString()}`, name: `Pessoa ${i}`, email: `p${i}@x.test`, tag_ids: [tag.id] }));
  const created = await request(api.app).post('/v1/imports').set(auth).send({ type: 'contacts', rows });
  expect(created.status).toBe(202);
  const jobId = created.body.data.job_id;
  const progress = async () => api.database.db.selectFrom('contact_imports').select(['status', 'processed', 'next_batch']).where('id', '=', jobId).executeTakeFirstOrThrow();

  // The whole worker process (every job and loop of its composition root), killed with SIGKILL.
  const child = await fixture.startWorkerProcess();
  await eventually(async () => (await progress()).processed >= 1_000, { timeoutMs: 30_000, intervalMs: 2 });
  await child.kill();
  const atKill = await progress();
  // Meaningful only if the kill left work behind.
  expect(atKill.status).toBe('running');
  expect(atKill.processed).toBeLessThan(ROWS);

  await fixture.successor();
  const job = await eventually(
    async () => {
      const res = await request(api.app).get(`/v1/imports/${jobId}`).set(auth);
      return res.body.data.status === 'completed' ? res.body.data : null;
    },
    { timeoutMs: 60_000 },
  );
  expect(job).toMatchObject({ total: ROWS, processed: ROWS, created: ROWS, updated: 0, skipped: 0, failed: 0, progress: 100 });
  const contacts = await api.database.db.selectFrom('contacts').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', company.id).executeTakeFirstOrThrow();
  expect(Number(contacts.n)).toBe(ROWS);
  const links = await api.database.db.selectFrom('contact_tags').select((eb) => eb.fn.countAll<string>().as('n')).where('tag_id', '=', tag.id).executeTakeFirstOrThrow();
  expect(Number(links.n)).toBe(ROWS);
  // Each row once in the records too: one contact.created per contact, one import.completed.
  const events = await api.database.db.selectFrom('domain_events').select(['event', 'data']).where('company_id', '=', company.id).where('event', 'in', ['contact.created', 'import.completed']).execute();
  expect(events.filter((e) => e.event === 'contact.created')).toHaveLength(ROWS);
  expect(new Set(events.filter((e) => e.event === 'contact.created').map((e) => (e.data as { contactId: string }).contactId)).size).toBe(ROWS);
  expect(events.filter((e) => e.event === 'import.completed')).toHaveLength(1);
  process.stdout.write(`killed after ${atKill.processed} rows (batch ${atKill.next_batch} of ${ROWS / 500})\n`);
}, 120_000);
