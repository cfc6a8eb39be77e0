import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '@carteiro/postgres';
import { eventually } from '../../worker/src/testing/test-worker.js';
import { runningEmbeddedUrl } from './database.js';
import { createCampaign, createHttpTenant, expectSentExactlyOnce, outboxCount, phone, readCampaign } from './testing/http-tenant.js';
import { embeddedPostgresPid, isAlive, ServerFleet } from './testing/server-process.js';

const RECIPIENTS = 400;

/**
 * `kill -9` of the whole `npm start` process group mid-campaign: the server dies at once, while its
 * embedded PostgreSQL (in a process group of its own, out of reach of a terminal's Ctrl-C) lives
 * on. The next start takes that orphan over and finishes the campaign exactly once.
 */
describe('a ROLE=all server killed with SIGKILL mid-campaign, then started again on the same DATA_DIR', () => {
  let dataDir: string;
  let fleet: ServerFleet;

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'carteiro-killed-'));
    await chmod(dir, 0o755);
    dataDir = path.join(dir, 'data');
    fleet = new ServerFleet({ dataDir, env: { PACING_SCALE: '0.001' } });
  });

  afterAll(async () => {
    await fleet?.stopAll();
    if (dataDir) await rm(path.dirname(dataDir), { recursive: true, force: true });
  });

  it('stops the orphaned PostgreSQL, starts, and finishes the campaign with each recipient sent once', async () => {
    const first = await fleet.start('all', {}, { detached: true });
    const orphan = await embeddedPostgresPid(dataDir);
    expect(orphan).not.toBeNull();
    const tenant = await createHttpTenant(first.url!, { boxes: 2 });
    const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({ phone: phone(800_000 + i), name: `Pessoa ${i}` }));
    const id = await createCampaign(first.url!, tenant, recipients, 'Killed');
    const url = await runningEmbeddedUrl(dataDir);
    const db = createDb(url!, { poolSize: 2, applicationName: 'killed-test' });
    try {
      await eventually(async () => (await outboxCount(db, tenant.companyId)) >= 100, { timeoutMs: 30_000, intervalMs: 10 });
    } finally {
      await db.destroy();
    }

    first.killGroup('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(isAlive(orphan!)).toBe(true);

    const second = await fleet.start('all', {}, { detached: true });
    expect(isAlive(orphan!)).toBe(false);
    expect(second.output()).toContain(`left running (PID ${orphan})`);
    const detail = await eventually(
      async () => {
        const read = await readCampaign(second.url!, tenant, id);
        return read.status === 'concluido' ? read : null;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    const checkUrl = await runningEmbeddedUrl(dataDir);
    const check = createDb(checkUrl!, { poolSize: 2, applicationName: 'killed-test' });
    try {
      await expectSentExactlyOnce(check, detail, tenant, recipients);
    } finally {
      await check.destroy();
    }
    second.killGroup('SIGINT');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  }, 150_000);
});
