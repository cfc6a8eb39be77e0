import { describe, expect, it } from '@jest/globals';
import type { DomainError } from '../shared/errors.js';
import { CampaignWorld } from '../testing/campaign-world.js';
import type { CampaignCaller, CreateCampaignCommand } from './campaign-command.js';
import { requestFingerprint } from './idempotency.js';
import { CampaignQueues } from './campaign-queues.js';
import { PrepareCampaign } from './link-campaign-contacts.js';

const phone = (n: number) => `+55119${String(90000000 + n).padStart(8, '0')}`;
const body = (recipients = 2, extra: Partial<CreateCampaignCommand> = {}): CreateCampaignCommand => ({
  name: 'Promo',
  recipients: Array.from({ length: recipients }, (_, i) => ({ phone: phone(i), name: `Cliente ${i}` })),
  message: { text: 'Olá {{primeiro_nome}}' },
  ...extra,
});
const caller = (world: CampaignWorld, mode: 'live' | 'test' = 'live'): CampaignCaller => ({ companyId: world.company.id, apiKeyId: null, mode });

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('expected a failure');
}

describe('CreateCampaign', () => {
  it('given a valid immediate campaign, then 202 data with queued, the pool, contacts, messages and a start job', async () => {
    const world = await CampaignWorld.create({}, 2);
    const { created: data, replay } = await world.createCampaign().execute(caller(world), body(3));
    expect(replay).toBe(false);
    expect(data).toEqual({
      id: expect.any(String),
      totalRecipients: 3,
      creditsReserved: 0,
      createdAt: world.clock.now(),
      executionMode: 'immediate',
      scheduledFor: null,
      waitingReason: null,
      distributionMode: 'multi_number',
      numberPoolSize: 2,
    });
    const messages = await world.repos.campaigns.messagesInStatus(data.id, ['pendente']);
    expect(messages.map((m) => m.setorId)).toEqual([world.setores[0]!.id, world.setores[1]!.id, world.setores[0]!.id]);
    expect(world.jobs).toEqual([
      expect.objectContaining({ queue: CampaignQueues.prepare, data: { campaignId: data.id } }),
      expect.objectContaining({ queue: CampaignQueues.start, data: { campaignId: data.id }, startAfter: null }),
    ]);
    // Contacts of unknown phones are created by the prepare job (and at the latest when it starts).
    expect(messages.every((m) => m.contactId === null)).toBe(true);
    await new PrepareCampaign(world.uow, world.clock, world.ids).execute(data.id);
    const linked = await world.repos.campaigns.messagesInStatus(data.id, ['pendente']);
    expect(linked.every((m) => m.contactId !== null)).toBe(true);
    expect((await world.repos.contacts.findById(world.company.id, linked[2]!.contactId!))?.phone).toBe(phone(2));
  });

  it('given setor_id, then single mode with one number', async () => {
    const world = await CampaignWorld.create({}, 2);
    const { created } = await world.createCampaign().execute(caller(world), body(2, { setorId: world.setores[1]!.id }));
    expect(created).toMatchObject({ distributionMode: 'single', numberPoolSize: 1 });
  });

  it('given an avulso company, then it reserves one unit per recipient; test keys reserve nothing', async () => {
    const world = await CampaignWorld.create({ modality: 'avulso', avulsoBalance: 10 });
    expect((await world.createCampaign().execute(caller(world), body(4))).created.creditsReserved).toBe(4);
    expect((await world.repos.companies.findById(world.company.id))?.avulsoBalance).toBe(6);
    expect((await world.createCampaign().execute(caller(world, 'test'), body(4))).created.creditsReserved).toBe(0);
    const error = await failure(world.createCampaign().execute(caller(world), body(7)));
    expect(error).toMatchObject({ code: 'BULK_DISABLED', details: { avulso_balance: 6, required: 7 } });
  });

  it.each([
    [{ name: '' }, 'BAD_REQUEST', 'name'],
    [{ recipients: [] }, 'BAD_REQUEST', 'recipients'],
    [{ title: 'x'.repeat(121) }, 'VALIDATION_ERROR', 'title'],
    [{ description: 'x'.repeat(501) }, 'VALIDATION_ERROR', 'description'],
    [{ message: {} }, 'VALIDATION_ERROR', 'message.text'],
    [{ message: { text: 'a', variants: ['1', '2', '3', '4', '5'] } }, 'VALIDATION_ERROR', 'message.variants'],
    [{ message: { text: 'a', variants: ['x'.repeat(1025)] } }, 'VALIDATION_ERROR', 'message.variants[0]'],
    [{ message: { templateName: 't', templateLanguage: 'pt_BR', variants: ['b'] } }, 'VALIDATION_ERROR', 'message.variants'],
    [{ message: { templateName: 't' } }, 'VALIDATION_ERROR', 'message.template_language'],
    [{ message: { text: 'a', mediaUrl: 'http://x.test/a.png', mediaType: 'image' } }, 'VALIDATION_ERROR', 'message.media_url'],
    [{ message: { text: 'a', mediaUrl: 'https://x.test/a.png' } }, 'VALIDATION_ERROR', 'message.media_type'],
    [{ message: { text: 'a', mediaDelivery: 'sideways' } }, 'VALIDATION_ERROR', 'message.media_delivery'],
    [{ recipients: [{ name: 'no phone' }] }, 'VALIDATION_ERROR', 'recipients[0].phone'],
    [{ recipients: [{ phone: phone(1), text: 'x'.repeat(1025) }] }, 'VALIDATION_ERROR', 'recipients[0].text'],
    [{ recipients: [{ phone: phone(1), mediaUrl: 'https://x.test/a.pdf' }] }, 'VALIDATION_ERROR', 'recipients[0].media_type'],
    [{ recipients: [{ phone: 'abc' }] }, 'INVALID_NUMBER', 'recipients[0].phone'],
    [{ antiBanLevel: 'turbo' }, 'VALIDATION_ERROR', 'options.anti_ban_level'],
    [{ distribution: 'random' }, 'VALIDATION_ERROR', 'options.distribution'],
    [{ scheduledFor: 'tomorrow' }, 'VALIDATION_ERROR', 'options.schedule_at'],
    [{ scheduledFor: '2020-01-01T00:00:00Z' }, 'VALIDATION_ERROR', 'options.schedule_at'],
    [{ distributionMode: 'both' }, 'VALIDATION_ERROR', 'distribution_mode'],
  ].map(([o, c, f]) => [c, f, o]) as [string, string, Partial<CreateCampaignCommand>][])('given an invalid body (#%#), then 400 %s on %s', async (code, field, override) => {
    const world = await CampaignWorld.create();
    const error = await failure(world.createCampaign().execute(caller(world), { ...body(), ...override }));
    expect(error.code).toBe(code);
    expect(error.details).toMatchObject({ field });
  });

  it('given more than 10,000 recipients, then 400 Maximum 10000 recipients', async () => {
    const world = await CampaignWorld.create();
    const error = await failure(world.createCampaign().execute(caller(world), body(10_001)));
    expect(error).toMatchObject({ code: 'BAD_REQUEST', message: 'Maximum 10000 recipients' });
  });

  it('checks in order: modality, daily limit, concurrency, safe hours, balance', async () => {
    const night = '2026-01-16T01:30:00.000Z';
    const world = await CampaignWorld.create({ modality: 'inativo', dailyLimit: 1, concurrentCampaignsLimit: 0, avulsoBalance: 0 });
    world.clock.advance(new Date(night).getTime() - world.clock.now().getTime());
    const codes: string[] = [];
    const fix: Partial<Record<string, () => Promise<void>>> = {
      FORBIDDEN_modality: async () => world.repos.companies.update({ ...(await world.repos.companies.findById(world.company.id))!, modality: 'avulso' }),
    };
    let error = await failure(world.createCampaign().execute(caller(world), body(2)));
    codes.push(`${error.code}:${error.message}`);
    await fix.FORBIDDEN_modality!();
    error = await failure(world.createCampaign().execute(caller(world), body(2)));
    codes.push(`${error.code}:${error.message}`);
    await world.repos.companies.update({ ...(await world.repos.companies.findById(world.company.id))!, dailyLimit: 100 });
    error = await failure(world.createCampaign().execute(caller(world), body(2)));
    codes.push(error.code);
    await world.repos.companies.update({ ...(await world.repos.companies.findById(world.company.id))!, concurrentCampaignsLimit: 3 });
    error = await failure(world.createCampaign().execute(caller(world), body(2)));
    codes.push(error.code);
    await world.repos.companies.update({ ...(await world.repos.companies.findById(world.company.id))!, safeHours: { start: 0, end: 24 } });
    error = await failure(world.createCampaign().execute(caller(world), body(2)));
    codes.push(error.code);
    expect(codes).toEqual([
      'FORBIDDEN:Modalidade inativa: campaign creation is disabled',
      'FORBIDDEN:Daily messages limit exceeded',
      'CONCURRENT_LIMIT_EXCEEDED',
      'SAFE_HOUR_VIOLATION',
      'BULK_DISABLED',
    ]);
  });

  it('given an expired avulso plan, then 403 Plano avulso expirado', async () => {
    const world = await CampaignWorld.create({ modality: 'avulso', avulsoBalance: 10, expiresAt: new Date('2026-01-01T00:00:00Z') });
    expect(await failure(world.createCampaign().execute(caller(world), body()))).toMatchObject({ code: 'FORBIDDEN', message: 'Plano avulso expirado' });
  });

  it('given the daily limit, then sent today plus reserved plus new recipients must fit', async () => {
    const world = await CampaignWorld.create({ dailyLimit: 5 });
    await world.repos.usage.addSent(world.company.id, null, '2026-01-15', 2);
    await world.createCampaign().execute(caller(world), body(2));
    const error = await failure(world.createCampaign().execute(caller(world), body(2)));
    expect(error).toMatchObject({ code: 'FORBIDDEN', message: 'Daily messages limit exceeded', details: { limit: 5, sent_today: 2, reserved: 2, requested: 2, remaining: 1 } });
  });

  it('given the concurrency cap reached with a scheduled campaign, then every detail, next_slot_eta and Retry-After', async () => {
    const world = await CampaignWorld.create({ concurrentCampaignsLimit: 1 });
    const scheduled = await world.createCampaign().execute(caller(world), body(2, { title: 'Black Friday', scheduledFor: '2026-01-16T13:00:00.000Z' }));
    const error = await failure(world.createCampaign().execute(caller(world), body(1)));
    expect(error.code).toBe('CONCURRENT_LIMIT_EXCEEDED');
    expect(error.details).toEqual({
      limit: 1,
      active: 1,
      active_campaigns: [{ id: scheduled.created.id, titulo: 'Black Friday', status: 'pendente', scheduled_for: '2026-01-16T13:00:00.000Z', created_at: world.clock.now().toISOString() }],
      next_slot_eta: '2026-01-16T13:01:00.000Z',
      retry_after_seconds: 68_460,
      docs_url: expect.stringContaining('concurrency'),
    });
    expect(error.retryAfterSeconds).toBe(68_460);
  });

  it('given schedule_at inside safe hours, then scheduled; outside, deferred_to_safe_window at the next safe hour', async () => {
    const world = await CampaignWorld.create();
    const scheduled = await world.createCampaign().execute(caller(world), body(1, { scheduledFor: '2026-01-16T13:00:00.000Z' }));
    expect(scheduled.created).toMatchObject({ executionMode: 'scheduled', scheduledFor: new Date('2026-01-16T13:00:00.000Z'), waitingReason: null });
    const deferred = await world.createCampaign().execute(caller(world), body(1, { scheduledFor: '2026-01-16T02:00:00.000Z' }));
    expect(deferred.created).toMatchObject({ executionMode: 'deferred_to_safe_window', scheduledFor: new Date('2026-01-16T11:00:00.000Z'), waitingReason: 'outside_safe_hours' });
    expect(world.jobs.filter((j) => j.queue === CampaignQueues.start).map((j) => j.startAfter?.toISOString())).toEqual(['2026-01-16T13:00:00.000Z', '2026-01-16T11:00:00.000Z']);
  });

  it('given an immediate campaign at night, then SAFE_HOUR_VIOLATION whose suggested_schedule_at is accepted as schedule_at', async () => {
    const world = await CampaignWorld.create();
    world.clock.advance(8 * 3600_000);
    const error = await failure(world.createCampaign().execute(caller(world), body(1)));
    expect(error.code).toBe('SAFE_HOUR_VIOLATION');
    const suggested = error.details!.suggested_schedule_at as string;
    const { created } = await world.createCampaign().execute(caller(world), body(1, { scheduledFor: suggested }));
    expect(created).toMatchObject({ executionMode: 'scheduled', scheduledFor: new Date(suggested) });
  });

  it('given client_id, then the contact wins over the phone; an unknown client_id is 400', async () => {
    const world = await CampaignWorld.create();
    const [contact] = await world.repos.contacts.ensureMany(world.company.id, [{ phone: phone(50), name: 'Ana' }], world.ids, world.clock.now());
    const { created } = await world.createCampaign().execute(caller(world), body(0, { recipients: [{ clientId: contact!.id, phone: phone(1) }] }));
    const [message] = await world.repos.campaigns.messagesInStatus(created.id, ['pendente']);
    expect(message).toMatchObject({ contactId: contact!.id, phone: phone(50), name: 'Ana' });
    const error = await failure(world.createCampaign().execute(caller(world), body(0, { recipients: [{ clientId: '99999999-0000-4000-8000-000000000000' }] })));
    expect(error.code).toBe('VALIDATION_ERROR');
  });

  it('given multi-number disabled, then setor_ids is 403 MULTI_NUMBER_DISABLED; another company box is 404', async () => {
    const world = await CampaignWorld.create({ multiNumberEnabled: false }, 2);
    const error = await failure(world.createCampaign().execute(caller(world), body(1, { setorIds: world.setores.map((s) => s.id) })));
    expect(error.code).toBe('MULTI_NUMBER_DISABLED');
    const unknown = 'aaaaaaaa-0000-4000-8000-000000000000';
    expect((await failure(world.createCampaign().execute(caller(world), body(1, { setorId: unknown })))).code).toBe('NOT_FOUND');
  });
});

describe('Idempotency-Key', () => {
  it('given the same key and body, then the response is replayed and nothing new is created', async () => {
    const world = await CampaignWorld.create();
    const request = body(2);
    const key = { key: 'k-1', requestHash: requestFingerprint(request) };
    const first = await world.createCampaign().execute(caller(world), request, key);
    const second = await world.createCampaign().execute(caller(world), request, key);
    expect(second).toEqual({ created: first.created, replay: true });
    expect((await world.repos.campaigns.activeOfCompany(world.company.id)).length).toBe(1);
  });

  it('given the same key with another body, then 422 IDEMPOTENCY_KEY_MISMATCH', async () => {
    const world = await CampaignWorld.create();
    await world.createCampaign().execute(caller(world), body(2), { key: 'k', requestHash: requestFingerprint(body(2)) });
    const error = await failure(world.createCampaign().execute(caller(world), body(3), { key: 'k', requestHash: requestFingerprint(body(3)) }));
    expect(error.code).toBe('IDEMPOTENCY_KEY_MISMATCH');
  });

  it('given a first request still in flight, then 409 IDEMPOTENCY_KEY_IN_USE; after 24 h the key is new again', async () => {
    const world = await CampaignWorld.create();
    const hash = requestFingerprint(body(1));
    await world.repos.idempotency.begin(
      { companyId: world.company.id, key: 'k', requestHash: hash, state: 'in_flight', responseStatus: null, responseBody: null, createdAt: world.clock.now(), lockedUntil: new Date(world.clock.now().getTime() + 60_000) },
      new Date(0),
    );
    expect((await failure(world.createCampaign().execute(caller(world), body(1), { key: 'k', requestHash: hash }))).code).toBe('IDEMPOTENCY_KEY_IN_USE');
    world.clock.advance(24 * 3600_000 + 1);
    world.clock.advance(0);
    await world.repos.companies.update({ ...world.company, safeHours: { start: 0, end: 24 } });
    expect((await world.createCampaign().execute(caller(world), body(1), { key: 'k', requestHash: hash })).replay).toBe(false);
  });

  it('given a failed first request, then the key is released and the retry runs', async () => {
    const world = await CampaignWorld.create({ concurrentCampaignsLimit: 0 });
    const hash = requestFingerprint(body(1));
    expect((await failure(world.createCampaign().execute(caller(world), body(1), { key: 'k', requestHash: hash }))).code).toBe('CONCURRENT_LIMIT_EXCEEDED');
    await world.repos.companies.update({ ...world.company, concurrentCampaignsLimit: 1 });
    expect((await world.createCampaign().execute(caller(world), body(1), { key: 'k', requestHash: hash })).replay).toBe(false);
  });

  it('scopes keys by company', async () => {
    const a = await CampaignWorld.create();
    const hash = requestFingerprint(body(1));
    await a.createCampaign().execute(caller(a), body(1), { key: 'shared', requestHash: hash });
    const other = { companyId: 'another-company', key: 'shared', requestHash: hash, state: 'in_flight' as const, responseStatus: null, responseBody: null, createdAt: a.clock.now(), lockedUntil: a.clock.now() };
    expect(await a.repos.idempotency.begin(other, new Date(0))).toBeNull();
  });
});
