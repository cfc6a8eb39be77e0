import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EmbeddedServers } from './testing/embedded-campaign.js';
import { isAlive } from './testing/server-process.js';

const RECIPIENTS = 600;
/** A terminal user waits for Ctrl-C to finish: a few seconds at most. */
const EXIT_WITHIN_MS = 5_000;
/** Log lines stay short: an error is a line, never a driver's client object. */
const MAX_LINE = 500;

/**
 * `npm start` in a terminal, then Ctrl-C: the terminal sends SIGINT to the whole foreground process
 * group. The server is started detached (it leads its own group, as a shell's job does) with the
 * embedded PostgreSQL of its DATA_DIR, and the signal goes to `-pid`.
 */
describe('Ctrl-C: SIGINT to the process group of a ROLE=all server on the embedded database mid-campaign', () => {
  let servers: EmbeddedServers;

  beforeAll(async () => {
    servers = await EmbeddedServers.create('carteiro-ctrl-c-');
  });

  afterAll(async () => {
    await servers?.remove();
  });

  it('drains and exits 0 within 5 s with short log lines and no errors, and the next start finishes the campaign exactly once', async () => {
    const run = await servers.startMidCampaign({ recipients: RECIPIENTS, firstPhone: 700_000, name: 'Ctrl-C', sentAtLeast: 150 });
    const { server: first, postgresPid } = run;
    expect(postgresPid).not.toBeNull();

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

    const second = await servers.start();
    expect(await servers.expectFinishedExactlyOnce(second, run, 45_000)).toEqual({ code: 0, signal: null });
    process.stdout.write(`ctrl-c: exit 0 after ${tookMs} ms\n`);
  }, 150_000);
});
