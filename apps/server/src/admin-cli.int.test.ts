// `npm run admin` on a database of its own: the commands through `adminCli` in process, and the entry
// point as an operator runs it, a child process (DATABASE_URL) from the TypeScript sources through the
// repository's module hooks (no build, never stale code).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Scopes } from '@carteiro/core';
import { createTestDatabase, type TestDatabase } from '@carteiro/postgres/testing';
import { adminCli, errorMessage } from './admin-cli.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const REGISTER_TS = path.join(root, 'scripts/ts-loader/register.mjs');
const CLI_TS = path.join(root, 'apps/server/src/admin-cli.ts');

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.destroy();
});

/** Runs the CLI as a process; resolves with its output and exit code (a failing command does not throw). */
async function adminProcess(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
  delete env.NODE_OPTIONS;
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', REGISTER_TS, CLI_TS, ...args], { cwd: root, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Runs one command in process, on the test database; a failure answers exit code 1 and the CLI's message. */
async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const text = await adminCli(args, async () => ({ db: database.db, close: async () => undefined }));
    return { code: 0, stdout: `${text}\n`, stderr: '' };
  } catch (error) {
    return { code: 1, stdout: '', stderr: `${errorMessage(error)}\n` };
  }
}

/** The cells of a table's lines (columns are separated by two spaces or more). */
const rowsOf = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim().split(/ {2,}/));

describe('npm run admin', () => {
  it('--help lists the list commands and every valid scope', async () => {
    const { code, stdout } = await adminProcess('--help');
    expect(code).toBe(0);
    for (const command of ['companies:list', 'keys:list COMPANY_ID', 'setores:list COMPANY_ID', '--json']) expect(stdout).toContain(command);
    const scopesSection = stdout.slice(stdout.indexOf('Scopes'));
    for (const scope of ['*', ...Scopes]) expect(scopesSection).toContain(scope);
  }, 60_000);

  it('lists companies, their keys and their boxes as tables, and as raw JSON with --json', async () => {
    const acme = JSON.parse((await admin('companies:create', '--name', 'Acme', '--modality', 'avulso', '--avulso-balance', '100', '--json')).stdout) as {
      id: string;
    };
    const shown = await admin('companies:create', '--name', 'Beta Ltda', '--plan-code', 'pro');
    expect(shown.code).toBe(0);
    // One created object: `field  value` lines, not JSON.
    expect(shown.stdout).toMatch(/^id +[0-9a-f-]{36}$/m);
    expect(shown.stdout).toMatch(/^name +Beta Ltda$/m);
    expect(shown.stdout).not.toContain('{');

    const companies = await admin('companies:list');
    expect(companies.code).toBe(0);
    const [header, ...rows] = rowsOf(companies.stdout);
    expect(header).toEqual(['ID', 'NAME', 'PLAN', 'MODALITY', 'BALANCE', 'DAILY LIMIT', 'CAMPAIGNS', 'RPM', 'CREATED']);
    expect(rows.slice(0, 2).map((r) => r.slice(0, 5))).toEqual([
      [acme.id, 'Acme', expect.any(String), 'avulso', '100'],
      [expect.stringMatching(/^[0-9a-f-]{36}$/), 'Beta Ltda', 'pro', 'mensal', expect.any(String)],
    ]);
    expect(rows.at(-1)).toEqual(['2 companies']);
    const limited = await admin('companies:list', '--limit', '1');
    expect(rowsOf(limited.stdout).at(-1)).toEqual(['1 of 2 companies (--limit for more)']);

    const created = await admin('keys:create', acme.id, '--name', 'backend', '--scopes', 'messages:write,campaigns:read', '--mode', 'live');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^key +ak_live_[0-9A-Za-z]{32}$/m);
    expect(created.stdout).toContain('Save the key now');
    await admin('keys:create', acme.id, '--name', 'reports', '--scopes', '*', '--mode', 'test', '--rpm', '30');

    const keys = await admin('keys:list', acme.id);
    const [keyHeader, ...keyRows] = rowsOf(keys.stdout);
    expect(keyHeader).toEqual(['ID', 'NAME', 'PREFIX', 'MODE', 'RPM', 'STATUS', 'CREATED', 'SCOPES']);
    expect(keyRows.slice(0, 2).map((r) => [r[1], r[3], r[4], r[5], r[7]]).sort()).toEqual([
      ['backend', 'live', expect.any(String), 'active', 'messages:write,campaigns:read'],
      ['reports', 'test', '30', 'active', '*'],
    ]);
    expect(keys.stdout).not.toMatch(/ak_live_[0-9A-Za-z]{32}/);

    const keysJson = JSON.parse((await admin('keys:list', acme.id, '--json')).stdout) as { name: string; scopes: string[] }[];
    expect(keysJson.map((k) => [k.name, k.scopes]).sort()).toEqual([
      ['backend', ['messages:write', 'campaigns:read']],
      ['reports', ['*']],
    ]);

    await admin('setores:create', acme.id, '--nome', 'Vendas');
    const setores = await admin('setores:list', acme.id);
    const [setorHeader, ...setorRows] = rowsOf(setores.stdout);
    expect(setorHeader).toEqual(['ID', 'NOME', 'CHANNEL', 'WARMING LIMIT', 'CREATED']);
    expect(setorRows).toEqual([[expect.stringMatching(/^[0-9a-f-]{36}$/), 'Vendas', 'qr', '-', expect.any(String)], ['1 setores']]);

    const empty = await admin('setores:list', JSON.parse((await admin('companies:create', '--name', 'Empty', '--json')).stdout).id);
    expect(empty.stdout.trim()).toBe('No setores.');
  }, 120_000);

  it('refuses an unknown scope and names the valid ones', async () => {
    const company = JSON.parse((await admin('companies:create', '--name', 'Gamma', '--json')).stdout) as { id: string };
    const refused = await admin('keys:create', company.id, '--name', 'x', '--scopes', 'messages:write,messages:send', '--mode', 'live');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Unknown scopes: messages:send');
    expect(refused.stderr).toContain(`Valid scopes: ${['*', ...Scopes].join(', ')}`);
    expect(JSON.parse((await admin('keys:list', company.id, '--json')).stdout)).toEqual([]);

    // Refused before any database is opened (without DATABASE_URL the CLI would start the embedded one).
    const noDatabase = async (): Promise<never> => {
      throw new Error('opened the database');
    };
    await expect(adminCli(['keys:create', company.id, '--name', 'x', '--scopes', 'nope', '--mode', 'live'], noDatabase)).rejects.toThrow('Unknown scopes: nope');
    await expect(adminCli(['companies:lst'], noDatabase)).rejects.toThrow('Unknown command companies:lst');

    const scopes = await admin('scopes');
    expect(scopes.stdout.trim().split('\n')).toEqual(['*', ...Scopes]);
  }, 60_000);

  it('does the same as a process on DATABASE_URL: a table on stdout, a refused scope on stderr with exit code 1', async () => {
    const company = JSON.parse((await admin('companies:create', '--name', 'Delta', '--json')).stdout) as { id: string };
    await admin('keys:create', company.id, '--name', 'ops', '--scopes', 'credits:read', '--mode', 'test');
    const listed = await adminProcess('keys:list', company.id);
    expect(listed.code).toBe(0);
    const [header, row, footer] = rowsOf(listed.stdout);
    expect(header?.slice(0, 3)).toEqual(['ID', 'NAME', 'PREFIX']);
    expect(row?.[1]).toBe('ops');
    expect(row?.at(-1)).toBe('credits:read');
    expect(footer).toEqual(['1 keys']);

    const refused = await adminProcess('keys:create', company.id, '--name', 'x', '--scopes', 'nope:read', '--mode', 'live');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`Unknown scopes: nope:read\nValid scopes: ${['*', ...Scopes].join(', ')}`);
  }, 60_000);
});
