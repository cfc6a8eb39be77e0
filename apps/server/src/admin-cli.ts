import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import 'reflect-metadata';
import { sql, type Kysely } from 'kysely';
import { ALL_SCOPES, AdminService, DomainError, Scopes, type CompanySettingsInput } from '@carteiro/core';
import { apiKeyView, companyView, setorView, teamView } from '@carteiro/api';
import { KyselyUnitOfWork, createDb, kyselyRepositories, type Database } from '@carteiro/postgres';
import { CryptoRandom, SystemClock, UuidGenerator, loadConfig } from '@carteiro/system';
import { openDatabase, runningEmbeddedUrl } from './database.js';

/** Every scope a key may carry, `*` first. */
export const VALID_SCOPES: readonly string[] = [ALL_SCOPES, ...Scopes];

const USAGE = `Carteiro operator CLI: the /admin/v1 operations, straight on the database.

Usage: npm run admin -- <command> [arguments] [--option value ...] [--json]

  companies:list [--limit 100]
  companies:create --name NAME [--plan-code pro] [--modality mensal|avulso|inativo] [--avulso-balance N]
                   [--expires-at ISO] [--unlimited] [--daily-limit N] [--concurrent-campaigns-limit N]
                   [--company-rpm N] [--safe-hours 8-21] [--no-bulk] [--no-multi-number]
  companies:get COMPANY_ID
  companies:update COMPANY_ID [same options as create]
  keys:list COMPANY_ID [--limit 100]
  keys:create COMPANY_ID --name NAME --scopes '*'|a,b --mode live|test [--rpm 60]
  keys:rotate KEY_ID [--grace-seconds 86400]
  keys:revoke KEY_ID
  setores:list COMPANY_ID [--limit 100]             (setores are a company's boxes: one number each)
  setores:create COMPANY_ID --nome NAME [--channel-type qr|official]
                 [--phone-number-id ID --access-token TOKEN --waba-id ID]
  setores:get SETOR_ID
  setores:update SETOR_ID [--nome NAME] [--warming-daily-limit N|null]
  teams:create COMPANY_ID --nome NAME [--setor-ids a,b]
  scopes                                            the scopes a key may carry

Scopes (--scopes, comma-separated; * grants every scope, including ones added later):
${wrap(VALID_SCOPES.join(', '), 100, '  ')}

Prints tables and fields for people; --json prints the raw JSON the admin API would answer.
Uses DATABASE_URL, or the embedded database in DATA_DIR (the running one, or it starts it).`;

const text = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;
const options = {
  // companies:create and companies:update
  name: text, 'plan-code': text, modality: text, 'avulso-balance': text, 'expires-at': text, unlimited: flag, 'daily-limit': text,
  'concurrent-campaigns-limit': text, 'company-rpm': text, 'safe-hours': text, 'no-bulk': flag, 'no-multi-number': flag,
  // keys
  scopes: text, mode: text, rpm: text, 'grace-seconds': text,
  // setores and teams
  nome: text, 'channel-type': text, 'phone-number-id': text, 'access-token': text, 'waba-id': text, 'warming-daily-limit': text, 'setor-ids': text,
  // lists, output and help
  limit: text, json: flag, help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.map((l) => indent + l).join('\n');
}

function int(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new Error(`--${name} must be an integer`);
  return n;
}

function settings(v: Values): CompanySettingsInput {
  let safeHours: { start: number; end: number } | undefined;
  if (v['safe-hours']) {
    const [start, end] = v['safe-hours'].split('-').map(Number);
    safeHours = { start: start ?? NaN, end: end ?? NaN };
  }
  return {
    name: v.name,
    planCode: v['plan-code'],
    modality: v.modality as CompanySettingsInput['modality'],
    avulsoBalance: int(v['avulso-balance'], 'avulso-balance'),
    expiresAt: v['expires-at'] ? new Date(v['expires-at']) : undefined,
    unlimited: v.unlimited,
    dailyLimit: int(v['daily-limit'], 'daily-limit'),
    concurrentCampaignsLimit: int(v['concurrent-campaigns-limit'], 'concurrent-campaigns-limit'),
    companyRpm: int(v['company-rpm'], 'company-rpm'),
    safeHours,
    bulkMessagingEnabled: v['no-bulk'] ? false : undefined,
    multiNumberEnabled: v['no-multi-number'] ? false : undefined,
  };
}

/** Refuses unknown scopes here, naming the valid ones, before the core's shorter message. */
function parseScopes(raw: string): string[] {
  const scopes = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = scopes.filter((s) => !VALID_SCOPES.includes(s));
  if (scopes.length === 0 || unknown.length > 0) {
    const what = scopes.length === 0 ? '--scopes names no scope' : `Unknown scopes: ${unknown.join(', ')}`;
    throw new Error(`${what}\nValid scopes: ${VALID_SCOPES.join(', ')}`);
  }
  return scopes;
}

type Row = Record<string, unknown>;

/** What a command produced: the raw JSON, and how to show it to a person. */
interface Output {
  json: unknown;
  text: string;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.map(cell).join(',');
  if (typeof value === 'object') {
    return Object.entries(value)
      .map(([key, inner]) => `${key}=${cell(inner)}`)
      .join(' ');
  }
  return String(value);
}

/** A plain-text table: a header row, then one row per item, columns padded to their widest cell. */
export function formatTable(rows: readonly Row[], columns: readonly [header: string, value: (row: Row) => unknown][]): string {
  const cells = [columns.map(([header]) => header), ...rows.map((row) => columns.map(([, value]) => cell(value(row))))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  return cells.map((line) => line.map((text, i) => (i === line.length - 1 ? text : text.padEnd(widths[i]!))).join('  ')).join('\n');
}

/** One object as `field  value` lines. */
export function formatFields(object: Row): string {
  const width = Math.max(...Object.keys(object).map((key) => key.length));
  return Object.entries(object)
    .map(([key, value]) => `${key.padEnd(width)}  ${cell(value)}`)
    .join('\n');
}

type Columns = Parameters<typeof formatTable>[1];

function list(items: Row[], total: number, noun: string, columns: Columns): Output {
  if (items.length === 0) return { json: items, text: `No ${noun}.` };
  const footer = total > items.length ? `${items.length} of ${total} ${noun} (--limit for more)` : `${total} ${noun}`;
  return { json: items, text: `${formatTable(items, columns)}\n\n${footer}` };
}

const single = (object: Row, note?: string): Output => ({ json: object, text: note ? `${formatFields(object)}\n\n${note}` : formatFields(object) });

/** A column showing one field of the row as it is. */
const field = (header: string, name: string): Columns[number] => [header, (row) => row[name]];

const companyColumns: Columns = [
  field('ID', 'id'), field('NAME', 'name'), field('PLAN', 'plan_code'), field('MODALITY', 'modality'), field('BALANCE', 'avulso_balance'),
  field('DAILY LIMIT', 'daily_limit'), field('CAMPAIGNS', 'concurrent_campaigns_limit'), field('RPM', 'company_rpm'), field('CREATED', 'created_at'),
];

const keyColumns: Columns = [
  field('ID', 'id'), field('NAME', 'name'), field('PREFIX', 'prefix'), field('MODE', 'mode'), field('RPM', 'rpm'),
  ['STATUS', (k) => (k.revoked_at ? 'revoked' : k.expires_at ? `expires ${String(k.expires_at)}` : 'active')],
  field('CREATED', 'created_at'), field('SCOPES', 'scopes'),
];

const setorColumns: Columns = [field('ID', 'id'), field('NOME', 'nome'), field('CHANNEL', 'channel_type'), field('WARMING LIMIT', 'warming_daily_limit_override'), field('CREATED', 'created_at')];

const KEY_NOTE = 'Save the key now: it is shown only this once.';

const COMMANDS = [
  'companies:list',
  'companies:create',
  'companies:get',
  'companies:update',
  'keys:create',
  'keys:list',
  'keys:rotate',
  'keys:revoke',
  'setores:create',
  'setores:list',
  'setores:get',
  'setores:update',
  'teams:create',
];

async function run(admin: AdminService, db: Kysely<Database>, command: string, args: string[], v: Values): Promise<Output> {
  const arg = (i: number, what: string) => {
    const value = args[i];
    if (!value) throw new Error(`${command} needs ${what}`);
    return value;
  };
  const limit = int(v.limit, 'limit') ?? 100;
  if (limit < 1 || limit > 1000) throw new Error('--limit must be between 1 and 1000');
  switch (command) {
    case 'companies:list': {
      // The operator's use cases have no company listing (the admin API neither): ids from the table, views as companies:get.
      const { rows } = await sql<{ id: string; total: string }>`
        SELECT id, count(*) OVER () AS total FROM companies ORDER BY created_at, id LIMIT ${limit}`.execute(db);
      const companies = await Promise.all(rows.map(async (row) => companyView(await admin.getCompany(row.id))));
      return list(companies, Number(rows[0]?.total ?? 0), 'companies', companyColumns);
    }
    case 'companies:create':
      if (!v.name) throw new Error('companies:create needs --name');
      return single(companyView(await admin.createCompany({ ...settings(v), name: v.name })));
    case 'companies:get':
      return single(companyView(await admin.getCompany(arg(0, 'COMPANY_ID'))));
    case 'companies:update':
      return single(companyView(await admin.updateCompany(arg(0, 'COMPANY_ID'), settings(v))));
    case 'keys:create': {
      if (!v.name || !v.scopes || !v.mode) throw new Error(`keys:create needs --name, --scopes and --mode\nValid scopes: ${VALID_SCOPES.join(', ')}`);
      if (v.mode !== 'live' && v.mode !== 'test') throw new Error('--mode must be live or test');
      const issued = await admin.createApiKey(arg(0, 'COMPANY_ID'), {
        name: v.name,
        scopes: parseScopes(v.scopes),
        mode: v.mode,
        rpm: int(v.rpm, 'rpm'),
      });
      return single({ ...apiKeyView(issued.apiKey), key: issued.key }, KEY_NOTE);
    }
    case 'keys:list': {
      const page = await admin.listApiKeys(arg(0, 'COMPANY_ID'), { page: 1, limit });
      return list(page.items.map(apiKeyView), page.total, 'keys', keyColumns);
    }
    case 'keys:rotate': {
      const issued = await admin.rotateApiKey(arg(0, 'KEY_ID'), int(v['grace-seconds'], 'grace-seconds') ?? 86_400);
      return single({ ...apiKeyView(issued.apiKey), key: issued.key }, KEY_NOTE);
    }
    case 'keys:revoke':
      return single({ revoked: true, id: (await admin.revokeApiKey(arg(0, 'KEY_ID'))).id });
    case 'setores:create': {
      if (!v.nome) throw new Error('setores:create needs --nome');
      const official =
        v['phone-number-id'] && v['access-token'] && v['waba-id']
          ? { phoneNumberId: v['phone-number-id'], accessToken: v['access-token'], wabaId: v['waba-id'] }
          : null;
      const channelType = v['channel-type'] === 'official' ? 'official' : 'qr';
      return single(setorView(await admin.createSetor(arg(0, 'COMPANY_ID'), { nome: v.nome, channelType, official })));
    }
    case 'setores:list': {
      const page = await admin.listSetores(arg(0, 'COMPANY_ID'), { page: 1, limit });
      return list(page.items.map(setorView), page.total, 'setores', setorColumns);
    }
    case 'setores:get':
      return single(setorView(await admin.getSetor(arg(0, 'SETOR_ID'))));
    case 'setores:update': {
      const raw = v['warming-daily-limit'];
      return single(
        setorView(
          await admin.updateSetor(arg(0, 'SETOR_ID'), {
            nome: v.nome,
            warmingDailyLimit: raw === undefined ? undefined : raw === 'null' ? null : int(raw, 'warming-daily-limit'),
          }),
        ),
      );
    }
    case 'teams:create':
      if (!v.nome) throw new Error('teams:create needs --nome');
      return single(teamView(await admin.createTeam(arg(0, 'COMPANY_ID'), { nome: v.nome, setorIds: v['setor-ids']?.split(',') })));
    default:
      throw new Error(`Unknown command ${command}\n\n${USAGE}`);
  }
}

/** The message of a failure; a refused scope also names the valid ones. */
export function errorMessage(err: unknown): string {
  if (err instanceof DomainError) {
    const unknownScopes = (err.details as { field?: unknown } | undefined)?.field === 'scopes';
    return `${err.code}: ${err.message}${unknownScopes ? `\nValid scopes: ${VALID_SCOPES.join(', ')}` : ''}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** A database for one command, and how to let it go. */
export interface AdminDatabase {
  db: Kysely<Database>;
  close(): Promise<void>;
}

/**
 * Runs one command line (`argv` without `node` and the script) and returns what to print; opens the
 * database only for the commands that need it. Throws on a failure (see `errorMessage`).
 */
export async function adminCli(argv: string[], open: () => Promise<AdminDatabase>): Promise<string> {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  const [command, ...args] = positionals;
  if (values.help || !command) return USAGE;
  if (command === 'scopes') return values.json ? JSON.stringify(VALID_SCOPES, null, 2) : VALID_SCOPES.join('\n');
  // Mistakes found before any database is opened (or the embedded one started).
  if (!COMMANDS.includes(command)) throw new Error(`Unknown command ${command}\n\n${USAGE}`);
  if (command === 'keys:create' && values.scopes !== undefined) parseScopes(values.scopes);
  const database = await open();
  const { db } = database;
  try {
    const admin = new AdminService(new KyselyUnitOfWork(db), kyselyRepositories(db), new SystemClock(), new UuidGenerator(), new CryptoRandom());
    const output = await run(admin, db, command, args, values);
    return values.json ? JSON.stringify(output.json, null, 2) : output.text;
  } finally {
    await database.close();
  }
}

/** `DATABASE_URL`, else the running embedded database of `DATA_DIR`, else that one started for the command. */
async function openConfiguredDatabase(): Promise<AdminDatabase> {
  const config = loadConfig();
  const url = config.databaseUrl ?? (await runningEmbeddedUrl(config.dataDir));
  if (url) {
    const db = createDb(url, { poolSize: 2, applicationName: 'carteiro-admin' });
    return { db, close: () => db.destroy() };
  }
  return openDatabase(config, { poolSize: 2, applicationName: 'carteiro-admin' });
}

// Run as the CLI (dist/admin-cli.js, or the source through the TypeScript loader), not when imported.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  adminCli(process.argv.slice(2), openConfiguredDatabase).then(
    (text) => process.stdout.write(`${text}\n`),
    (err: unknown) => {
      process.stderr.write(`${errorMessage(err)}\n`);
      process.exit(1);
    },
  );
}
