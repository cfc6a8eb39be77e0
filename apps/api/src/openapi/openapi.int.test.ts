import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createWebhookSchema } from '../webhooks/webhooks.routes.js';
import { sendMessageSchema } from '../messages/messages.routes.js';
import { createCampaignSchema } from '../campaigns/campaigns.routes.js';
import { routeTable } from '../testing/route-table.js';
import { createTestApi, type TestApi } from '../testing/test-api.js';
import { apiOperations, buildOpenApiDocument } from './document.js';
import { ResponseValidator } from './testing/response-validator.js';

type Json = Record<string, any>;

let api: TestApi;
let document: Json;
let validator: ResponseValidator;

beforeAll(async () => {
  api = await createTestApi({ env: { SIMULATOR_SCAN_DELAY_MS: '0' } });
  document = buildOpenApiDocument();
  validator = new ResponseValidator(document);
});
afterAll(() => api.close());

/** Routes registered on the app itself (outside the routers) under /v1, /admin/v1 or /webhooks (providers' callbacks): the public ones. */
function appLevelApiRoutes(): { method: string; path: string }[] {
  const stack = (api.app as unknown as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }).router.stack;
  return stack
    .filter((layer) => layer.route && /^\/(v1|admin\/v1|webhooks)\//.test(layer.route.path))
    .flatMap((layer) => Object.keys(layer.route!.methods).map((method) => ({ method, path: layer.route!.path })));
}

describe('the OpenAPI document', () => {
  it('has one operation for every Express route and no operation without a route, with the scope the route demands', () => {
    const table = routeTable(api.app);
    const registered = [
      ...table.v1.map((r) => ({ key: `${r.method.toUpperCase()} ${r.path}`, auth: r.scope ?? 'none' })),
      ...table.admin.map((r) => ({ key: `${r.method.toUpperCase()} ${r.path}`, auth: 'admin' })),
      ...appLevelApiRoutes().map((r) => ({ key: `${r.method.toUpperCase()} ${r.path}`, auth: 'public' })),
    ].sort((a, b) => a.key.localeCompare(b.key));
    const documented = apiOperations
      .map((op) => ({ key: `${op.method.toUpperCase()} ${op.path}`, auth: typeof op.auth === 'object' ? op.auth.scope : op.auth }))
      .sort((a, b) => a.key.localeCompare(b.key));
    expect(documented).toEqual(registered);

    // And the document itself has each of them, with the scope as a security requirement.
    for (const op of apiOperations) {
      const operation = document.paths[op.path.replace(/:([A-Za-z_]+)/g, '{$1}')][op.method];
      expect(operation.operationId).toBe(op.operationId);
      if (typeof op.auth === 'object') {
        expect(operation.security).toEqual([{ apiKey: [op.auth.scope] }]);
        expect(operation['x-required-scope']).toBe(op.auth.scope);
      }
    }
    expect(new Set(apiOperations.map((op) => op.operationId)).size).toBe(apiOperations.length);
  });

  it('documents the 404 of every /v1 read of one record by its id (an unknown id, or another company\'s)', () => {
    const reads = apiOperations.filter((op) => op.method === 'get' && op.path.startsWith('/v1/') && /\/:[A-Za-z_]+$/.test(op.path));
    expect(reads.length).toBeGreaterThan(10);
    const missing = reads.filter((op) => !document.paths[op.path.replace(/:([A-Za-z_]+)/g, '{$1}')].get.responses['404']).map((op) => op.path);
    expect(missing).toEqual([]);
  });

  it('embeds the very schemas the controllers validate requests with', () => {
    expect(document.components.schemas.SendMessageRequest).toEqual(sendMessageSchema);
    expect(document.components.schemas.CreateCampaignRequest).toEqual(createCampaignSchema);
    expect(document.components.schemas.CreateWebhookRequest).toEqual(createWebhookSchema);
    expect(document.paths['/v1/campaigns'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateCampaignRequest' });
  });

  it('describes every webhook event with its envelope', () => {
    expect(Object.keys(document.webhooks)).toContain('campaign.completed');
    expect(Object.keys(document.webhooks)).toHaveLength(34);
    const completed = document.components.schemas.CampaignCompletedEvent;
    expect(completed.properties.event).toEqual({ type: 'string', enum: ['campaign.completed'] });
    expect(Object.keys(completed.properties.data.properties)).toEqual([
      'campaignId',
      'totalDestinatarios',
      'totalEnviados',
      'totalFalhas',
      'totalPulados',
      'cancelledByUser',
    ]);
  });

  it('is served publicly at GET /v1/openapi.json', async () => {
    const res = await request(api.app).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(document);
    expect(res.body.openapi).toBe('3.1.0');
  });
});

describe('real answers conform to the documented response schemas', () => {
  it('for the happy paths of every feature and for the error envelope', async () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    const company = await api.createCompany({ company_rpm: 100_000, safe_hours: { start: 0, end: 24 } }); // any hour of the run
    // A live key: test keys fail 5% of sends at random. Without a provider configured, live sends go to the simulator too.
    const key = await api.createKey(company.id, { rpm: 100_000, mode: 'live' });
    const bearer = { Authorization: `Bearer ${key}` };
    const setor = await api.createSetor(company.id);
    await api.connectSetor(company.id, setor.id);
    const second = await api.createSetor(company.id, { nome: 'Second' });

    /** Calls a route, expects `status`, checks the body against the document, and returns it. */
    const call = async (
      method: 'get' | 'post' | 'put' | 'patch' | 'delete',
      template: string,
      params: Record<string, string>,
      status: number,
      options: { body?: unknown; headers?: Record<string, string> } = {},
    ): Promise<Json> => {
      const path = template.replace(/:([A-Za-z_]+)/g, (_m, name: string) => params[name]!) + (params.query ?? '');
      let req = request(api.app)[method](path).set(options.headers ?? bearer);
      if (options.body !== undefined) req = req.send(options.body as object);
      const res = await req;
      expect({ route: `${method} ${path}`, status: res.status, body: res.status === status ? undefined : res.body }).toEqual({
        route: `${method} ${path}`,
        status,
        body: undefined,
      });
      problems.push(...validator.check(method, template, res.status, res.body));
      seen.add(`${method.toUpperCase()} ${template}`);
      return res.body;
    };

    await call('get', '/v1/limits', {}, 200);
    await call('get', '/v1/me', {}, 200);
    await call('get', '/v1/billing/balance', {}, 200);
    await call('get', '/v1/setores', {}, 200);
    await call('get', '/v1/teams', {}, 200);

    const sent = await call('post', '/v1/messages', {}, 201, { body: { phone: '+5511987654321', message: { text: 'Olá' } } });
    const messageId = sent.data.message_id;
    await call('post', '/v1/messages/first-contact', {}, 201, { body: { phone: '+5511987654322', name: 'Ana', message: 'Olá, Ana' } });
    await call('post', '/v1/messages/interactive', {}, 201, {
      body: { phone: '+5511987654323', interactive: { type: 'button', body: { text: 'Escolha' }, action: { buttons: [{ type: 'reply', reply: { id: 'a', title: 'A' } }] } } },
    });
    await call('post', '/v1/messages/event', {}, 201, { body: { phone: '+5511987654323', event: { name: 'Reunião', startTime: Math.floor(Date.now() / 1000) + 3600 } } });
    await call('post', '/v1/messages/poll', {}, 201, { body: { phone: '+5511987654323', poll: { name: 'Qual?', options: ['a', 'b'] } } });
    await call('patch', '/v1/messages/:conversa_id', { conversa_id: messageId }, 200, { body: { text: 'Olá!' } });
    await call('post', '/v1/messages/:conversa_id/reaction', { conversa_id: messageId }, 200, { body: { emoji: '👍' } });
    await call('delete', '/v1/messages/:conversa_id', { conversa_id: messageId }, 200);
    await call('post', '/v1/messages', {}, 400, { body: { phone: '+5511987654321' } });
    await call('post', '/v1/messages', {}, 502, { body: { phone: '+5511987650004', message: { text: 'provider fails' } } });

    const created = await call('post', '/v1/campaigns', {}, 202, {
      body: {
        name: 'Boas-vindas',
        recipients: [{ phone: '+5511987650011', name: 'Ana' }, { phone: '+5511987650012' }],
        message: { text: '{{saudacao}}, {{primeiro_nome}}!' },
        options: { schedule_at: new Date(Date.now() + 86_400_000).toISOString() },
      },
      headers: { ...bearer, 'Idempotency-Key': crypto.randomUUID() },
    });
    const id = created.data.id;
    await call('get', '/v1/campaigns', { query: '?status=pendente' }, 200);
    await call('get', '/v1/campaigns/:id', { id }, 200);
    await call('get', '/v1/campaigns/:id/messages', { id }, 200);
    await call('get', '/v1/campaigns/:id/recipients', { id, query: '?q=Ana' }, 200);
    await call('post', '/v1/campaigns/:id/pause', { id }, 409);
    await call('post', '/v1/campaigns/:id/resume', { id }, 409);
    await call('post', '/v1/campaigns/:id/retry', { id }, 409, { body: { all_failures: true } });
    await call('post', '/v1/campaigns/:id/cancel', { id }, 200);
    await call('get', '/v1/campaigns/:id', { id: crypto.randomUUID() }, 404);

    const instance = await call('post', '/v1/channel/instances', {}, 201, { body: { setor_id: second.id } });
    const instanceId = instance.data.instance_id;
    await call('get', '/v1/channel/instances', {}, 200);
    await call('get', '/v1/channel/instances/health', { query: '?include_history=true' }, 200);
    await call('get', '/v1/channel/instances/:id', { id: instanceId }, 200);
    await call('get', '/v1/channel/instances/:id/qr', { id: instanceId }, 200);
    await call('get', '/v1/channel/instances/:id/status', { id: instanceId }, 200);
    await call('post', '/v1/channel/instances/:id/profile/refresh', { id: instanceId }, 200);
    await call('post', '/v1/channel/instances/profile/batch', {}, 200, { body: { items: [{ setor_id: setor.id, name: 'Vendas' }] } });
    // An item that fails: its error is the documented { code, message }.
    await call('post', '/v1/channel/instances/profile/batch', {}, 200, { body: { items: [{ setor_id: crypto.randomUUID(), name: 'Ninguém' }] } });
    await call('post', '/v1/channel/instances/profile-picture/batch', {}, 200, {
      body: { items: [{ setor_id: setor.id, picture_url: 'https://example.com/a.png' }] },
    });
    await call('post', '/v1/channel/instances/:id/disconnect', { id: instanceId }, 200);

    const webhook = await call('post', '/v1/webhooks', {}, 201, { body: { url: 'http://127.0.0.1:9/hooks', events: ['message.sent', 'campaign.completed'] } });
    const webhookId = webhook.data.id;
    await call('get', '/v1/webhooks', {}, 200);
    await call('get', '/v1/webhooks/:id', { id: webhookId }, 200);
    await call('put', '/v1/webhooks/:id', { id: webhookId }, 200, { body: { active: false } });
    await call('post', '/v1/webhooks/:id/test', { id: webhookId }, 200);
    await call('get', '/v1/webhooks/:id/deliveries', { id: webhookId, query: '?status=failed' }, 200);
    await call('post', '/v1/webhooks/:id/deliveries/:deliveryId/redeliver', { id: webhookId, deliveryId: crypto.randomUUID() }, 404);
    await call('post', '/v1/webhooks', {}, 400, { body: { url: 'http://127.0.0.1:9/hooks', events: ['nope'] } });
    await call('delete', '/v1/webhooks/:id', { id: webhookId }, 200);

    // Contacts, fields, tags, rules and imports (conversations.md §4, §5, §7).
    const fieldDef = await call('post', '/admin/v1/companies/:id/contact-fields', { id: company.id }, 201, {
      body: { key: 'plano', label: 'Plano', type: 'select', options: ['ouro'] },
      headers: api.adminAuth,
    });
    await call('patch', '/admin/v1/contact-fields/:id', { id: fieldDef.data.id }, 200, { body: { options: ['ouro', 'prata'] }, headers: api.adminAuth });
    await call('get', '/v1/contact-fields', {}, 200);
    const contactTag = await call('post', '/v1/tags', {}, 201, { body: { name: 'Orçamento', color: '#FFAA00' } });
    await call('get', '/v1/tags', { query: '?q=or' }, 200);
    await call('patch', '/v1/tags/:id', { id: contactTag.data.id }, 200, { body: { description: 'Pediu preço' } });
    const contactRule = await call('post', '/v1/tag-rules', {}, 201, { body: { tag_id: contactTag.data.id, match_type: 'regex', match_value: 'or[cç]amento' } });
    await call('get', '/v1/tag-rules', {}, 200);
    await call('patch', '/v1/tag-rules/:id', { id: contactRule.data.id }, 200, { body: { enabled: true } });
    await call('post', '/v1/tag-rules/test', {}, 200, { body: { text: 'Quero um orçamento' } });
    const contactA = await call('post', '/v1/contacts', {}, 201, { body: { phone: '+5511987654340', name: 'Ana', custom_fields: { plano: 'ouro' }, tag_ids: [contactTag.data.id] } });
    const contactB = await call('post', '/v1/contacts', {}, 201, { body: { phone: '+5511987654341', email: 'b@example.com' } });
    await call('get', '/v1/contacts', { query: '?q=ana&ia_ativa=true' }, 200);
    await call('get', '/v1/contacts/:id', { id: contactA.data.id }, 200);
    await call('patch', '/v1/contacts/:id', { id: contactA.data.id }, 200, { body: { custom_fields: { plano: 'prata' } } });
    await call('patch', '/v1/contacts/:id/assistant', { id: contactA.data.id }, 200, { body: { ia_ativa: false } });
    await call('post', '/v1/contacts/:id/merge', { id: contactA.data.id }, 200, { body: { merge_contact_id: contactB.data.id } });
    const contactImport = await call('post', '/v1/imports', {}, 202, { body: { type: 'contacts', rows: [{ phone: '+5511987654342', name: 'Cid' }] } });
    await call('get', '/v1/imports/:id', { id: contactImport.data.job_id }, 200);
    await call('delete', '/v1/tag-rules/:id', { id: contactRule.data.id }, 200);
    await call('delete', '/v1/tags/:id', { id: contactTag.data.id }, 200);
    await call('delete', '/admin/v1/contact-fields/:id', { id: fieldDef.data.id }, 200, { headers: api.adminAuth });

    // CRM (business.md §3).
    const crmStages = await call('get', '/v1/crm/stages', {}, 200);
    const crmProduct = await call('post', '/v1/crm/products', {}, 201, { body: { name: 'Site', price: 1500, sku: 'S-1' } });
    await call('get', '/v1/crm/products', { query: '?q=site' }, 200);
    const opportunity = await call('post', '/v1/crm/opportunities', {}, 201, {
      body: { title: 'Loja', phone: '+5511987654330', name: 'Bia', products: [{ product_id: crmProduct.data.id, quantity: 2 }] },
    });
    const opportunityId = opportunity.data.id;
    await call('get', '/v1/crm/opportunities', { query: '?include_closed=true' }, 200);
    await call('get', '/v1/crm/opportunities/count', {}, 200);
    await call('get', '/v1/crm/opportunities/:id', { id: opportunityId }, 200);
    await call('patch', '/v1/crm/opportunities/:id', { id: opportunityId }, 200, { body: { value: 99.9 } });
    await call('post', '/v1/crm/opportunities/:id/move-stage', { id: opportunityId }, 200, { body: { stage_id: crmStages.data[4].id } });
    await call('delete', '/v1/crm/opportunities/:id', { id: opportunityId }, 200);
    const crmStage = await call('post', '/admin/v1/companies/:id/crm/stages', { id: company.id }, 201, { body: { name: 'Demo' }, headers: api.adminAuth });
    await call('get', '/admin/v1/companies/:id/crm/stages', { id: company.id }, 200, { headers: api.adminAuth });
    await call('patch', '/admin/v1/crm/stages/:id', { id: crmStage.data.id }, 200, { body: { name: 'Demonstração' }, headers: api.adminAuth });
    await call('delete', '/admin/v1/crm/stages/:id', { id: crmStage.data.id }, 200, { headers: api.adminAuth });

    // Contracts (business.md §4).
    const template = await call('post', '/admin/v1/companies/:id/contract-templates', { id: company.id }, 201, {
      body: { name: 'Serviços', body: '# Contrato\n\nPrazo: {{prazo}}.', variables: [{ key: 'prazo', label: 'Prazo' }] },
      headers: api.adminAuth,
    });
    await call('patch', '/admin/v1/contract-templates/:id', { id: template.data.id }, 200, { body: { description: 'Padrão' }, headers: api.adminAuth });
    await call('get', '/v1/contract-templates', {}, 200);
    const contract = await call('post', '/v1/contracts', {}, 201, {
      body: { title: 'Serviços', client_id: opportunity.data.client.id, template_id: template.data.id, variables: { prazo: '12 meses' }, value: 100 },
    });
    const contractId = contract.data.id;
    await call('patch', '/v1/contracts/:id', { id: contractId }, 200, { body: { title: 'Serviços 2026' } });
    await call('get', '/v1/contracts', { query: '?status=draft' }, 200);
    await call('post', '/v1/contracts/:id/send', { id: contractId }, 200, { body: {}, headers: { ...bearer, 'x-actor-user-id': 'user-1' } });
    const signed = await call('get', '/v1/contracts/:id', { id: contractId }, 200);
    await call('post', '/admin/v1/simulator/contracts/:id/sign', { id: contractId }, 200, { body: { signer_id: signed.data.signers[0].id, outcome: 'signed' }, headers: api.adminAuth });
    await call('delete', '/v1/contracts/:id', { id: contractId }, 409);
    await call('delete', '/admin/v1/contract-templates/:id', { id: template.data.id }, 200, { headers: api.adminAuth });
    await call('post', '/webhooks/signing/:provider', { provider: 'zapsign' }, 404, { body: {}, headers: {} });

    // Scheduling (apps/api/src/scheduling): the catalogue, appointments, scheduled messages.
    {
      const admin = api.adminAuth;
      const unit = await call('post', '/admin/v1/companies/:id/units', { id: company.id }, 201, { body: { name: 'Centro', timezone: 'America/Manaus', address: { city: 'Manaus', uf: 'AM' } }, headers: admin });
      await call('patch', '/admin/v1/units/:id', { id: unit.data.id }, 200, { body: { open_on_holidays: true }, headers: admin });
      const type = await call('post', '/admin/v1/companies/:id/appointment-types', { id: company.id }, 201, { body: { name: 'Consulta', duration_minutes: 30, unit_ids: [unit.data.id] }, headers: admin });
      await call('patch', '/admin/v1/appointment-types/:id', { id: type.data.id }, 200, { body: { price: 99.9 }, headers: admin });
      const pro = await call('post', '/admin/v1/companies/:id/professionals', { id: company.id }, 201, { body: { name: 'Dra. Ana' }, headers: admin });
      const proIds = { id: pro.data.id };
      const week = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ unit_id: unit.data.id, weekday, start: '00:00', end: '24:00' }));
      await call('put', '/admin/v1/professionals/:id/schedule', proIds, 200, { body: { schedule: week }, headers: admin });
      await call('put', '/admin/v1/professionals/:id/services', proIds, 200, { body: { services: [{ appointment_type_id: type.data.id, unit_id: unit.data.id }] }, headers: admin });
      await call('patch', '/admin/v1/professionals/:id', proIds, 200, { body: { phone: '+5592988887777' }, headers: admin });
      const far = new Date(Date.now() + 20 * 86_400_000);
      await call('post', '/admin/v1/professionals/:id/blocks', proIds, 201, { body: { starts_at: far.toISOString(), ends_at: new Date(far.getTime() + 3_600_000).toISOString() }, headers: admin });
      // The spec's by-id paths (business.md §8).
      await call('patch', '/admin/v1/units/:id', { id: unit.data.id }, 200, { body: { open_on_holidays: false }, headers: admin });
      await call('patch', '/admin/v1/appointment-types/:id', { id: type.data.id }, 200, { body: { price: 89.9 }, headers: admin });
      await call('put', '/admin/v1/professionals/:id/schedule', { id: pro.data.id }, 200, { body: { schedule: week }, headers: admin });
      await call('put', '/admin/v1/professionals/:id/services', { id: pro.data.id }, 200, { body: { services: [{ appointment_type_id: type.data.id, unit_id: unit.data.id }] }, headers: admin });
      await call('patch', '/admin/v1/professionals/:id', { id: pro.data.id }, 200, { body: { phone: '+5592988887776' }, headers: admin });
      await call('post', '/admin/v1/professionals/:id/blocks', { id: pro.data.id }, 201, { body: { starts_at: new Date(far.getTime() + 86_400_000).toISOString(), ends_at: new Date(far.getTime() + 86_400_000 + 3_600_000).toISOString() }, headers: admin });
      await call('put', '/admin/v1/companies/:id/reminder-settings', { id: company.id }, 200, { body: { reminder_offsets_minutes: [60] }, headers: admin });
      await call('get', '/admin/v1/companies/:id/reminder-settings', { id: company.id }, 200, { headers: admin });
      await call('get', '/v1/units', {}, 200);
      await call('get', '/v1/professionals', {}, 200);
      await call('get', '/v1/appointment-types', {}, 200);
      const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
      const slots = await call('get', '/v1/appointments/availability', { query: `?appointment_type_id=${type.data.id}&from=${day}&to=${day}` }, 200);
      const booked = await call('post', '/v1/appointments', {}, 201, { body: { appointment_type_id: type.data.id, starts_at: slots.data.items[0].starts_at, phone: '+5511987654330' } });
      await call('post', '/v1/appointments', {}, 409, { body: { appointment_type_id: type.data.id, starts_at: slots.data.items[0].starts_at, phone: '+5511987654331' } });
      await call('get', '/v1/appointments', {}, 200);
      await call('get', '/v1/appointments/:id', { id: booked.data.id }, 200);
      await call('patch', '/v1/appointments/:id', { id: booked.data.id }, 200, { body: { status: 'confirmed' } });
      await call('delete', '/v1/appointments/:id', { id: booked.data.id }, 200, { body: { reason: 'x' } });
      const scheduled = await call('post', '/v1/scheduled-messages', {}, 201, { body: { phone: '+5511987654332', text: 'Oi', send_at: new Date(Date.now() + 3_600_000).toISOString() } });
      await call('get', '/v1/scheduled-messages', {}, 200);
      await call('get', '/v1/scheduled-messages/:id', { id: scheduled.data.id }, 200);
      await call('delete', '/v1/scheduled-messages/:id', { id: scheduled.data.id }, 200);
    }

    // Leads, reports and billing (business.md §5, §6).
    {
      const admin = api.adminAuth;
      await call('get', '/v1/leads/cnaes', { query: '?q=padaria' }, 200);
      await call('get', '/v1/leads/municipios', { query: '?q=campinas&uf=SP' }, 200);
      await call('post', '/admin/v1/companies/:id/payments', { id: company.id }, 201, { body: { kind: 'lead_credits', units: 100, amount: 19.9, method: 'pix', external_ref: 'openapi-1' }, headers: admin });
      await call('get', '/admin/v1/companies/:id/payments', { id: company.id }, 200, { headers: admin });
      await call('put', '/admin/v1/companies/:id/low-balance-thresholds', { id: company.id }, 200, { body: { lead_credits: 20 }, headers: admin });
      const search = await call('post', '/v1/leads/search', {}, 202, { body: { cnaes: ['4721102'], municipios: ['3509502'], limit: 10 } });
      await call('get', '/v1/leads/search/:jobId', { jobId: search.data.jobId }, 200);
      await call('post', '/v1/leads/save-to-crm', {}, 200, { body: { items: [{ cnpj: '11222333000181', name: 'Padaria', phone: '+5511987654399' }], job_id: search.data.jobId } });
      await call('post', '/v1/leads/validate-email-mx', {}, 200, { body: { emails: ['a@nullmx.test', 'b@example.com'] } });
      await call('post', '/v1/leads/validate-channel', {}, 200, { body: { phones: ['+5511987654398', '+5511987650001'], setor_id: setor.id } });
      await call('get', '/v1/reports/summary', {}, 200);
    }

    await call('get', '/v1/limits', {}, 401, { headers: {} });
    const narrow = await api.createKey(company.id, { scopes: ['messages:write'] });
    await call('get', '/v1/limits', {}, 403, { headers: { Authorization: `Bearer ${narrow}` } });

    const admin = api.adminAuth;
    const other = await call('post', '/admin/v1/companies', {}, 201, { body: { name: 'Other Co', plan_code: 'basic' }, headers: admin });
    await call('get', '/admin/v1/companies/:id', { id: other.data.id }, 200, { headers: admin });
    await call('patch', '/admin/v1/companies/:id', { id: other.data.id }, 200, { body: { daily_limit: 100 }, headers: admin });
    const issued = await call('post', '/admin/v1/companies/:id/api-keys', { id: other.data.id }, 201, {
      body: { name: 'k', scopes: ['campaigns:read'], mode: 'live' },
      headers: admin,
    });
    await call('get', '/admin/v1/companies/:id/api-keys', { id: other.data.id }, 200, { headers: admin });
    await call('post', '/admin/v1/api-keys/:id/rotate', { id: issued.data.id }, 201, { body: { grace_seconds: 60 }, headers: admin });
    await call('delete', '/admin/v1/api-keys/:id', { id: issued.data.id }, 200, { headers: admin });
    const box = await call('post', '/admin/v1/companies/:id/setores', { id: other.data.id }, 201, { body: { nome: 'Vendas' }, headers: admin });
    await call('get', '/admin/v1/companies/:id/setores', { id: other.data.id }, 200, { headers: admin });
    await call('get', '/admin/v1/setores/:id', { id: box.data.id }, 200, { headers: admin });
    await call('patch', '/admin/v1/setores/:id', { id: box.data.id }, 200, { body: { warming_daily_limit: 80 }, headers: admin });
    await call('post', '/admin/v1/companies/:id/teams', { id: other.data.id }, 201, { body: { nome: 'Time', setor_ids: [box.data.id] }, headers: admin });
    // Agents, teams and quick replies (conversations.md §6, §9).
    await call('patch', '/admin/v1/setores/:id', { id: box.data.id }, 200, { body: { closing_message: 'Obrigado, {{primeiro_nome}}!', csat_enabled: true, reopen_window_minutes: 60 }, headers: admin });
    const agent = await call('post', '/admin/v1/companies/:id/agents', { id: company.id }, 201, { body: { name: 'Ana', email: 'ana@example.com' }, headers: admin });
    await call('get', '/admin/v1/companies/:id/agents', { id: company.id }, 200, { headers: admin });
    await call('patch', '/admin/v1/agents/:id', { id: agent.data.id }, 200, { body: { name: 'Ana Souza' }, headers: admin });
    await call('get', '/v1/agents', {}, 200);
    await call('patch', '/v1/agents/:id/status', { id: agent.data.id }, 200, { body: { status: 'available' } });
    const teams = await call('get', '/admin/v1/companies/:id/teams', { id: other.data.id }, 200, { headers: admin });
    await call('patch', '/admin/v1/teams/:id', { id: teams.data.items[0].id }, 200, { body: { auto_assign: true, max_open_per_agent: 5 }, headers: admin });
    const quickReply = await call('post', '/admin/v1/companies/:id/quick-replies', { id: company.id }, 201, { body: { shortcut: 'oi', title: 'Oi', text: 'Olá {{primeiro_nome}}' }, headers: admin });
    await call('get', '/v1/quick-replies', { query: `?setor_id=${setor.id}` }, 200);
    await call('patch', '/admin/v1/quick-replies/:id', { id: quickReply.data.id }, 200, { body: { title: 'Olá' }, headers: admin });
    await call('delete', '/admin/v1/quick-replies/:id', { id: quickReply.data.id }, 200, { headers: admin });
    await call('get', '/admin/v1/simulator/messages', { query: '?limit=5' }, 200, { headers: admin });
    await call('post', '/admin/v1/simulator/inbound', {}, 201, { body: { setor_id: setor.id, from: '+5511987654329', text: 'Oi' }, headers: admin });
    const toAcknowledge = await call('post', '/v1/messages', {}, 201, { body: { phone: '+5511987654331', message: { text: 'Recibo' } } });
    await call('post', '/admin/v1/simulator/receipts', {}, 200, { body: { message_id: toAcknowledge.data.message_id, status: 'read' }, headers: admin });
    // The providers' webhooks without their secrets configured: refused.
    await call('post', '/webhooks/channels/evolution', {}, 401, { body: { event: 'messages.upsert' }, headers: {} });
    await call('get', '/webhooks/channels/official', { query: '?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1' }, 403, { headers: {} });
    await call('post', '/webhooks/channels/official', {}, 401, { body: { object: 'whatsapp_business_account', entry: [] }, headers: {} });
    // Tickets and the queue (conversations.md §2, §6).
    const ticket = await call('post', '/v1/tickets', {}, 201, { body: { phone: '+5511987654322', setor_id: setor.id, priority: 'high' } });
    const ticketId = ticket.data.id;
    await call('get', '/v1/tickets', { query: '?limit=5' }, 200);
    await call('get', '/v1/tickets/:id', { id: ticketId }, 200);
    await call('get', '/v1/queue', {}, 200);
    await call('patch', '/v1/tickets/:id/priority', { id: ticketId }, 200, { body: { priority: 'urgent' } });
    await call('patch', '/v1/tickets/:id/assignee', { id: ticketId }, 200, { body: { agent_id: agent.data.id, claim: true } });
    const ticketTag = await call('post', '/v1/tags', {}, 201, { body: { name: 'Ticket' } });
    await call('post', '/v1/tickets/:id/tags', { id: ticketId }, 200, { body: { tag_ids: [ticketTag.data.id] } });
    await call('delete', '/v1/tickets/:id/tags', { id: ticketId }, 200, { body: { tag_ids: [ticketTag.data.id] } });
    const deal = await call('post', '/v1/crm/opportunities', {}, 201, { body: { title: 'Atendimento', phone: '+5511987654322' } });
    await call('post', '/v1/tickets/:id/links', { id: ticketId }, 201, { body: { type: 'crm_opportunity', id: deal.data.id } });
    await call('delete', '/v1/tickets/:id/links/:type/:targetId', { id: ticketId, type: 'crm_opportunity', targetId: deal.data.id }, 200);
    await call('post', '/v1/tickets/:id/handoff', { id: ticketId }, 200, { body: { summary: 'Quer orçamento' } });
    await call('patch', '/v1/tickets/:id/status', { id: ticketId }, 200, { body: { status: 'closed' } });
    // Replies, timeline and ratings (T3): a note is allowed on the closed ticket.
    await call('post', '/v1/tickets/:id/messages', { id: ticketId }, 201, { body: { message: { text: 'nota interna' }, private: true } });
    await call('get', '/v1/tickets/:id/messages', { id: ticketId, query: '?order=asc&limit=10' }, 200);
    await call('post', '/v1/tickets/:id/rating', { id: ticketId }, 200, { body: { score: 5, comment: 'Ótimo' } });
    await call('get', '/v1/ratings', {}, 200);
    await call('get', '/admin/v1/companies/:id', { id: other.data.id }, 401, { headers: {} });
    await call('get', '/admin/v1/companies/:id', { id: 'not-a-uuid' }, 400, { headers: admin });

    await call('get', '/v1/openapi.json', {}, 200, { headers: {} });

    expect(problems).toEqual([]);
    // Every operation was called (pause, resume and retry need a running campaign: their 409 is checked instead).
    const untouched = apiOperations.map((op) => `${op.method.toUpperCase()} ${op.path}`).filter((k) => !seen.has(k));
    expect(untouched).toEqual([]);
  }, 60_000);
});
