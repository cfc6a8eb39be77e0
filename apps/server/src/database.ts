import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createDb, embeddedUrl, ensureDatabase, migrateToLatest, startEmbeddedPostgres, type Database, type EmbeddedServer } from '@carteiro/postgres';
import type { Config } from '@carteiro/system';
import type { Kysely } from 'kysely';

export const EMBEDDED_DATABASE = 'carteiro';

export interface OpenDatabase {
  db: Kysely<Database>;
  url: string;
  embedded: EmbeddedServer | null;
  close(): Promise<void>;
}

/**
 * Connects to `DATABASE_URL`, or starts the embedded PostgreSQL in `DATA_DIR` (initialising it on
 * first use), then applies every pending migration.
 */
export async function openDatabase(config: Config, options: { poolSize: number; applicationName: string; preparedStatements?: boolean }): Promise<OpenDatabase> {
  let url = config.databaseUrl;
  let embedded: EmbeddedServer | null = null;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir });
    await ensureDatabase(embedded.adminUrl, EMBEDDED_DATABASE);
    url = embedded.urlFor(EMBEDDED_DATABASE);
  }
  const db = createDb(url, options);
  await migrateToLatest(db);
  return {
    db,
    url,
    embedded,
    async close() {
      await db.destroy();
      await embedded?.stop();
    },
  };
}

/** The URL of an embedded server already running on `dataDir` (read from its postmaster.pid), or null. */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | null> {
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
  const content = await readFile(pidFile, 'utf8').catch(() => null);
  if (!content) return null;
  const [pid, , , port] = content.split('\n');
  try {
    process.kill(Number(pid), 0);
  } catch {
    return null;
  }
  return embeddedUrl(Number(port), EMBEDDED_DATABASE);
}
