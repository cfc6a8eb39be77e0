import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import request from 'supertest';
import { createTestApi, type TestApi } from '../../../api/src/testing/test-api.js';
import { eventually } from '../testing/test-worker.js';
import { campaignTenant, outbox, phone } from './testing/campaign-e2e.js';

const LEASE_MS = '2000';
const COMPANIES = 4;
const BOXES = 4;
const RECIPIENTS = 80;

interface Child {
  process: ChildProcess;
  exited: Promise<unknown>;
  output: () => string;
}

/** Lanes whose lease is live, by worker pid (owners are `<host>:<pid>:<run>`). */
async function lanesByPid(api: TestApi): Promise<Map<number, number>> {
  const { rows } = await sql<{ pid: string; n: number }>`
    SELECT split_part(owner, ':', 2) AS pid, count(*)::int AS n FROM dispatch_lanes WHERE owner IS NOT NULL AND lease_until > now() GROUP BY 1`.execute(api.database.db);
  return new Map(rows.map((r) => [Number(r.pid), r.n]));
}

describe('one of four worker processes killed during a multi-lane load', () => {
  let api: TestApi;
  const children: Child[] = [];
  const previousLease = process.env.CAMPAIGN_LANE_LEASE_MS;

  beforeAll(async () => {
    process.env.CAMPAIGN_LANE_LEASE_MS = LEASE_MS;
    api = await createTestApi();
  });
  afterAll(async () => {
    for (const child of children) child.process.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await api?.close();
    process.env.CAMPAIGN_LANE_LEASE_MS = previousLease;
  });

  it('spreads the lanes over the workers, and after the kill the others finish every campaign: each recipient exactly once', async () => {
    const tenants: Awaited<ReturnType<typeof campaignTenant>>[] = [];
    for (let c = 0; c < COMPANIES; c += 1) tenants.push(await campaignTenant(api, { boxes: BOXES, warmingLimit: 10_000 }));

    // Four whole worker processes; PACING_SCALE 0.01: a new number waits 300 ms between sends (16 lanes: about 50 sends/s
    // at most, a light load for a busy 2-core machine running other tests beside this one).
    const here = path.dirname(fileURLToPath(import.meta.url));
    for (let i = 0; i < 4; i += 1) {
      const child = spawn(process.execPath, ['--import', path.resolve(here, '../../../../scripts/ts-loader/register.mjs'), 'worker-process.ts'], {
        cwd: path.join(here, 'testing'),
        env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: api.database.url, PACING_SCALE: '0.01', CAMPAIGN_LANE_LEASE_MS: LEASE_MS, CAMPAIGN_LANE_CENSUS_MS: '500' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      children.push({ process: child, exited: new Promise((resolve) => child.on('exit', resolve)), output: () => output });
    }
    // Four processes compiling the sources at once on a busy machine: their start is the slow part of this test.
    await eventually(async () => children.every((c) => c.output().includes('ready')), { timeoutMs: 180_000, intervalMs: 100 });

    const ids: string[] = [];
    const recipients: string[][] = [];
    for (const [c, t] of tenants.entries()) {
      const phones = Array.from({ length: RECIPIENTS }, (_, i) => phone(20_000 + c * 1_000 + i));
      recipients.push(phones);
      const created = await request(api.app)
        .post('/v1/campaigns')
        .set(t.auth)
        .send({ name: `Platform ${c}`, recipients: phones.map((p) => ({ phone: p })), message: { text: 'Olá {{nome}}' }, options: { anti_ban_level: 'normal' } });
      expect(created.status).toBe(202);
      ids.push(created.body.data.id);
    }

    // Kill the worker holding the most lanes once a quarter of the messages went out.
    const total = COMPANIES * RECIPIENTS;
    const sentSoFar = async () => {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM simulator_messages WHERE company_id = ANY(${tenants.map((t) => t.company.id)}::uuid[])`.execute(api.database.db);
      return rows[0]!.n;
    };
    const pids = children.map((c) => c.process.pid!);
    // The lanes spread over the workers (whoever fetched their jobs first), and a quarter went out.
    const spread = async () => [...(await lanesByPid(api)).keys()].filter((pid) => pids.includes(pid)).length >= 2;
    await eventually(async () => (await sentSoFar()) >= total / 4 && (await spread()), { timeoutMs: 120_000, intervalMs: 20 });
    const held = await lanesByPid(api);
    const holding = pids.filter((pid) => (held.get(pid) ?? 0) > 0);
    const victim = children[pids.indexOf(pids.reduce((best, pid) => ((held.get(pid) ?? 0) > (held.get(best) ?? 0) ? pid : best), pids[0]!))]!;
    const victimLanes = held.get(victim.process.pid!) ?? 0;
    victim.process.kill('SIGKILL');
    await victim.exited;
    const atKill = await sentSoFar();

    for (const [c, id] of ids.entries()) {
      await eventually(async () => (await request(api.app).get(`/v1/campaigns/${id}`).set(tenants[c]!.auth)).body.data.status === 'concluido', { timeoutMs: 120_000, intervalMs: 100 });
    }

    // The work was spread (several workers held lanes), and the killed one held some when it died.
    expect(holding.length).toBeGreaterThanOrEqual(2);
    expect(victimLanes).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(total);
    for (const [c, t] of tenants.entries()) {
      const detail = (await request(api.app).get(`/v1/campaigns/${ids[c]}`).set(t.auth)).body.data;
      expect(detail).toMatchObject({ total_enviados: RECIPIENTS, total_falhas: 0, total_pulados: 0, progress: 100 });
      // Exactly once at the channel: one outbox row per recipient, none missing, none repeated.
      const sent = await outbox(api.database.db, t.company.id);
      expect(sent).toHaveLength(RECIPIENTS);
      expect(new Set(sent.map((m) => m.to_number))).toEqual(new Set(recipients[c]));
      // Exactly once in the records: one message.sent event per message.
      const events = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', t.company.id).where('event', '=', 'message.sent').execute();
      expect(events).toHaveLength(RECIPIENTS);
      expect(new Set(events.map((e) => (e.data as { detailId: string }).detailId)).size).toBe(RECIPIENTS);
    }
    process.stdout.write(`lanes held per worker at the kill: ${pids.map((p) => held.get(p) ?? 0).join('/')}; killed one holding ${victimLanes} after ${atKill} of ${total} sends\n`);
  }, 600_000);
});
