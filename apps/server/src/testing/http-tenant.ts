// A tenant set up the way an operator and a client would, over HTTP against a running process:
// company and key through /admin/v1, setores connected through the simulator's QR flow.
import { expect } from '@jest/globals';
import type { Kysely } from 'kysely';
import type { Database } from '@carteiro/postgres';
import { eventually } from '../../../worker/src/testing/test-worker.js';
import { outbox, phone } from '../../../worker/src/campaigns/testing/campaign-e2e.js';
import { PROCESS_ADMIN_TOKEN } from './server-process.js';

export { phone, outbox } from '../../../worker/src/campaigns/testing/campaign-e2e.js';

export interface HttpAnswer {
  status: number;
  body: any;
}

/** One JSON request; the body of the answer parsed (null when there is none). */
export async function call(baseUrl: string, method: string, route: string, token: string, body?: unknown): Promise<HttpAnswer> {
  const res = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function expectStatus(answer: Promise<HttpAnswer>, status: number, what: string): Promise<HttpAnswer> {
  const res = await answer;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

export interface HttpTenant {
  companyId: string;
  setorIds: string[];
  /** A live key with every scope. */
  key: string;
}

/**
 * A company (no daily, rpm or safe-hour limits in the way unless `settings` says so), a live key
 * with every scope, and `setores` setores whose numbers are connected by the simulator scanning the QR
 * code (SIMULATOR_SCAN_DELAY_MS), warming limit lifted for volume.
 */
export async function createHttpTenant(
  baseUrl: string,
  options: { boxes?: number; rpm?: number; settings?: Record<string, unknown> } = {},
): Promise<HttpTenant> {
  const admin = (method: string, route: string, body?: unknown) => call(baseUrl, method, route, PROCESS_ADMIN_TOKEN, body);
  const company = await expectStatus(
    admin('POST', '/admin/v1/companies', {
      name: 'Process Co',
      company_rpm: 100_000,
      daily_limit: 100_000,
      concurrent_campaigns_limit: 10,
      safe_hours: { start: 0, end: 24 },
      ...options.settings,
    }),
    201,
    'create company',
  );
  const companyId: string = company.body.data.id;
  const key: string = (
    await expectStatus(
      admin('POST', `/admin/v1/companies/${companyId}/api-keys`, { name: 'process key', scopes: ['*'], mode: 'live', rpm: options.rpm ?? 100_000 }),
      201,
      'create key',
    )
  ).body.data.key;
  const setorIds: string[] = [];
  for (let i = 0; i < (options.boxes ?? 0); i += 1) {
    const setor = await expectStatus(admin('POST', `/admin/v1/companies/${companyId}/setores`, { nome: `Caixa ${i + 1}` }), 201, 'create box');
    const setorId: string = setor.body.data.id;
    await expectStatus(admin('PATCH', `/admin/v1/setores/${setorId}`, { warming_daily_limit: 100_000 }), 200, 'lift warming');
    const instance = await expectStatus(call(baseUrl, 'POST', '/v1/channel/instances', key, { setor_id: setorId }), 201, 'create instance');
    const instanceId: string = instance.body.data.instance_id;
    await expectStatus(call(baseUrl, 'GET', `/v1/channel/instances/${instanceId}/qr`, key), 200, 'request QR');
    await eventually(async () => (await call(baseUrl, 'GET', `/v1/channel/instances/${instanceId}/status`, key)).body.data.status === 'connected', {
      timeoutMs: 15_000,
      intervalMs: 50,
    });
    setorIds.push(setorId);
  }
  return { companyId, setorIds, key };
}

/** Creates a multi-number campaign over every setor of the tenant; returns its id. */
export async function createCampaign(baseUrl: string, tenant: HttpTenant, recipients: { phone: string; name?: string }[], name = 'Process campaign'): Promise<string> {
  const res = await expectStatus(
    call(baseUrl, 'POST', '/v1/campaigns', tenant.key, {
      name,
      recipients,
      message: { text: 'Olá {{primeiro_nome}}, pedido {{telefone}}' },
      ...(tenant.setorIds.length > 1 ? { setor_ids: tenant.setorIds } : { setor_id: tenant.setorIds[0] }),
      options: { anti_ban_level: 'normal' },
    }),
    202,
    'create campaign',
  );
  return res.body.data.id;
}

/**
 * A new tenant with `boxes` numbers and a campaign `name` over them to `recipients` people (Pessoa 0, Pessoa 1, …) whose
 * numbers follow `firstPhone`: the tenant, the recipients and the campaign's id.
 */
export async function launchHttpCampaign(baseUrl: string, options: { boxes: number; recipients: number; firstPhone: number; name: string }) {
  const tenant = await createHttpTenant(baseUrl, { boxes: options.boxes });
  const recipients = Array.from({ length: options.recipients }, (_, i) => ({ phone: phone(options.firstPhone + i), name: `Pessoa ${i}` }));
  const id = await createCampaign(baseUrl, tenant, recipients, options.name);
  return { tenant, recipients, id };
}

/** `GET /v1/campaigns/:id` data. */
export async function readCampaign(baseUrl: string, tenant: HttpTenant, id: string) {
  return (await expectStatus(call(baseUrl, 'GET', `/v1/campaigns/${id}`, tenant.key), 200, 'read campaign')).body.data;
}

/** How many channel messages the simulator holds for the company. */
export async function outboxCount(db: Kysely<Database>, companyId: string): Promise<number> {
  const row = await db
    .selectFrom('simulator_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The proof of exactly once: the campaign is concluido with counters that add up, every
 * recipient has exactly one item in the simulator outbox (none missing, none repeated), every
 * message is recorded once as sent with one `message.sent` event, and nothing is left claimed.
 */
export async function expectSentExactlyOnce(db: Kysely<Database>, detail: Record<string, unknown>, tenant: HttpTenant, recipients: { phone: string }[]) {
  const total = recipients.length;
  expect(detail).toMatchObject({ status: 'concluido', total_destinatarios: total, total_enviados: total, total_falhas: 0, total_pulados: 0, progress: 100 });
  expect(Number(detail.total_enviados) + Number(detail.total_falhas) + Number(detail.total_pulados)).toBe(detail.total_destinatarios);

  const sent = await outbox(db, tenant.companyId);
  const perRecipient = new Map<string, number>();
  for (const item of sent) perRecipient.set(item.to_number, (perRecipient.get(item.to_number) ?? 0) + 1);
  const repeated = [...perRecipient].filter(([, n]) => n > 1);
  const missing = recipients.filter((r) => !perRecipient.has(r.phone));
  expect({ repeated: repeated.length, missing: missing.length, items: sent.length }).toEqual({ repeated: 0, missing: 0, items: total });
  expect(sent.every((m) => m.outcome === 'sent')).toBe(true);

  const statuses = await db
    .selectFrom('campaign_messages')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('campaign_id', '=', String(detail.id))
    .groupBy('status')
    .execute();
  expect(Object.fromEntries(statuses.map((s) => [s.status, Number(s.n)]))).toEqual({ enviado: total });
  const events = await db.selectFrom('domain_events').select('data').where('company_id', '=', tenant.companyId).where('event', '=', 'message.sent').execute();
  expect(events).toHaveLength(total);
  expect(new Set(events.map((e) => (e.data as { detailId: string }).detailId)).size).toBe(total);
}
