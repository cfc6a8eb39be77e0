import { describe, expect, it } from '@jest/globals';
import { eventually } from '../../worker/src/testing/test-worker.js';
import { call, createCampaign, createHttpTenant, expectSentExactlyOnce, phone, readCampaign } from './testing/http-tenant.js';
import { fleetOnTestDatabase, type ServerProcess } from './testing/server-process.js';

/** Two ROLE=api and two ROLE=worker processes of the real server on one database. */
describe('scale-out: two API and two worker processes on one database', () => {
  let apis: ServerProcess[] = [];
  let workers: ServerProcess[] = [];
  const setup = fleetOnTestDatabase({ timeoutMs: 120_000 }, async (fleet) => {
    // Started one after the other: the first runs the migrations (already applied on a test database) and creates the queues.
    apis = [await fleet.start('api'), await fleet.start('api')];
    workers = [await fleet.start('worker'), await fleet.start('worker')];
  });

  it('counts one rate limit per key across both APIs: alternating requests hit 429 at the key rpm', async () => {
    const rpm = 12;
    const tenant = await createHttpTenant(apis[0]!.url!, { rpm });
    // Fixed 60-second windows: start early in one so that every request falls in the same window.
    await eventually(async () => Date.now() % 60_000 < 40_000, { timeoutMs: 25_000, intervalMs: 200 });

    const answers: { api: number; status: number; remaining: string | null }[] = [];
    for (let i = 0; i < rpm + 4; i += 1) {
      const api = i % 2;
      const res = await fetch(`${apis[api]!.url}/v1/campaigns`, { headers: { Authorization: `Bearer ${tenant.key}` } });
      await res.arrayBuffer();
      answers.push({ api, status: res.status, remaining: res.headers.get('x-ratelimit-remaining') });
    }
    // Each API alone saw only half the requests: the 429s prove the count is shared.
    expect(answers.slice(0, rpm).map((a) => a.status)).toEqual(Array(rpm).fill(200));
    expect(answers.slice(rpm).map((a) => a.status)).toEqual(Array(4).fill(429));
    expect(answers.slice(rpm).map((a) => a.api)).toEqual([0, 1, 0, 1]);
    // X-RateLimit-Remaining counts down by one per request whichever process answers.
    expect(answers.slice(0, rpm).map((a) => Number(a.remaining))).toEqual(Array.from({ length: rpm }, (_, i) => rpm - 1 - i));

    const limited = await call(apis[1]!.url!, 'GET', '/v1/campaigns', tenant.key);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, error: { code: 'TOO_MANY_REQUESTS' } });
  }, 60_000);

  it('sends a campaign exactly once while both workers run, whichever of them holds each number', async () => {
    const tenant = await createHttpTenant(apis[1]!.url!, { boxes: 3 });
    const recipients = Array.from({ length: 600 }, (_, i) => ({ phone: phone(20_000 + i), name: `Pessoa ${i}` }));
    const id = await createCampaign(apis[0]!.url!, tenant, recipients, 'Scale-out');

    // Which worker processes hold the lanes while it runs (owner is `host:pid:uuid`), for the report.
    const owners = new Set<string>();
    const detail = await eventually(
      async () => {
        const lanes = await setup.database.db.selectFrom('dispatch_lanes').select('owner').where('setor_id', 'in', tenant.setorIds).execute();
        for (const lane of lanes) if (lane.owner) owners.add(lane.owner.split(':')[1]!);
        // Reads alternate between the two APIs too.
        const read = await readCampaign(apis[owners.size % 2]!.url!, tenant, id);
        return read.status === 'concluido' ? read : null;
      },
      { timeoutMs: 45_000, intervalMs: 20 },
    );
    await expectSentExactlyOnce(setup.database.db, detail, tenant, recipients);
    expect(workers.every((w) => w.exit === null)).toBe(true);
    const pids = new Set(workers.map((w) => String(w.pid)));
    expect([...owners].every((pid) => pids.has(pid))).toBe(true);
    process.stdout.write(`scale-out: lanes held by worker pids ${[...owners].join(', ')} of ${[...pids].join(', ')}\n`);
  }, 60_000);
});
