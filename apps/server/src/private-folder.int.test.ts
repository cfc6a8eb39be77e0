import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cp, lstat, mkdir, mkdtemp, readlink, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb, packagedPostgresDir, startEmbeddedPostgres } from '@carteiro/postgres';
import { ServerFleet } from './testing/server-process.js';

const isRoot = process.getuid?.() === 0;

/**
 * A clone under /root or in a `mktemp -d` folder (mode 0700): as root, PostgreSQL runs as the
 * `postgres` user, which cannot enter that folder, so neither the binaries in its node_modules nor
 * the data in its DATA_DIR are within its reach. CI runs as root; as another user the same starts
 * run straight from the private folder (the server runs as that user), which is asserted instead.
 */
describe(`the embedded PostgreSQL from a private folder (0700), as ${isRoot ? 'root' : 'a user'}`, () => {
  let privateDir: string;
  const cleanUp: string[] = [];

  beforeAll(async () => {
    privateDir = await mkdtemp(path.join(os.tmpdir(), 'carteiro-private-'));
    cleanUp.push(privateDir);
    expect((await stat(privateDir)).mode & 0o777).toBe(0o700);
  });

  afterAll(async () => {
    for (const dir of cleanUp) await rm(dir, { recursive: true, force: true });
  });

  it('npm start (ROLE=all) with DATA_DIR inside it starts, serves, stops cleanly and keeps its data for the next start', async () => {
    const dataDir = path.join(privateDir, 'data');
    const fleet = new ServerFleet({ dataDir });
    try {
      const first = await fleet.start('all');
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
      const started = first.output().split('\n').find((l) => l.includes('embedded PostgreSQL started'));
      expect(started).toBeDefined();
      expect(first.output()).toContain('First start: save these now');

      const link = path.join(dataDir, 'pg');
      if (isRoot) {
        // Said in one line at start: where the data went, and why.
        expect(started).toContain(`which cannot enter ${privateDir}`);
        expect((await lstat(link)).isSymbolicLink()).toBe(true);
        const target = await readlink(link);
        cleanUp.push(path.dirname(target));
        expect(target.startsWith(os.tmpdir() + path.sep)).toBe(true);
        expect(started).toContain(target);
        const postgresUid = (await stat(target)).uid;
        expect(postgresUid).not.toBe(0);
        expect((await stat(path.join(target, 'PG_VERSION'))).uid).toBe(postgresUid);
      } else {
        expect(started).not.toContain('cannot enter');
        expect((await lstat(link)).isDirectory()).toBe(true);
        expect((await stat(path.join(link, 'PG_VERSION'))).uid).toBe(process.getuid!());
      }

      first.kill('SIGTERM');
      expect(await first.exited).toEqual({ code: 0, signal: null });

      // The same database: no second first start (the demo secrets are printed once).
      const second = await fleet.start('all');
      expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
      expect(second.output()).toContain('embedded PostgreSQL started');
      expect(second.output()).not.toContain('First start');

      // A second server on the same DATA_DIR cannot start: one sentence with the fix, no stack trace.
      const third = await fleet.launch('all');
      expect(await third.exited).toEqual({ code: 1, signal: null });
      const failure = third.output().trim();
      expect(failure).toMatch(/^Carteiro failed to start: The embedded PostgreSQL of DATA_DIR .* is already running \(PID \d+\).*: stop it \(kill -INT \d+\) or set another DATA_DIR\.$/);
      expect(failure.split('\n')).toHaveLength(1);

      second.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
    } finally {
      await fleet.stopAll();
    }
  }, 150_000);

  it('the binaries in a private node_modules run (as root: from a root-owned copy the postgres user can read)', async () => {
    const nativeDir = path.join(privateDir, 'node_modules', 'native');
    await cp(packagedPostgresDir(), nativeDir, { recursive: true, verbatimSymlinks: true });
    const server = await startEmbeddedPostgres({ dataDir: path.join(privateDir, 'data-binaries'), nativeDir, ephemeral: true });
    try {
      const db = createDb(server.adminUrl, { poolSize: 1 });
      const { rows } = await sql<{ user: string; ok: number }>`SELECT current_user AS user, 1 AS ok`.execute(db).finally(() => db.destroy());
      expect(rows).toEqual([{ user: 'postgres', ok: 1 }]);
      if (isRoot) {
        cleanUp.push(server.binariesDir, path.dirname(server.clusterDir));
        expect(server.binariesDir.startsWith(os.tmpdir() + path.sep)).toBe(true);
        const copy = await stat(server.binariesDir);
        expect({ uid: copy.uid, othersCanWrite: (copy.mode & 0o022) !== 0 }).toEqual({ uid: 0, othersCanWrite: false });
        expect(server.placement).toContain(`which cannot enter ${privateDir}`);
        expect(server.placement).toContain(`its binaries run from a copy in ${server.binariesDir}`);
      } else {
        expect(server.binariesDir).toBe(nativeDir);
        expect(server.placement).toBeNull();
      }
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('a DATA_DIR holding a database PostgreSQL cannot use stops the start with one sentence and the fix', async () => {
    const dataDir = path.join(privateDir, 'data-kept');
    await mkdir(path.join(dataDir, 'pg'), { recursive: true });
    await writeFile(path.join(dataDir, 'pg', 'PG_VERSION'), '18\n');
    const start = startEmbeddedPostgres({ dataDir });
    if (isRoot) {
      // Data is only ever moved aside while there is none: an existing database stays where it is.
      await expect(start).rejects.toMatchObject({
        name: 'EmbeddedPostgresError',
        message: `The embedded database in ${path.join(dataDir, 'pg')} cannot be reached by the postgres user PostgreSQL runs as (${privateDir} is closed to it): let it through (chmod o+x ${privateDir}) or set DATA_DIR to a folder outside ${privateDir}.`,
      });
    } else {
      // The folder is the user's own: PostgreSQL reaches the (broken) cluster and refuses it, in one sentence too.
      await expect(start).rejects.toMatchObject({ name: 'EmbeddedPostgresError', message: expect.stringMatching(/^The embedded PostgreSQL in .* did not start \(.+\): fix that or set DATABASE_URL/) });
    }
  }, 60_000);
});
