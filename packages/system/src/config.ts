import path from 'node:path';

export type Role = 'all' | 'api' | 'worker';

/** The service's settings, read once from the environment (operations.md section 1). */
export interface Config {
  port: number;
  host: string;
  /** Unset: the embedded PostgreSQL in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  role: Role;
  /** Unset: generated and printed on the first start of an embedded database; otherwise the admin API answers 404. */
  adminToken: string | undefined;
  pacingScale: number;
  webhookRetryBaseMs: number;
  simulatorScanDelayMs: number;
  /** `SIMULATOR_RECEIPT_DELAY_MS`: simulated sends turn delivered this long after sending (0: never). */
  simulatorReceiptDelayMs: number;
  allowPrivateWebhooks: boolean;
  qrProviderUrl: string | undefined;
  qrProviderApiKey: string | undefined;
  officialApiUrl: string | undefined;
  logLevel: string;
  /** Connections per process to PostgreSQL. */
  dbPoolSize: number;
  /** `DB_PREPARED_STATEMENTS=0` sends statements unnamed (for a pooler that cannot keep prepared statements). */
  dbPreparedStatements: boolean;
  /** `INBOUND_HOLD_MS`: how long an inbound group may wait for the senders of the one before it (0, the default: groups not pipelined; docs/tickets.md). */
  inboundHoldMs: number;
  /** When set, `/metrics` asks for `Authorization: Bearer <token>` (docs/metrics.md). */
  metricsToken: string | undefined;
  /** When set, a separate listener serves `/metrics` on HOST:METRICS_PORT (how a ROLE=worker process is scraped). */
  metricsPort: number | undefined;
  /** `CAMPAIGN_MESSAGE_RETENTION_DAYS`: days a finished campaign keeps its recipients (worker housekeeping); null: forever. */
  campaignMessageRetentionDays: number | null;
}

export class ConfigError extends Error {}

function number(env: NodeJS.ProcessEnv, name: string, fallback: number, check: (n: number) => boolean): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || !check(value)) throw new ConfigError(`${name}=${raw} is not valid`);
  return value;
}

function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const role = (text(env, 'ROLE') ?? 'all') as Role;
  if (!['all', 'api', 'worker'].includes(role)) throw new ConfigError(`ROLE=${role} must be all, api or worker`);
  return {
    port: number(env, 'PORT', 3000, (n) => Number.isInteger(n) && n >= 0 && n < 65536),
    host: text(env, 'HOST') ?? '127.0.0.1',
    databaseUrl: text(env, 'DATABASE_URL'),
    dataDir: path.resolve(text(env, 'DATA_DIR') ?? './.data'),
    role,
    adminToken: text(env, 'ADMIN_TOKEN'),
    pacingScale: number(env, 'PACING_SCALE', 1, (n) => n >= 0),
    webhookRetryBaseMs: number(env, 'WEBHOOK_RETRY_BASE_MS', 30_000, (n) => n >= 0),
    simulatorScanDelayMs: number(env, 'SIMULATOR_SCAN_DELAY_MS', 2_000, (n) => n >= 0),
    simulatorReceiptDelayMs: number(env, 'SIMULATOR_RECEIPT_DELAY_MS', 1_000, (n) => n >= 0),
    allowPrivateWebhooks: text(env, 'ALLOW_PRIVATE_WEBHOOKS') === '1',
    qrProviderUrl: text(env, 'QR_PROVIDER_URL'),
    qrProviderApiKey: text(env, 'QR_PROVIDER_API_KEY'),
    officialApiUrl: text(env, 'OFFICIAL_API_URL'),
    logLevel: text(env, 'LOG_LEVEL') ?? 'info',
    dbPoolSize: number(env, 'DB_POOL_SIZE', 20, (n) => Number.isInteger(n) && n > 0),
    dbPreparedStatements: text(env, 'DB_PREPARED_STATEMENTS') !== '0',
    inboundHoldMs: number(env, 'INBOUND_HOLD_MS', 0, (n) => Number.isInteger(n) && n >= 0 && n <= 1_000),
    metricsToken: text(env, 'METRICS_TOKEN'),
    metricsPort: text(env, 'METRICS_PORT') === undefined ? undefined : number(env, 'METRICS_PORT', 0, (n) => Number.isInteger(n) && n >= 0 && n < 65536),
    campaignMessageRetentionDays: text(env, 'CAMPAIGN_MESSAGE_RETENTION_DAYS') === undefined ? null : number(env, 'CAMPAIGN_MESSAGE_RETENTION_DAYS', 0, (n) => n > 0),
  };
}
