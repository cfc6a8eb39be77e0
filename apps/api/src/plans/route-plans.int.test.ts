import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import request from 'supertest';
import { wholeTableReads, isExplainable, type CapturedStatement } from '@carteiro/postgres/testing';
import { createTestApi, type TestApi } from '../testing/test-api.js';
import { spyOnStatements } from '../testing/statement-spy.js';
import { fillPath, routeTable } from '../testing/route-table.js';
import { ticketTenant, nextPhone } from '../testing/ticket-reply-fixtures.js';
import { fillGrownTables } from './grown-tables.js';

/**
 * The query-plan audit: with the tables that grow with traffic holding rows of hundreds of other companies, every
 * statement the /v1 and /admin/v1 routes send for one company (every read route, and the main writes) is EXPLAINed
 * with its own parameters, and none may read a table of more than `MAX_ROWS` rows whole (a sequential scan, or an
 * index scan with no index condition). How to run it and what it checks: docs/scaling.md.
 */
const MAX_ROWS = 10_000;
const SCALE = Number(process.env.PLAN_AUDIT_SCALE ?? 1);

interface Captured extends CapturedStatement {
  route: string;
}

/**
 * Reads of many rows of the busy company that are what the route is for, each with why: the audit fails on any other.
 * Matched against the statement's text (whitespace collapsed) and, when given, the relation read.
 */
const ACCEPTED: { statement: RegExp; relation?: RegExp; why: string }[] = [
  {
    statement: /count\(\*\) over \(\) as "total" from "contacts"|^select count\(\*\) as "n" from "(contracts|scheduled_messages)" where "company_id" = \$1( and "kind" = \$2)?$/i,
    why: "a page's `total` (the specification's paginated lists): it counts the company's rows matching the list's filters",
  },
  {
    statement: /^UPDATE campaign_messages m SET contact_id = \$1 FROM campaigns c WHERE c\.company_id = \$2/,
    why: 'a contact merge reaches campaign recipients through the company\'s campaigns: an index on contact_id would cost every send a write (0029)',
  },
  {
    statement: /^SELECT m\.sent, m\.failed, \(SELECT count\(\*\) FROM domain_events e/,
    relation: /^(messages|domain_events_)/,
    why: "the summary report counts its period's messages and inbound events (index-only on messages_report_idx, domain_events_report_idx): the period's rows, at most 366 days",
  },
  {
    statement: /from "crm_opportunities" where "company_id" = \$1 and "deleted_at" is null and "title" ilike \$2/,
    why: 'a title search: PostgreSQL scans this small table, and uses crm_opportunities_title_trgm_idx once it is large',
  },
];

describe('query plans of every route on grown tables', () => {
  let api: TestApi;
  let restore = () => {};
  /** The route being called (what a captured statement is charged to); null while nothing is captured. */
  let route: string | null = null;
  /** One entry per distinct statement text (the first parameters it was sent with). */
  const captured = new Map<string, Captured>();
  let busyCompanyId = '';

  beforeAll(async () => {
    api = await createTestApi();
    busyCompanyId = (await fillGrownTables(api.database.url, SCALE)).busyCompanyId;
    restore = spyOnStatements((_client, lowered, sent) => {
      if (route === null || !isExplainable(lowered) || lowered.includes('pgboss.')) return;
      if (!captured.has(sent.text)) captured.set(sent.text, { route, text: sent.text, values: sent.values });
    });
  }, 120_000);
  afterAll(async () => {
    restore();
    await api?.close();
  });

  /** Calls the route with its statements charged to `label` (METHOD path). */
  async function call(label: string, send: () => request.Test): Promise<request.Response> {
    route = label;
    try {
      return await send();
    } finally {
      route = null;
    }
  }

  it('reads no large table whole', async () => {
    const app = api.app;
    const admin = api.adminAuth;
    const t = await ticketTenant(api, { company: { company_rpm: 100_000 } });
    const { company, setor, agent, auth } = t;
    const { ticket, contactId, phone } = await t.openTicket();
    const adminPath = (path: string) => `/admin/v1/companies/${company.id}${path}`;
    const created = (res: request.Response) => {
      if (res.status < 200 || res.status > 202) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    };

    // The company's scheduling catalogue (admin writes, not audited: small tables).
    const unit = created(
      await request(app)
        .post(adminPath('/units'))
        .set(admin)
        .send({ name: 'Centro', timezone: 'America/Manaus', address: { street: 'Av. Sete', number: '1', district: 'Centro', city: 'Manaus', uf: 'AM', postal_code: '69010-001', ibge_code: '1302603' } }),
    );
    const type = created(
      await request(app)
        .post(adminPath('/appointment-types'))
        .set(admin)
        .send({ name: 'Consulta', duration_minutes: 30, slot_interval_minutes: 30, min_notice_minutes: 60, max_advance_days: 30, price: 100, unit_ids: [unit.id] }),
    );
    const everyDay = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ unit_id: unit.id, weekday, start: '08:00', end: '18:00' }));
    const professional = created(
      await request(app).post(adminPath('/professionals')).set(admin).send({ name: 'Dra. Ana', schedule: everyDay, services: [{ appointment_type_id: type.id, unit_id: unit.id }] }),
    );
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

    // The main writes, each with a few rows of the company's own.
    const post = (path: string, body: object) => call(`POST ${path}`, () => request(app).post(path).set(auth).send(body));
    const contact = created(await post('/v1/contacts', { phone: nextPhone(), name: 'Bruno' }));
    const other = created(await post('/v1/contacts', { phone: nextPhone(), name: 'Bruno Dois' }));
    const inbound = await call('POST /admin/v1/simulator/inbound', () =>
      request(app).post('/admin/v1/simulator/inbound').set(admin).send({ setor_id: setor.id, from: phone, text: 'Oi, preciso de ajuda' }),
    );
    expect(inbound.status).toBe(201);
    const to = nextPhone();
    const sent = created(await post('/v1/messages', { phone: to, message: { text: 'Olá!' }, setor_id: setor.id }));
    created(await post('/v1/messages/first-contact', { phone: nextPhone(), name: 'Carla', message: 'Oi', setor_id: setor.id }));
    // The delivery receipt of that message, as the channel reports it (the receipt path looks the message up by its provider id).
    const outboxItem = (await request(app).get('/admin/v1/simulator/messages').query({ to }).set(admin)).body.data.items[0];
    created(await call('POST /admin/v1/simulator/receipts', () => request(app).post('/admin/v1/simulator/receipts').set(admin).send({ message_id: outboxItem.id, status: 'read' })));
    created(await post(`/v1/tickets/${ticket.id}/messages`, { message: { text: 'Já vejo isso' } }));
    const opportunity = created(await post('/v1/crm/opportunities', { title: 'Loja virtual', client_id: contactId, value: 100 }));
    const contract = created(await post('/v1/contracts', { title: 'Serviços', client_id: contactId, content: '# Contrato\n\n{{cliente_nome}}', value: 100 }));
    const slots = await call('GET /v1/appointments/availability', () =>
      request(app).get(`/v1/appointments/availability?appointment_type_id=${type.id}&from=${day(2)}&to=${day(2)}`).set(auth),
    );
    const appointment = created(await post('/v1/appointments', { appointment_type_id: type.id, starts_at: slots.body.data.items[0].starts_at, phone: nextPhone() }));
    const scheduled = created(await post('/v1/scheduled-messages', { phone: nextPhone(), text: 'Oi', send_at: new Date(Date.now() + 86_400_000).toISOString(), setor_id: setor.id }));
    const campaign = created(await post('/v1/campaigns', { name: 'Promo', recipients: [{ phone: nextPhone() }, { phone: nextPhone() }], message: { text: 'Oi' } }));
    const webhook = created(await post('/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['message.sent'] }));
    created(await post(`/v1/contacts/${contact.id}/merge`, { merge_contact_id: other.id }));
    // Writes on those rows: their answers only have to be no server error (what matters is the statements they send).
    const statuses: string[] = [];
    const write = async (method: 'post' | 'patch' | 'put' | 'delete', template: string, path: string, body?: object) => {
      const res = await call(`${method.toUpperCase()} ${template}`, () => request(app)[method](path).set(auth).send(body));
      statuses.push(`${res.status} ${method.toUpperCase()} ${path}${res.status >= 400 ? ` ${JSON.stringify(res.body.error)}` : ''}`);
      expect(res.status).toBeLessThan(500);
      return res;
    };
    const tag = created(await post('/v1/tags', { name: 'VIP' }));
    const stages = (await request(app).get('/v1/crm/stages').set(auth)).body.data as { id: string }[];
    await write('patch', '/v1/contacts/:id', `/v1/contacts/${contactId}`, { name: 'Ana Maria Souza' });
    await write('post', '/v1/tickets/:id/tags', `/v1/tickets/${ticket.id}/tags`, { tag_ids: [tag.id] });
    await write('patch', '/v1/tickets/:id/assignee', `/v1/tickets/${ticket.id}/assignee`, { agent_id: agent.id });
    await write('patch', '/v1/tickets/:id/priority', `/v1/tickets/${ticket.id}/priority`, { priority: 'high' });
    await write('post', '/v1/tickets/:id/links', `/v1/tickets/${ticket.id}/links`, { type: 'crm_opportunity', id: opportunity.id });
    await write('delete', '/v1/tickets/:id/links/:type/:targetId', `/v1/tickets/${ticket.id}/links/crm_opportunity/${opportunity.id}`);
    await write('delete', '/v1/tickets/:id/tags', `/v1/tickets/${ticket.id}/tags`, { tag_ids: [tag.id] });
    await write('post', '/v1/tickets/:id/handoff', `/v1/tickets/${ticket.id}/handoff`, { summary: 'Resumo', priority: 'high' });
    await write('patch', '/v1/messages/:id', `/v1/messages/${sent.message_id}`, { text: 'Olá de novo' });
    await write('post', '/v1/messages/:id/reaction', `/v1/messages/${sent.message_id}/reaction`, { emoji: '👍' });
    await write('delete', '/v1/messages/:id', `/v1/messages/${sent.message_id}`);
    await write('post', '/v1/tag-rules', '/v1/tag-rules', { tag_id: tag.id, match_type: 'contains', match_value: 'pedido' });
    await write('post', '/v1/campaigns/:id/retry', `/v1/campaigns/${campaign.id}/retry`, { all_failures: true });
    await write('post', '/v1/webhooks/:id/test', `/v1/webhooks/${webhook.id}/test`, {});
    await write('patch', '/v1/agents/:id/status', `/v1/agents/${agent.id}/status`, { status: 'away' });
    await write('patch', '/v1/crm/opportunities/:id', `/v1/crm/opportunities/${opportunity.id}`, { title: 'Loja virtual 2' });
    await write('post', '/v1/crm/opportunities/:id/move-stage', `/v1/crm/opportunities/${opportunity.id}/move-stage`, { stage_id: stages[1]?.id });
    route = 'POST /v1/contracts/:id/send';
    statuses.push(`${(await request(app).post(`/v1/contracts/${contract.id}/send`).set(auth).set('x-actor-user-id', 'user-1').send({})).status} POST /v1/contracts/:id/send`);
    route = null;
    await write('delete', '/v1/crm/opportunities/:id', `/v1/crm/opportunities/${opportunity.id}`);
    await write('patch', '/v1/appointments/:id', `/v1/appointments/${appointment.id}`, { description: 'Retorno' });
    await write('delete', '/v1/appointments/:id', `/v1/appointments/${appointment.id}`);
    await write('delete', '/v1/scheduled-messages/:id', `/v1/scheduled-messages/${scheduled.id}`);
    await write('patch', '/v1/tickets/:id/status', `/v1/tickets/${ticket.id}/status`, { status: 'closed', send_closing_message: false, request_rating: false });
    await write('post', '/v1/tickets', '/v1/tickets', { client_id: contactId, setor_id: setor.id });
    await write('post', '/v1/tickets/:id/rating', `/v1/tickets/${ticket.id}/rating`, { score: 5 });

    // Every read route, with the company's own ids in its path.
    const ids: Record<string, string> = {
      '/v1/tickets': ticket.id,
      '/v1/contacts': contactId,
      '/v1/crm/opportunities': opportunity.id,
      '/v1/contracts': contract.id,
      '/v1/appointments': appointment.id,
      '/v1/scheduled-messages': scheduled.id,
      '/v1/campaigns': campaign.id,
      '/v1/webhooks': webhook.id,
      '/v1/agents': agent.id,
      '/v1/messages': ticket.conversationId,
      '/v1/channel/instances': (await api.database.db.selectFrom('channel_instances').select('id').where('setor_id', '=', setor.id).executeTakeFirstOrThrow()).id,
      '/admin/v1/companies': company.id,
      '/admin/v1/setores': setor.id,
      '/admin/v1/units': unit.id,
      '/admin/v1/professionals': professional.id,
      '/admin/v1/appointment-types': type.id,
      '/admin/v1/agents': agent.id,
    };
    const query: Record<string, string> = {
      '/v1/appointments/availability': `?appointment_type_id=${type.id}&from=${day(2)}&to=${day(2)}`,
      '/v1/leads/cnaes': '?q=comercio',
    };
    const { v1, admin: adminRoutes } = routeTable(app);
    const reads = [...v1, ...adminRoutes].filter((r) => r.method === 'get');
    for (const r of reads) {
      const prefix = Object.keys(ids)
        .filter((p) => r.path.startsWith(`${p}/:`))
        .sort((a, b) => b.length - a.length)[0];
      const path = fillPath(r.path, (param) => (prefix && param === r.path.slice(prefix.length + 2).split('/')[0] ? ids[prefix]! : crypto.randomUUID())) + (query[r.path] ?? '');
      const res = await call(`GET ${r.path}`, () => request(app).get(path).set(r.path.startsWith('/admin/') ? admin : auth));
      statuses.push(`${res.status} GET ${path}${res.status >= 400 ? ` ${JSON.stringify(res.body.error)}` : ''}`);
      expect(res.status).toBeLessThan(500);
    }
    // The lists' filters, which choose other statements.
    const since = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    for (const path of [
      '/v1/tickets?status=open,pending,snoozed,closed',
      `/v1/tickets?owner=${agent.id}`,
      '/v1/tickets?owner=none',
      `/v1/tickets?client_id=${contactId}`,
      `/v1/tickets?tag_id=${tag.id}`,
      '/v1/tickets?q=Ana',
      `/v1/tickets?q=${phone.slice(-8)}`,
      `/v1/tickets?sort=updated_asc&updated_since=${since}`,
      '/v1/contacts?q=Bruno',
      `/v1/contacts?phone=${encodeURIComponent(phone)}`,
      `/v1/contacts?tag_id=${tag.id}`,
      `/v1/contacts?updated_since=${since}`,
      `/v1/crm/opportunities?client_id=${contactId}`,
      '/v1/crm/opportunities?q=Loja&include_closed=true',
      `/v1/crm/opportunities/count?stage_id=${stages[1]?.id}`,
      `/v1/appointments?from=${day(0)}&to=${day(7)}`,
      `/v1/appointments?client_id=${contactId}&professional_id=${professional.id}`,
      '/v1/scheduled-messages?status=scheduled',
      `/v1/contracts?status=draft&client_id=${contactId}`,
      '/v1/contracts?search=Servi',
      `/v1/scheduled-messages?client_id=${contactId}`,
    ]) {
      const res = await call(`GET ${path}`, () => request(app).get(path).set(auth));
      statuses.push(`${res.status} GET ${path}${res.status >= 400 ? ` ${JSON.stringify(res.body.error)}` : ''}`);
      expect(res.status).toBeLessThan(500);
    }
    restore();

    const findings: string[] = [];
    const client = new pg.Client({ connectionString: api.database.url });
    await client.connect();
    try {
      for (const statement of captured.values()) {
        if (process.env.PLAN_AUDIT_PLANS === '1') {
          const plan = (await client.query(`EXPLAIN ${statement.text}`, [...statement.values])).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
          console.log(`${statement.route}\n${statement.text.replace(/\s+/g, ' ').slice(0, 400)}\n${plan}`);
        }
        for (const read of await wholeTableReads(client, statement, MAX_ROWS)) {
          findings.push(`${statement.route}: ${read.node} on ${read.relation} (~${read.rows} rows) in ${statement.text.replace(/\s+/g, ' ').slice(0, 240)}`);
        }
        // The same statement for the busy company: nothing may read a large share of its rows without a limit.
        const busy = { text: statement.text, values: statement.values.map((v) => (v === company.id ? busyCompanyId : v)) };
        if (process.env.PLAN_AUDIT_PLANS === '1') {
          const plan = (await client.query(`EXPLAIN ${busy.text}`, [...busy.values])).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
          console.log(`BUSY ${statement.route}\n${statement.text.replace(/\s+/g, ' ').slice(0, 400)}\n${plan}`);
        }
        const flat = statement.text.replace(/\s+/g, ' ').trim();
        const accepted = ACCEPTED.filter((a) => a.statement.test(flat));
        for (const read of await wholeTableReads(client, busy, MAX_ROWS, { manyRows: true })) {
          if (accepted.some((a) => !a.relation || a.relation.test(read.relation))) continue;
          findings.push(`${statement.route} (busy company): ${read.node} on ${read.relation} in ${statement.text.replace(/\s+/g, ' ').slice(0, 240)}`);
        }
      }
    } finally {
      await client.end();
    }
    if (process.env.PLAN_AUDIT_VERBOSE === '1') console.log(`${captured.size} statements\n${statuses.join('\n')}`);
    expect(captured.size).toBeGreaterThan(100);
    expect(findings).toEqual([]);
  }, 180_000);
});
