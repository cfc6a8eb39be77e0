import { describe, expect, it } from '@jest/globals';
import { FixedRandom } from '../testing/index.js';
import type { ManualClock } from '../shared/testing/manual-clock.js';
import { CampaignWorld } from '../testing/campaign-world.js';
import { CancelCampaign } from './cancel-campaign.js';
import { PauseCampaign } from './pause-campaign.js';
import { DEFAULT_DISPATCH_SETTINGS, RunDispatchLane, type DispatchSettings } from './run-dispatch-lane.js';
import type { Sleeper } from './sleeper.js';
import { recording } from './testing/recording-unit-of-work.js';

const phone = (n: number) => `+55119${String(93000000 + n).padStart(8, '0')}`;


/** Moves the clock like the world's sleeper, and runs `action` during the n-th wait. */
class ActingSleeper implements Sleeper {
  waits = 0;
  constructor(
    private readonly clock: ManualClock,
    private readonly n: number,
    private readonly action: () => Promise<unknown>,
  ) {}
  async sleep(ms: number): Promise<void> {
    this.waits += 1;
    this.clock.advance(ms);
    if (this.waits === this.n) await this.action();
  }
}

function launch(world: CampaignWorld, recipients: number) {
  return world.launch(Array.from({ length: recipients }, (_, i) => phone(i)), { antiBanLevel: 'normal' });
}

// PACING_SCALE 1/30: a new number's 30 s warming floor becomes one send a second, as in the platform benchmark.
const onceASecond: DispatchSettings = { ...DEFAULT_DISPATCH_SETTINGS, pacingScale: 1 / 30, maxInProcessWaitMs: Number.POSITIVE_INFINITY, sliceMs: Number.POSITIVE_INFINITY };

describe('dispatch lane reading ahead at one send a second', () => {
  it('given twenty messages, then they are recorded once every recordEvery sends, each claimed on its own at its turn (before its gap of a second)', async () => {
    const world = await CampaignWorld.create();
    const id = await launch(world, 20);
    const uow = recording(world.uow);
    const pendingAtSend: number[] = [];
    const send = world.gateway.send.bind(world.gateway);
    world.gateway.send = async (request) => {
      pendingAtSend.push((await world.repos.campaigns.messagesInStatus(id, ['pendente'])).length);
      return send(request);
    };
    const lane = new RunDispatchLane(uow, world.clock, world.ids, new FixedRandom(0), world.gateway, world.sleeper, world.senderFailures, { ...onceASecond, recordEvery: 5 });
    const result = await lane.run(world.setores[0]!.id, 'owner-1');
    expect(result.sent).toBe(20);
    expect(world.sleeper.waits.every((ms) => ms === 1_000)).toBe(true);
    const calls = uow.transactions.flat();
    expect(uow.transactions.filter((t) => t.includes('campaigns.addTotals'))).toHaveLength(4);
    expect(calls.filter((c) => c === 'campaigns.claimListed')).toHaveLength(20);
    expect(calls.filter((c) => c === 'campaigns.claimMessages')).toHaveLength(0);
    // When each message went out, every later one was still pending: nothing is claimed before its turn.
    expect(pendingAtSend).toEqual(Array.from({ length: 20 }, (_, k) => 19 - k));
    expect((await world.repos.campaigns.findById(id))).toMatchObject({ status: 'concluido', totals: { enviados: 20 } });
  });

  it('given messages read ahead and the campaign paused during a gap, then the message claimed for that gap goes and the next is not sent and stays pending; the sends are recorded', async () => {
    const world = await CampaignWorld.create();
    const id = await launch(world, 20);
    // The third wait is the gap before message 3, claimed when the gap began (a gap within a claim's span of 1 s).
    const sleeper = new ActingSleeper(world.clock, 3, () => new PauseCampaign(world.uow, world.clock, world.ids).execute(world.company.id, id));
    const lane = new RunDispatchLane(world.uow, world.clock, world.ids, new FixedRandom(0), world.gateway, sleeper, world.senderFailures, { ...onceASecond, recordEvery: 10 });
    const result = await lane.run(world.setores[0]!.id, 'owner-1');
    expect(result).toMatchObject({ outcome: 'idle', sent: 4 });
    expect(world.gateway.sent).toHaveLength(4);
    expect(await world.repos.campaigns.messagesInStatus(id, ['enviando'])).toHaveLength(0);
    expect(await world.repos.campaigns.messagesInStatus(id, ['pendente'])).toHaveLength(16);
    expect(await world.repos.campaigns.findById(id)).toMatchObject({ status: 'pausado', totals: { enviados: 4 } });
  });

  it('given gaps longer than a claim span, then a message is claimed after its gap: a pause during the gap keeps it pending', async () => {
    const world = await CampaignWorld.create();
    const id = await launch(world, 20);
    const sleeper = new ActingSleeper(world.clock, 3, () => new PauseCampaign(world.uow, world.clock, world.ids).execute(world.company.id, id));
    const lane = new RunDispatchLane(world.uow, world.clock, world.ids, new FixedRandom(0), world.gateway, sleeper, world.senderFailures, { ...onceASecond, recordEvery: 10, batchSpanMs: 500 });
    expect(await lane.run(world.setores[0]!.id, 'owner-1')).toMatchObject({ outcome: 'idle', sent: 3 });
    expect(await world.repos.campaigns.messagesInStatus(id, ['pendente'])).toHaveLength(17);
  });

  it('given messages read ahead and the campaign cancelled during a gap, then past the message claimed for that gap the rest is skipped by the cancel and never sent', async () => {
    const world = await CampaignWorld.create();
    const id = await launch(world, 20);
    const sleeper = new ActingSleeper(world.clock, 3, () => new CancelCampaign(world.uow, world.clock, world.ids).execute(world.company.id, id));
    const lane = new RunDispatchLane(world.uow, world.clock, world.ids, new FixedRandom(0), world.gateway, sleeper, world.senderFailures, { ...onceASecond, recordEvery: 10 });
    expect((await lane.run(world.setores[0]!.id, 'owner-1')).sent).toBe(4);
    expect(world.gateway.sent).toHaveLength(4);
    expect(await world.repos.campaigns.messagesInStatus(id, ['pulado'])).toHaveLength(16);
    expect(await world.repos.campaigns.findById(id)).toMatchObject({ status: 'concluido', totals: { enviados: 4, pulados: 16 } });
  });

  it('given claims that take 30 ms each, then the sends are not late by them: the read ahead and each claim happen inside the gap', async () => {
    const world = await CampaignWorld.create();
    await launch(world, 12);
    // Every claim and read ahead moves the clock by 30 ms, as a busy database's round trip would.
    const slow = Object.create(world.uow) as typeof world.uow;
    slow.transaction = (work) =>
      world.uow.transaction((repos) => {
        const campaigns = new Proxy(repos.campaigns, {
          get: (target, method: string) => {
            const value = (target as unknown as Record<string, unknown>)[method];
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              if (method === 'claimListed' || method === 'pendingAhead') world.clock.advance(30);
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        });
        return work({ ...repos, campaigns } as typeof repos);
      });
    const late: (number | null)[] = [];
    const lane = new RunDispatchLane(slow, world.clock, world.ids, new FixedRandom(0), world.gateway, world.sleeper, world.senderFailures, onceASecond, null, {
      campaignSend: (observation) => late.push(observation.lateMs),
    });
    expect((await lane.run(world.setores[0]!.id, 'owner-1')).sent).toBe(12);
    expect(late).toEqual([null, ...Array.from({ length: 11 }, () => 0)]);
  });

  it('given a short lease, then the sends between two records span at most a third of it', async () => {
    const world = await CampaignWorld.create();
    await launch(world, 12);
    const uow = recording(world.uow);
    const lane = new RunDispatchLane(uow, world.clock, world.ids, new FixedRandom(0), world.gateway, world.sleeper, world.senderFailures, { ...onceASecond, recordEvery: 10, leaseMs: 3_000 });
    expect((await lane.run(world.setores[0]!.id, 'owner-1')).sent).toBe(12);
    // A third of 3 s is one gap: two sends per record.
    expect(uow.transactions.filter((t) => t.includes('campaigns.addTotals'))).toHaveLength(6);
  });
});

describe('a cancel while sends are in flight', () => {
  /** Runs a lane of twenty messages read ahead ten at a time, cancelling the campaign during its third gap. */
  async function cancelledDuringThirdGap(world: CampaignWorld) {
    const id = await launch(world, 20);
    const sleeper = new ActingSleeper(world.clock, 3, () => new CancelCampaign(world.uow, world.clock, world.ids).execute(world.company.id, id));
    const lane = new RunDispatchLane(world.uow, world.clock, world.ids, new FixedRandom(0), world.gateway, sleeper, world.senderFailures, { ...onceASecond, recordEvery: 10 });
    await lane.run(world.setores[0]!.id, 'owner-1');
    return id;
  }
  const names = (world: CampaignWorld) => world.events.map((e) => e.event).filter((e) => e.startsWith('campaign.') || e.startsWith('message.'));

  it('given sends handed to the channel but not recorded at the cancel, then campaign.completed comes once, after their message.sent, with totals that add up', async () => {
    const world = await CampaignWorld.create();
    const id = await cancelledDuringThirdGap(world);

    const completed = world.events.filter((e) => e.event === 'campaign.completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data).toEqual({ campaignId: id, totalDestinatarios: 20, totalEnviados: 4, totalFalhas: 0, totalPulados: 16, cancelledByUser: true });
    expect(names(world).at(-1)).toBe('campaign.completed');
    expect(names(world).filter((e) => e === 'message.sent')).toHaveLength(4);
  });

  it('given a send in flight at the cancel that fails for a while, then it is skipped as cancelled instead of waiting for a retry that never comes, and its unit is given back', async () => {
    const world = await CampaignWorld.create({ modality: 'avulso', avulsoBalance: 100 });
    world.gateway.failFor(phone(3), { code: 'TEMP_TIMEOUT' });
    const id = await cancelledDuringThirdGap(world);

    expect(await world.repos.campaigns.messagesInStatus(id, ['pendente', 'enviando'])).toHaveLength(0);
    const [skipped] = (await world.repos.campaigns.messagesInStatus(id, ['pulado'])).filter((m) => m.phone === phone(3));
    expect(skipped).toMatchObject({ skipReason: 'cancelled_by_user' });
    expect(await world.repos.campaigns.findById(id)).toMatchObject({ status: 'concluido', totals: { total: 20, enviados: 3, falhas: 0, pulados: 17 } });
    // Three sent keep their units; the seventeen skipped give theirs back.
    expect((await world.repos.companies.findById(world.company.id))?.avulsoBalance).toBe(97);
    const completed = world.events.filter((e) => e.event === 'campaign.completed');
    expect(completed.map((e) => e.data)).toEqual([{ campaignId: id, totalDestinatarios: 20, totalEnviados: 3, totalFalhas: 0, totalPulados: 17, cancelledByUser: true }]);
  });
});
