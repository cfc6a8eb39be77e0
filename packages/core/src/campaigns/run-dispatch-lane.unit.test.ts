import { describe, expect, it } from '@jest/globals';
import type { SendRequest, SendResult } from '../channel/index.js';
import { CampaignWorld } from '../testing/campaign-world.js';
import { FixedRandom } from '../testing/index.js';
import { DEFAULT_DISPATCH_SETTINGS, RunDispatchLane } from './run-dispatch-lane.js';
import type { CreateCampaignCommand } from './campaign-command.js';
import { CancelCampaign } from './cancel-campaign.js';
import { PauseCampaign } from './pause-campaign.js';
import { ResumeCampaign } from './resume-campaign.js';
import { RetryCampaignMessages } from './retry-campaign-messages.js';
import { ReadCampaigns } from './read-campaigns.js';
import { SweepCampaigns } from './sweep-campaigns.js';

const phone = (n: number) => `+55119${String(90000000 + n).padStart(8, '0')}`;

async function launch(world: CampaignWorld, recipients: number, extra: Partial<CreateCampaignCommand> = {}) {
  const { created: data } = await world.createCampaign().execute(
    { companyId: world.company.id, apiKeyId: null, mode: 'live' },
    {
      name: 'Promo',
      recipients: Array.from({ length: recipients }, (_, i) => ({ phone: phone(i), name: `Maria ${i} Silva` })),
      message: { text: '{{saudacao}}, {{primeiro_nome}}!' },
      ...extra,
    },
  );
  await world.startCampaign().execute(data.id);
  return data.id;
}

const read = (world: CampaignWorld) => new ReadCampaigns(world.repos);
const texts = (world: CampaignWorld) => world.gateway.sent.map((s) => (s.content.kind === 'text' ? s.content.text : s.content.kind));

describe('dispatch lane', () => {
  it('given a started campaign, then it sends personalised texts, paced per number, and completes with events', async () => {
    const world = await CampaignWorld.create();
    const id = await launch(world, 3, { antiBanLevel: 'normal', callbackUrl: 'https://example.test/cb' });
    await world.drain();
    expect(texts(world)).toEqual(['Boa tarde, Maria!', 'Boa tarde, Maria!', 'Boa tarde, Maria!']);
    // normal is 5-15 s, but a new number's warming stage raises the floor to 30 s (the last wait
    // is the lane keeping its pacing before it looks for more work).
    expect(world.sleeper.waits).toEqual([30_000, 30_000, 30_000]);
    const messages = await world.repos.campaigns.messagesInStatus(id, ['enviado']);
    expect(world.gateway.sent.map((s) => s.clientMessageId)).toEqual(messages.map((m) => m.id));
    const detail = await read(world).detail(world.company.id, id);
    expect(detail).toMatchObject({ status: 'concluido', progress: 100, totals: { enviados: 3 } });
    const names = world.events.map((e) => e.event);
    expect(names).toEqual(['campaign.started', 'message.sent', 'message.sent', 'message.sent', 'campaign.completed']);
    expect(world.events[1]!.data).toEqual({
      campaignId: id,
      detailId: messages[0]!.id,
      recipientPhone: phone(0),
      recipientName: 'Maria 0 Silva',
      status: 'sent',
      error: null,
      error_code: null,
      actual_setor_id: world.setores[0]!.id,
      was_reassigned: false,
    });
    expect(world.events[4]).toMatchObject({
      callbackUrl: 'https://example.test/cb',
      data: { campaignId: id, totalDestinatarios: 3, totalEnviados: 3, totalFalhas: 0, totalPulados: 0, cancelledByUser: false },
    });
    expect(await world.repos.usage.sentBySetor(world.setores[0]!.id, '2026-01-15')).toBe(3);
  });

  it('given PACING_SCALE 0.01 and a warmed number, then gaps fall inside the scaled interval of the level', async () => {
    const world = await CampaignWorld.create();
    for (let d = 1; d <= 40; d += 1) await world.repos.usage.addSent(world.company.id, world.setores[0]!.id, `2025-11-${String(d % 30 + 1).padStart(2, '0')}`, 0);
    for (let d = 1; d <= 31; d += 1) await world.repos.usage.addSent(world.company.id, world.setores[0]!.id, `2025-12-${String(d).padStart(2, '0')}`, 300);
    world.settings.pacingScale = 0.01;
    await launch(world, 4, { antiBanLevel: 'normal' });
    await world.drain();
    expect(world.sleeper.waits).toEqual([50, 50, 50, 50]);
  });

  it('given a warming limit, then the messages beyond it are skipped with WARMING_DAILY_LIMIT', async () => {
    const world = await CampaignWorld.create();
    await world.repos.setores.update({ ...world.setores[0]!, warmingDailyLimitOverride: 2 });
    const id = await launch(world, 4);
    await world.drain();
    const page = await read(world).messages(world.company.id, id, 'pulado', { page: 1, limit: 200 });
    expect(page.total).toBe(2);
    expect(page.items[0]).toMatchObject({ status: 'pulado', error: 'warming_daily_limit', errorCode: 'WARMING_DAILY_LIMIT', readableError: expect.any(String), actualSetorId: null });
    expect(await read(world).detail(world.company.id, id)).toMatchObject({ status: 'concluido', totals: { enviados: 2, pulados: 2 } });
  });

  it('given a banned number, then its pending messages move to the rest of the pool (was_reassigned)', async () => {
    const world = await CampaignWorld.create({}, 2);
    world.gateway.failFor(phone(0), { code: 'SENDER_BANNED' });
    const id = await launch(world, 6);
    await world.drain();
    const [a, b] = world.setores.map((s) => s.id);
    expect(world.senderFailures.reported).toEqual([{ setorId: a, code: 'SENDER_BANNED' }]);
    const all = await read(world).messages(world.company.id, id, undefined, { page: 1, limit: 200 });
    expect(all.items.map((m) => [m.status, m.assignedSetorId, m.actualSetorId, m.wasReassigned])).toEqual([
      ['falha', a, null, false],
      ['enviado', b, b, false],
      ['enviado', a, b, true],
      ['enviado', b, b, false],
      ['enviado', a, b, true],
      ['enviado', b, b, false],
    ]);
    expect(all.items[0]).toMatchObject({ errorCode: 'SENDER_BANNED', readableError: 'O número remetente foi banido pelo canal.' });
    const reassigned = world.events.find((e) => e.event === 'message.sent' && e.data.was_reassigned === true);
    expect(reassigned?.data.actual_setor_id).toBe(b);
  });

  it('given every number of the pool lost, then the campaign fails, the rest is skipped and refunded', async () => {
    const world = await CampaignWorld.create({ modality: 'avulso', avulsoBalance: 10 });
    world.gateway.failFor(phone(1), { code: 'SENDER_BANNED' });
    const id = await launch(world, 4, { callbackUrl: 'https://example.test/cb' });
    await world.drain();
    expect(await read(world).detail(world.company.id, id)).toMatchObject({ status: 'falha', totals: { enviados: 1, falhas: 1, pulados: 2 } });
    expect((await world.repos.companies.findById(world.company.id))?.avulsoBalance).toBe(9);
    const failed = world.events.find((e) => e.event === 'campaign.failed');
    expect(failed).toMatchObject({ callbackUrl: 'https://example.test/cb', data: { campaignId: id, error: expect.stringContaining('No number') } });
  });

  it('given a temporary failure, then it is retried automatically up to 5 times, then fails and is refunded', async () => {
    const world = await CampaignWorld.create({ modality: 'avulso', avulsoBalance: 5 });
    world.gateway.failFor(phone(0), { code: 'TEMP_TIMEOUT' });
    const id = await launch(world, 2);
    await world.drain();
    expect(world.gateway.sent.filter((s) => s.to === phone(0))).toHaveLength(6);
    const ids = world.gateway.sent.filter((s) => s.to === phone(0)).map((s) => s.clientMessageId);
    expect(new Set(ids).size).toBe(6);
    const failed = world.events.filter((e) => e.event === 'message.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data).toMatchObject({ status: 'failed', error_code: 'TEMP_TIMEOUT', error: 'scripted TEMP_TIMEOUT' });
    expect(await read(world).detail(world.company.id, id)).toMatchObject({ status: 'concluido', totals: { falhas: 1, enviados: 1 } });
    expect((await world.repos.companies.findById(world.company.id))?.avulsoBalance).toBe(4);
  });

  it('given a lane that died after claiming, then the next holder re-sends with the same client ids; nothing is lost', async () => {
    const world = await CampaignWorld.create();
    const id = await launch(world, 3);
    const setorId = world.setores[0]!.id;
    await world.repos.dispatchLanes.acquire(setorId, 'dead-worker', world.clock.now(), new Date(world.clock.now().getTime() + 30_000));
    const claimed = await world.repos.campaigns.claimMessages(setorId, 'dead-worker', 2, world.clock.now());
    // The dead worker had sent the first claimed message before dying.
    await world.gateway.send({ setor: world.setores[0]!, instance: (await world.repos.channelInstances.findBySetor(setorId))!, mode: 'live', to: claimed[0]!.phone, content: { kind: 'text', text: 'x' }, clientMessageId: claimed[0]!.id });
    expect((await world.lane().run(setorId, 'new-worker')).outcome).toBe('busy');
    world.clock.advance(30_001);
    await world.drain();
    const ids = world.gateway.sent.map((s) => s.clientMessageId);
    expect(ids).toEqual([claimed[0]!.id, claimed[0]!.id, claimed[1]!.id, expect.any(String)]);
    expect(await read(world).detail(world.company.id, id)).toMatchObject({ status: 'concluido', totals: { enviados: 3 } });
  });

  it('given a release that fails once (a dead pooled connection), then the lane is released on the second try, not left to its lease', async () => {
    const world = await CampaignWorld.create();
    await launch(world, 2);
    const setorId = world.setores[0]!.id;
    const lanes = Object.create(world.repos.dispatchLanes) as typeof world.repos.dispatchLanes;
    let failures = 1;
    lanes.release = async (...args) => {
      if (failures-- > 0) throw new Error('Client has encountered a connection error and is not queryable');
      return world.repos.dispatchLanes.release(...args);
    };
    const direct = { ...world.repos, dispatchLanes: lanes };
    const lane = new RunDispatchLane(world.uow, world.clock, world.ids, new FixedRandom(0), world.gateway, world.sleeper, world.senderFailures, { ...DEFAULT_DISPATCH_SETTINGS, pacingScale: 0 }, null, undefined, direct);
    expect(await lane.run(setorId, 'owner-1')).toMatchObject({ sent: 2 });
    expect(failures).toBe(-1);
    expect(await world.repos.dispatchLanes.find(setorId)).toMatchObject({ owner: null, leaseUntil: null });
  });

  it('given a recorded message, then a stale lane cannot record it again (compare-and-set)', async () => {
    const world = await CampaignWorld.create();
    const id = await launch(world, 1);
    const [m] = await world.repos.campaigns.claimMessages(world.setores[0]!.id, 'lane-a', 1, world.clock.now());
    const sent = { ...m!, status: 'enviado' as const };
    expect(await world.repos.campaigns.updateMessages([{ message: sent, expectedStatus: 'enviando', expectedClaimedBy: 'lane-a' }])).toEqual([m!.id]);
    expect(await world.repos.campaigns.updateMessages([{ message: sent, expectedStatus: 'enviando', expectedClaimedBy: 'lane-a' }])).toEqual([]);
    expect(id).toBeDefined();
  });

  it('given sequential distribution, then the first number is filled to its warming capacity first', async () => {
    const world = await CampaignWorld.create({}, 2);
    await world.repos.setores.update({ ...world.setores[0]!, warmingDailyLimitOverride: 3 });
    const id = await launch(world, 5, { distribution: 'sequential' });
    const messages = await world.repos.campaigns.messagesInStatus(id, ['pendente']);
    const [a, b] = world.setores.map((s) => s.id);
    expect(messages.map((m) => m.setorId)).toEqual([a, a, a, b, b]);
  });

  it('given the end of the safe window, then the lane yields until the window opens again', async () => {
    const world = await CampaignWorld.create();
    await launch(world, 1);
    world.clock.advance(6 * 3600_000);
    const result = await world.lane().run(world.setores[0]!.id, 'w');
    expect(result).toMatchObject({ outcome: 'yielded', sent: 0, rescheduleAt: new Date('2026-01-16T11:00:00.000Z') });
  });

  it('given a long pacing gap, then the run yields with the next send time instead of waiting in process', async () => {
    const world = await CampaignWorld.create();
    await launch(world, 2, { antiBanLevel: 'lento' });
    const first = await world.lane({ maxInProcessWaitMs: 5_000 }).run(world.setores[0]!.id, 'w');
    expect(first).toMatchObject({ outcome: 'yielded', sent: 1 });
    expect(first.rescheduleAt!.getTime() - world.clock.now().getTime()).toBe(45_000);
    expect((await world.repos.dispatchLanes.find(world.setores[0]!.id))?.nextSendAt).toEqual(first.rescheduleAt);
  });
});

describe('campaign actions', () => {
  it('pause stops sending, resume re-queues only pending ones, with campaign.paused', async () => {
    const world = await CampaignWorld.create();
    const id = await launch(world, 3);
    await world.lane({ maxBatch: 1, maxInProcessWaitMs: 0 }).run(world.setores[0]!.id, 'w');
    expect(await new PauseCampaign(world.uow, world.clock, world.ids).execute(world.company.id, id)).toEqual({ status: 'paused' });
    world.clock.advance(60_000);
    await world.drain();
    expect(world.gateway.sent).toHaveLength(1);
    expect(world.events.at(-1)).toMatchObject({ event: 'campaign.paused', data: { campaignId: id } });
    expect(await new ResumeCampaign(world.uow, world.clock).execute(world.company.id, id)).toEqual({ status: 'processing', pendingRequeued: 2 });
    await world.drain();
    expect(world.gateway.sent).toHaveLength(3);
  });

  it('cancel skips pending ones (cancelled_by_user), refunds them, and emits campaign.completed cancelledByUser', async () => {
    const world = await CampaignWorld.create({ modality: 'avulso', avulsoBalance: 10 });
    const id = await launch(world, 3);
    await world.lane({ maxBatch: 1, maxInProcessWaitMs: 0 }).run(world.setores[0]!.id, 'w');
    expect(await new CancelCampaign(world.uow, world.clock, world.ids).execute(world.company.id, id)).toEqual({ cancelled: 2 });
    expect((await world.repos.companies.findById(world.company.id))?.avulsoBalance).toBe(9);
    expect(world.events.at(-1)).toMatchObject({
      event: 'campaign.completed',
      data: { totalDestinatarios: 3, totalEnviados: 1, totalFalhas: 0, totalPulados: 2, cancelledByUser: true },
    });
    const skipped = await read(world).messages(world.company.id, id, 'pulado', { page: 1, limit: 10 });
    expect(skipped.items[0]).toMatchObject({ error: 'cancelled_by_user', errorCode: null });
  });

  it.each([
    ['pause', 'pendente', ['processando']],
    ['resume', 'pendente', ['pausado']],
  ] as const)('given a pending campaign, %s is 409 INVALID_TRANSITION', async (action, status, allowed) => {
    const world = await CampaignWorld.create();
    const { created: data } = await world.createCampaign().execute({ companyId: world.company.id, apiKeyId: null, mode: 'live' }, { name: 'x', recipients: [{ phone: phone(1) }], message: { text: 'a' } });
    const run = action === 'pause' ? new PauseCampaign(world.uow, world.clock, world.ids).execute(world.company.id, data.id) : new ResumeCampaign(world.uow, world.clock).execute(world.company.id, data.id);
    await expect(run).rejects.toMatchObject({ code: 'INVALID_TRANSITION', details: { status, allowed } });
  });

  it('another company campaign reads as 404', async () => {
    const world = await CampaignWorld.create();
    const id = await launch(world, 1);
    await expect(read(world).detail('other-company', id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(new PauseCampaign(world.uow, world.clock, world.ids).execute('other-company', id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('retry puts failed messages back (manual cap 2) and reopens the finished campaign', async () => {
    const world = await CampaignWorld.create();
    world.gateway.failFor(phone(1), { code: 'RECIP_BLOCKED' });
    const id = await launch(world, 2);
    await world.drain();
    expect(await read(world).detail(world.company.id, id)).toMatchObject({ status: 'concluido', totals: { falhas: 1 } });
    const retry = new RetryCampaignMessages(world.uow, world.clock);
    expect(await retry.execute(world.company.id, id, { allFailures: true })).toMatchObject({ status: 'processando', retried: 1 });
    await world.drain();
    expect(await retry.execute(world.company.id, id, { allFailures: true })).toMatchObject({ retried: 1 });
    await world.drain();
    const [failed] = (await read(world).messages(world.company.id, id, 'falha', { page: 1, limit: 10 })).items;
    expect(await retry.execute(world.company.id, id, { messageIds: [failed!.id] })).toMatchObject({ retried: 0, notRetried: [{ id: failed!.id, reason: 'retry_limit_reached' }] });
    await expect(retry.execute(world.company.id, id, {})).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('the sweep starts due scheduled campaigns and wakes lanes with work', async () => {
    const world = await CampaignWorld.create();
    const { created: data } = await world.createCampaign().execute(
      { companyId: world.company.id, apiKeyId: null, mode: 'live' },
      { name: 'x', recipients: [{ phone: phone(1) }], message: { text: 'a' }, scheduledFor: '2026-01-15T19:00:00.000Z' },
    );
    const sweep = new SweepCampaigns(world.uow, world.clock, world.ids, world.startCampaign());
    expect(await sweep.execute()).toMatchObject({ started: 0 });
    world.clock.advance(3600_000);
    expect(await sweep.execute()).toMatchObject({ started: 1, woken: 1 });
    expect((await read(world).detail(world.company.id, data.id)).status).toBe('processando');
  });

  it('lists with status filter and searches recipients', async () => {
    const world = await CampaignWorld.create();
    const id = await launch(world, 3);
    const list = await read(world).list(world.company.id, 'processando', { page: 1, limit: 100 });
    expect(list).toMatchObject({ total: 1, totalPages: 1, items: [{ id, content: { text: '{{saudacao}}, {{primeiro_nome}}!' }, totals: { total: 3 }, status: 'processando' }] });
    expect((await read(world).list(world.company.id, 'concluido', { page: 1, limit: 100 })).total).toBe(0);
    const found = await read(world).recipients(world.company.id, id, { q: 'maria 2' }, { page: 1, limit: 10 });
    expect(found.items.map((r) => r.phone)).toEqual([phone(2)]);
  });
});

describe('dedup at the gateway', () => {
  it('uses the same client id for a re-send, which a deduplicating provider drops', async () => {
    const world = await CampaignWorld.create();
    const delivered = new Map<string, SendResult>();
    const original = world.gateway.send.bind(world.gateway);
    world.gateway.send = async (request: SendRequest) => {
      const seen = delivered.get(request.clientMessageId);
      if (seen) return seen;
      const result = await original(request);
      delivered.set(request.clientMessageId, result);
      return result;
    };
    await launch(world, 2);
    const setorId = world.setores[0]!.id;
    const [m] = await world.repos.campaigns.claimMessages(setorId, 'dead', 1, world.clock.now());
    await world.gateway.send({ setor: world.setores[0]!, instance: (await world.repos.channelInstances.findBySetor(setorId))!, mode: 'live', to: m!.phone, content: { kind: 'text', text: 'x' }, clientMessageId: m!.id });
    await world.drain();
    expect(delivered.size).toBe(2);
  });
});
