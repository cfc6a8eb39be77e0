import { parseArgs } from 'node:util';
import 'reflect-metadata';
import { AdminService, DomainError, type CompanySettingsInput } from '@carteiro/core';
import { apiKeyView, companyView, setorView, teamView } from '@carteiro/api';
import { KyselyUnitOfWork, createDb, kyselyRepositories } from '@carteiro/postgres';
import { CryptoRandom, SystemClock, UuidGenerator, loadConfig } from '@carteiro/system';
import { openDatabase, runningEmbeddedUrl } from './database.js';

const USAGE = `Carteiro operator CLI: the /admin/v1 operations, straight on the database.

Usage: npm run admin -- <command> [arguments] [--option value ...]

  companies:create --name NAME [--plan-code pro] [--modality mensal|avulso|inativo] [--avulso-balance N]
                   [--expires-at ISO] [--unlimited] [--daily-limit N] [--concurrent-campaigns-limit N]
                   [--company-rpm N] [--safe-hours 8-21] [--no-bulk] [--no-multi-number]
  companies:get COMPANY_ID
  companies:update COMPANY_ID [same options as create]
  keys:create COMPANY_ID --name NAME --scopes '*'|a,b --mode live|test [--rpm 60]
  keys:list COMPANY_ID
  keys:rotate KEY_ID [--grace-seconds 86400]
  keys:revoke KEY_ID
  setores:create COMPANY_ID --nome NAME [--channel-type qr|official]
                 [--phone-number-id ID --access-token TOKEN --waba-id ID]
  setores:list COMPANY_ID
  setores:get SETOR_ID
  setores:update SETOR_ID [--nome NAME] [--warming-daily-limit N|null]
  teams:create COMPANY_ID --nome NAME [--setor-ids a,b]

Uses DATABASE_URL, or the embedded database in DATA_DIR (the running one, or it starts it).
Prints JSON.`;

const options = {
  name: { type: 'string' },
  'plan-code': { type: 'string' },
  modality: { type: 'string' },
  'avulso-balance': { type: 'string' },
  'expires-at': { type: 'string' },
  unlimited: { type: 'boolean' },
  'daily-limit': { type: 'string' },
  'concurrent-campaigns-limit': { type: 'string' },
  'company-rpm': { type: 'string' },
  'safe-hours': { type: 'string' },
  'no-bulk': { type: 'boolean' },
  'no-multi-number': { type: 'boolean' },
  scopes: { type: 'string' },
  mode: { type: 'string' },
  rpm: { type: 'string' },
  'grace-seconds': { type: 'string' },
  nome: { type: 'string' },
  'channel-type': { type: 'string' },
  'phone-number-id': { type: 'string' },
  'access-token': { type: 'string' },
  'waba-id': { type: 'string' },
  'warming-daily-limit': { type: 'string' },
  'setor-ids': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

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

async function run(admin: AdminService, command: string, args: string[], v: Values): Promise<unknown> {
  const arg = (i: number, what: string) => {
    const value = args[i];
    if (!value) throw new Error(`${command} needs ${what}`);
    return value;
  };
  switch (command) {
    case 'companies:create':
      if (!v.name) throw new Error('companies:create needs --name');
      return companyView(await admin.createCompany({ ...settings(v), name: v.name }));
    case 'companies:get':
      return companyView(await admin.getCompany(arg(0, 'COMPANY_ID')));
    case 'companies:update':
      return companyView(await admin.updateCompany(arg(0, 'COMPANY_ID'), settings(v)));
    case 'keys:create': {
      if (!v.name || !v.scopes || !v.mode) throw new Error('keys:create needs --name, --scopes and --mode');
      const issued = await admin.createApiKey(arg(0, 'COMPANY_ID'), {
        name: v.name,
        scopes: v.scopes.split(',').map((s) => s.trim()),
        mode: v.mode === 'live' ? 'live' : v.mode === 'test' ? 'test' : (() => { throw new Error('--mode must be live or test'); })(),
        rpm: int(v.rpm, 'rpm'),
      });
      return { ...apiKeyView(issued.apiKey), key: issued.key };
    }
    case 'keys:list':
      return (await admin.listApiKeys(arg(0, 'COMPANY_ID'), { page: 1, limit: 100 })).items.map(apiKeyView);
    case 'keys:rotate': {
      const issued = await admin.rotateApiKey(arg(0, 'KEY_ID'), int(v['grace-seconds'], 'grace-seconds') ?? 86_400);
      return { ...apiKeyView(issued.apiKey), key: issued.key };
    }
    case 'keys:revoke':
      return { revoked: true, id: (await admin.revokeApiKey(arg(0, 'KEY_ID'))).id };
    case 'setores:create': {
      if (!v.nome) throw new Error('setores:create needs --nome');
      const official =
        v['phone-number-id'] && v['access-token'] && v['waba-id']
          ? { phoneNumberId: v['phone-number-id'], accessToken: v['access-token'], wabaId: v['waba-id'] }
          : null;
      const channelType = v['channel-type'] === 'official' ? 'official' : 'qr';
      return setorView(await admin.createSetor(arg(0, 'COMPANY_ID'), { nome: v.nome, channelType, official }));
    }
    case 'setores:list':
      return (await admin.listSetores(arg(0, 'COMPANY_ID'), { page: 1, limit: 100 })).items.map(setorView);
    case 'setores:get':
      return setorView(await admin.getSetor(arg(0, 'SETOR_ID')));
    case 'setores:update': {
      const raw = v['warming-daily-limit'];
      return setorView(
        await admin.updateSetor(arg(0, 'SETOR_ID'), {
          nome: v.nome,
          warmingDailyLimit: raw === undefined ? undefined : raw === 'null' ? null : int(raw, 'warming-daily-limit'),
        }),
      );
    }
    case 'teams:create':
      if (!v.nome) throw new Error('teams:create needs --nome');
      return teamView(await admin.createTeam(arg(0, 'COMPANY_ID'), { nome: v.nome, setorIds: v['setor-ids']?.split(',') }));
    default:
      throw new Error(`Unknown command ${command}\n\n${USAGE}`);
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options, allowPositionals: true, strict: true });
  const [command, ...args] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  const url = config.databaseUrl ?? (await runningEmbeddedUrl(config.dataDir));
  const database = url
    ? (() => {
        const db = createDb(url, { poolSize: 2, applicationName: 'carteiro-admin' });
        return { db, close: () => db.destroy() };
      })()
    : await openDatabase(config, { poolSize: 2, applicationName: 'carteiro-admin' });
  const { db } = database;
  try {
    const admin = new AdminService(new KyselyUnitOfWork(db), kyselyRepositories(db), new SystemClock(), new UuidGenerator(), new CryptoRandom());
    const result = await run(admin, command, args, values);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  const message = err instanceof DomainError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
