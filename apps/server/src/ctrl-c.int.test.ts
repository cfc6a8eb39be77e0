import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '@carteiro/postgres';
import { eventually } from '../../worker/src/testing/test-worker.js';
import { runningEmbeddedUrl } from './database.js';
import { createCampaign, createHttpTenant, expectSentExactlyOnce, outboxCount, phone, readCampaign } from './testing/http-tenant.js';
import { embeddedPostgresPid, isAlive, ServerFleet } from './testing/server-process.js';

const RECIPIENTS = 600;
/** A terminal user waits for Ctrl-C to finish: a few seconds at most. */
const EXIT_WITHIN_MS = 5_000;
/** Log lines stay short: an error is a line, never a driver's client object. */
const MAX_LINE = 500;

async function embeddedDb(dataDir: string) {
  const url = await runningEmbeddedUrl(dataDir);
  if (!url) throw new Error(`no embedded PostgreSQL running on ${dataDir}`);
  return createDb(url, { poolSize: 2, applicationName: 'ctrl-c-test' });
}

/**
 * `npm start` in a terminal, then Ctrl-C: the terminal sends SIGINT to the whole foreground process
 * group. The server is started detached (it leads its own group, as a shell's job does) with the
 * embedded PostgreSQL of its DATA_DIR, and the signal goes to `-pid`.
 */
describe('Ctrl-C: SIGINT to the process group of a ROLE=all server on the embedded database mid-campaign', () => {
  let dataDir: string;
  let fleet: ServerFleet;

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'carteiro-ctrl-c-'));
    // Open to the postgres user (private folders are private-folder.int.test.ts's subject).
    await chmod(dir, 0o755);
    dataDir = path.join(dir, 'data');
    fleet = new ServerFleet({ dataDir, env: { PACING_SCALE: '0.001' } });
  });

  afterAll(async () => {
    await fleet?.stopAll();
    if (dataDir) await rm(path.dirname(dataDir), { recursive: true, force: true });
  });

  it('drains and exits 0 within 5 s with short log lines and no errors, and the next start finishes the campaign exactly once', async () => {
    const first = await fleet.start('all', {}, { detached: true });
    const postgresPid = await embeddedPostgresPid(dataDir);
    expect(postgresPid).not.toBeNull();
    const tenant = await createHttpTenant(first.url!, { boxes: 2 });
    const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({ phone: phone(700_000 + i), name: `Pessoa ${i}` }));
    const id = await createCampaign(first.url!, tenant, recipients, 'Ctrl-C');
    const db = await embeddedDb(dataDir);
    try {
      await eventually(async () => (await outboxCount(db, tenant.companyId)) >= 150, { timeoutMs: 30_000, intervalMs: 10 });
    } finally {
      await db.destroy();
    }

    const signalledAt = Date.now();
    first.killGroup('SIGINT');
    const exit = await first.exited;
    const tookMs = Date.now() - signalledAt;
    const lines = first.output().split('\n').filter((l) => l.trim() !== '');
    const logged = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown });
    const errors = logged.filter((l) => l.level >= 50).map((l) => `${l.msg} ${JSON.stringify(l.err ?? '')}`);
    expect({ exit, errors }).toEqual({ exit: { code: 0, signal: null }, errors: [] });
    expect(tookMs).toBeLessThan(EXIT_WITHIN_MS);
    expect(lines.filter((l) => l.length > MAX_LINE).map((l) => l.slice(0, 200))).toEqual([]);
    // The drain came first, the database stopped last, by the server itself.
    expect(logged.map((l) => l.msg)).toContain('shutting down');
    expect(isAlive(postgresPid!)).toBe(false);

    const second = await fleet.start('all', {}, { detached: true });
    const detail = await eventually(
      async () => {
        const read = await readCampaign(second.url!, tenant, id);
        return read.status === 'concluido' ? read : null;
      },
      { timeoutMs: 45_000, intervalMs: 100 },
    );
    const after = await embeddedDb(dataDir);
    try {
      await expectSentExactlyOnce(after, detail, tenant, recipients);
    } finally {
      await after.destroy();
    }
    second.killGroup('SIGINT');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    process.stdout.write(`ctrl-c: exit 0 after ${tookMs} ms\n`);
  }, 150_000);
});
