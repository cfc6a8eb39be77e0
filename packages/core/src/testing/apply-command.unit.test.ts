import { describe, expect, it } from '@jest/globals';
import { campaignDecider, campaignPausedEvent, type Campaign, type CampaignCommand, type CampaignEvent } from '../campaigns/index.js';
import { campaignFixture } from '../campaigns/testing/index.js';
import { createChannelInstance, instanceOfSetor } from '../channel/index.js';
import { createSetor } from '../setores/index.js';
import { applyCommand, handleCommand, type StoredDecider } from '../shared/apply-command.js';
import { apiActor } from '../shared/domain-event.js';
import { InvalidTransitionError } from '../shared/errors.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { webhookDeliveryDecider, type WebhookDelivery } from '../webhooks/index.js';
import type { AllAreas } from './in-memory-unit-of-work.js';
import { SequentialIds } from '../shared/testing/index.js';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work.js';

const at = new Date('2026-01-15T15:00:00.000Z');

/** A campaign stored in the fakes, with campaign.paused as the outbox event of a pause. */
function storedCampaign(id: string): StoredDecider<Repositories<AllAreas>, Campaign, CampaignCommand, CampaignEvent> {
  const ids = new SequentialIds();
  return {
    decider: campaignDecider,
    load: (repos) => repos.campaigns.findByIdForUpdate(id),
    save: (repos, campaign) => repos.campaigns.update(campaign),
    outbox: (campaign, events) => events.filter((e) => e.type === 'paused').map((e) => campaignPausedEvent(campaign, ids, e.at, apiActor)),
  };
}

async function world() {
  const uow = new InMemoryUnitOfWork();
  await uow.repos.campaigns.insert(campaignFixture({ id: 'c1', status: 'processando', startedAt: at }));
  return uow;
}

describe('applyCommand / handleCommand', () => {
  it('given a stored state, when a command is accepted, then the new state and its outbox events commit together', async () => {
    const uow = await world();
    const result = await applyCommand(uow, storedCampaign('c1'), { type: 'pause', at });
    expect(result?.events).toEqual([{ type: 'paused', at }]);
    expect(result?.state.status).toBe('pausado');
    expect((await uow.repos.campaigns.findById('c1'))?.status).toBe('pausado');
    expect(uow.store.events.map((e) => [e.event, e.data])).toEqual([['campaign.paused', { campaignId: 'c1' }]]);
  });

  it('given a refusal later in the same transaction, then the earlier accepted command and its events roll back', async () => {
    const uow = await world();
    const refused = uow.transaction(async (repos) => {
      await handleCommand(repos, storedCampaign('c1'), { type: 'pause', at });
      return handleCommand(repos, storedCampaign('c1'), { type: 'pause', at }); // already pausado
    });
    await expect(refused).rejects.toBeInstanceOf(InvalidTransitionError);
    expect((await uow.repos.campaigns.findById('c1'))?.status).toBe('processando');
    expect(uow.store.events).toEqual([]);
  });

  it('given a refused command, then nothing is written and the error reaches the caller', async () => {
    const uow = await world();
    await expect(applyCommand(uow, storedCampaign('c1'), { type: 'start', at })).rejects.toBeInstanceOf(InvalidTransitionError);
    expect(await uow.repos.campaigns.findById('c1')).toEqual(campaignFixture({ id: 'c1', status: 'processando', startedAt: at }));
    expect(uow.store.events).toEqual([]);
  });

  it('given a command that changes nothing, then nothing is saved or recorded; given nothing stored and no initial state, then null', async () => {
    const uow = new InMemoryUnitOfWork();
    const setor = createSetor('s1', 'co1', at, { nome: 'Vendas' });
    const ids = new SequentialIds();
    expect(await applyCommand(uow, instanceOfSetor('s1', ids, apiActor), { type: 'disconnect', at, reason: 'user' })).toBeNull();

    const instance = createChannelInstance('i1', setor, at);
    await uow.repos.channelInstances.insert(instance);
    const later = new Date(at.getTime() + 1000);
    const unchanged = await applyCommand(uow, instanceOfSetor('s1', ids, apiActor), { type: 'disconnect', at: later, reason: 'user' });
    expect(unchanged).toEqual({ state: instance, events: [] });
    expect(await uow.repos.channelInstances.findBySetor('s1')).toEqual(instance);
    expect(uow.store.events).toEqual([]);

    await uow.repos.channelInstances.update({ ...instance, status: 'connected', phoneNumber: '+5511987654321' });
    const disconnected = await applyCommand(uow, instanceOfSetor('s1', ids, apiActor), { type: 'disconnect', at: later, reason: 'user' });
    expect(disconnected?.state).toMatchObject({ status: 'disconnected', disconnectedAt: later });
    expect((await uow.repos.channelInstances.findBySetor('s1'))?.status).toBe('disconnected');
    expect(uow.store.events.map((e) => e.event)).toEqual(['channel.session_disconnected']);
  });

  it('given nothing stored and a machine with an initial state, then the command is decided on that state', async () => {
    const uow = new InMemoryUnitOfWork();
    const saved: WebhookDelivery[] = [];
    const event = { id: 'e1', event: 'message.sent' as const, companyId: 'co1', setorId: null, occurredAt: at, data: {}, actor: apiActor };
    const result = await applyCommand(
      uow,
      {
        decider: webhookDeliveryDecider,
        load: async () => null,
        save: async (_repos: Repositories<AllAreas>, delivery) => void saved.push(delivery!),
      },
      { type: 'create', at, id: 'd1', event, target: { webhookId: 'w1' } },
    );
    expect(result?.state).toMatchObject({ id: 'd1', status: 'pending', nextAttemptAt: at });
    expect(saved.map((d) => d.id)).toEqual(['d1']);
  });
});
