import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EmbeddedServers } from './testing/embedded-campaign.js';
import { isAlive } from './testing/server-process.js';

const RECIPIENTS = 400;

/**
 * `kill -9` of the whole `npm start` process group mid-campaign: the server dies at once, while its
 * embedded PostgreSQL (in a process group of its own, out of reach of a terminal's Ctrl-C) lives
 * on. The next start takes that orphan over and finishes the campaign exactly once.
 */
describe('a ROLE=all server killed with SIGKILL mid-campaign, then started again on the same DATA_DIR', () => {
  let servers: EmbeddedServers;

  beforeAll(async () => {
    servers = await EmbeddedServers.create('carteiro-killed-');
  });

  afterAll(async () => {
    await servers?.remove();
  });

  it('stops the orphaned PostgreSQL, starts, and finishes the campaign with each recipient sent once', async () => {
    const run = await servers.startMidCampaign({ recipients: RECIPIENTS, firstPhone: 800_000, name: 'Killed', sentAtLeast: 100 });
    const { server: first, postgresPid: orphan } = run;
    expect(orphan).not.toBeNull();

    first.killGroup('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(isAlive(orphan!)).toBe(true);

    const second = await servers.start();
    expect(isAlive(orphan!)).toBe(false);
    expect(second.output()).toContain(`left running (PID ${orphan})`);
    expect(await servers.expectFinishedExactlyOnce(second, run, 60_000)).toEqual({ code: 0, signal: null });
  }, 150_000);
});
