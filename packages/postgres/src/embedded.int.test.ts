import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedServer } from './embedded.js';

let folder: string;
let server: EmbeddedServer;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'carteiro-embedded-'));
  server = await startEmbeddedPostgres({ dataDir: folder, ephemeral: true, ownProcessGroup: false });
});
afterAll(async () => {
  await server?.stop();
  await rm(folder, { recursive: true, force: true });
});

/** The server's address as the session sees it: null through a Unix socket. */
async function serverAddress(connectionString: string): Promise<string | null> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<{ addr: string | null }>('SELECT inet_server_addr()::text AS addr')).rows[0]!.addr;
  } finally {
    await client.end();
  }
}

it("connects the service through the server's Unix socket, and still listens on 127.0.0.1 for other tools", async () => {
  const url = new URL(server.urlFor('postgres'));
  expect(url.searchParams.get('host')).toBe(server.clusterDir);
  expect(await serverAddress(server.urlFor('postgres'))).toBeNull();
  expect(await serverAddress(server.adminUrl)).toBeNull();
  url.search = '';
  expect(await serverAddress(url.toString())).toMatch(/^127\.0\.0\.1/);
});
