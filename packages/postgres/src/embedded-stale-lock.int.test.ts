import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedServer } from './embedded.js';

/**
 * A cluster whose `postmaster.pid` outlived its postmaster (the machine or container restarted while it ran) and names a
 * PID that another process has now. PostgreSQL refuses to start beside a live process of that PID, and that process is
 * no one's to stop: the start removes the stale file and leaves the process alone.
 */
let folder: string;
let clusterDir: string;
const started: EmbeddedServer[] = [];
const bystanders: ChildProcess[] = [];

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'carteiro-stale-lock-'));
  const first = await startEmbeddedPostgres({ dataDir: folder, ownProcessGroup: false });
  clusterDir = first.clusterDir;
  await first.stop();
});
afterEach(async () => {
  for (const server of started.splice(0)) await server.stop();
  for (const child of bystanders.splice(0)) child.kill('SIGKILL');
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The lock file a postmaster of this cluster would have left, naming `pid`. */
async function staleLock(pid: number): Promise<void> {
  await writeFile(path.join(clusterDir, 'postmaster.pid'), `${pid}\n${clusterDir}\n1700000000\n5432\n${clusterDir}\n127.0.0.1\n  5432001         0\nready   \n`);
}

async function answers(server: EmbeddedServer): Promise<number> {
  const client = new pg.Client({ connectionString: server.adminUrl });
  await client.connect();
  try {
    return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one;
  } finally {
    await client.end();
  }
}

it('starts when the PID of the stale lock file is now an unrelated process, and leaves that process running', async () => {
  // As the user PostgreSQL runs as (root runs it as postgres): a process it may not signal is not taken for its own.
  const user = process.getuid?.() === 0 ? { uid: Number(execFileSync('id', ['-u', 'postgres'])), gid: Number(execFileSync('id', ['-g', 'postgres'])) } : {};
  const bystander = spawn('sleep', ['120'], { stdio: 'ignore', ...user });
  bystanders.push(bystander);
  await staleLock(bystander.pid!);

  const server = await startEmbeddedPostgres({ dataDir: folder, ownProcessGroup: false });
  started.push(server);

  expect(await answers(server)).toBe(1);
  expect(alive(bystander.pid!)).toBe(true);
  expect(Number((await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n')[0])).toBe(server.pid);
}, 60_000);

it("does not stop another cluster's PostgreSQL that got the stale file's PID", async () => {
  const otherFolder = await mkdtemp(path.join(os.tmpdir(), 'carteiro-stale-lock-other-'));
  const other = await startEmbeddedPostgres({ dataDir: otherFolder, ephemeral: true, ownProcessGroup: false });
  try {
    await staleLock(other.pid);

    const server = await startEmbeddedPostgres({ dataDir: folder, ownProcessGroup: false });
    started.push(server);

    expect(await answers(server)).toBe(1);
    expect(await answers(other)).toBe(1);
  } finally {
    await other.stop();
    await rm(otherFolder, { recursive: true, force: true });
  }
}, 60_000);
