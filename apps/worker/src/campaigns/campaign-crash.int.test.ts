import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../../../api/src/testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';
import { campaignTenant, outbox, phone, simulatorOverride } from './testing/campaign-e2e.js';

const LEASE_MS = '1500';

describe('a worker killed in the middle of a campaign', () => {
  let api: TestApi;
  let child: ChildProcess | undefined;
  let successor: TestWorker | undefined;
  const previousLease = process.env.CAMPAIGN_LANE_LEASE_MS;

  beforeAll(async () => {
    process.env.CAMPAIGN_LANE_LEASE_MS = LEASE_MS;
    api = await createTestApi();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await successor?.close();
    await api?.close();
    process.env.CAMPAIGN_LANE_LEASE_MS = previousLease;
  });

  it('loses no message and sends none twice: the next worker resumes where it stopped', async () => {
    const t = await campaignTenant(api, { boxes: 2, warmingLimit: 10_000 });
    const recipients = Array.from({ length: 300 }, (_, i) => ({ phone: phone(1_000 + i), name: `Pessoa ${i}` }));
    const created = await request(api.app)
      .post('/v1/campaigns')
      .set(t.auth)
      .send({ name: 'Crash', recipients, message: { text: 'Olá {{primeiro_nome}}' }, options: { anti_ban_level: 'normal' } });
    expect(created.status).toBe(202);
    const id = created.body.data.id;

    // PACING_SCALE 0.001: a new number waits 30 ms between sends, so lanes claim batches of ~33.
    const here = path.dirname(fileURLToPath(import.meta.url));
    child = spawn(process.execPath, ['--import', path.resolve(here, '../../../../scripts/ts-loader/register.mjs'), 'worker-process.ts'], {
      cwd: path.join(here, 'testing'),
      env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: api.database.url, PACING_SCALE: '0.001', CAMPAIGN_LANE_LEASE_MS: LEASE_MS },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child!.on('exit', resolve));
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(async () => output.includes('ready'), { timeoutMs: 30_000 });
    await eventually(async () => (await outbox(api.database.db, t.company.id)).length >= 80, { timeoutMs: 30_000, intervalMs: 10 });
    child.kill('SIGKILL');
    await exited;

    const atKill = await outbox(api.database.db, t.company.id);
    expect(atKill.length).toBeLessThan(300);
    const claimed = await api.database.db.selectFrom('campaign_messages').select('id').where('campaign_id', '=', id).where('status', '=', 'enviando').execute();

    successor = await createTestWorker({ database: api.database, env: { PACING_SCALE: '0.001' }, overrides: [simulatorOverride(api.database.db)] });
    await eventually(async () => (await request(api.app).get(`/v1/campaigns/${id}`).set(t.auth)).body.data.status === 'concluido', { timeoutMs: 30_000 });

    const detail = (await request(api.app).get(`/v1/campaigns/${id}`).set(t.auth)).body.data;
    expect(detail).toMatchObject({ total_enviados: 300, total_falhas: 0, total_pulados: 0, progress: 100 });
    const sent = await outbox(api.database.db, t.company.id);
    // Exactly once at the channel: one outbox row per recipient, none missing, none repeated.
    expect(sent).toHaveLength(300);
    expect(new Set(sent.map((m) => m.to_number)).size).toBe(300);
    expect(new Set(sent.map((m) => m.to_number))).toEqual(new Set(recipients.map((r) => r.phone)));
    // Exactly once in the records: one message.sent event per message.
    const events = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', t.company.id).where('event', '=', 'message.sent').execute();
    expect(events).toHaveLength(300);
    expect(new Set(events.map((e) => (e.data as { detailId: string }).detailId)).size).toBe(300);
    // The test is only meaningful if the kill left work behind; report what it interrupted.
    process.stdout.write(`killed after ${atKill.length} sends with ${claimed.length} messages claimed in flight\n`);
  }, 90_000);
});
