import { describe, expect, it } from '@jest/globals';
import { FixedRandom } from '../testing/index.js';
import { CampaignWorld } from '../testing/campaign-world.js';
import { DEFAULT_DISPATCH_SETTINGS, RunDispatchLane, type DispatchSettings } from './run-dispatch-lane.js';
import type { TimedSendStep, TimedSends } from './timed-sends.js';
import { recording } from './testing/recording-unit-of-work.js';

const phone = (n: number) => `+55119${String(92000000 + n).padStart(8, '0')}`;

/** The world's unit of work, counting the transactions it runs. */
function counting<U extends object>(uow: U): U & { count: number } {
  const counted = Object.create(uow) as U & { count: number };
  counted.count = 0;
  const inner = uow as unknown as { transaction(work: unknown): Promise<unknown> };
  (counted as unknown as typeof inner).transaction = (work) => {
    counted.count += 1;
    return inner.transaction(work);
  };
  return counted;
}


/** No timed send is ever due; counts how often the lane asks. */
class NoTimedSends implements TimedSends {
  asked = 0;
  async hasWork(): Promise<boolean> {
    this.asked += 1;
    return false;
  }
  async sendNext(): Promise<TimedSendStep | null> {
    return null;
  }
}

function launch(world: CampaignWorld, recipients: number, mode: 'live' | 'test' = 'live') {
  return world.launch(Array.from({ length: recipients }, (_, i) => phone(i)), { antiBanLevel: 'normal' }, mode);
}

// PACING_SCALE 1/30: a new number's 30 s warming floor becomes one send a second, as in the platform benchmark.
const onceASecond: DispatchSettings = { ...DEFAULT_DISPATCH_SETTINGS, pacingScale: 1 / 30, maxInProcessWaitMs: Number.POSITIVE_INFINITY, sliceMs: Number.POSITIVE_INFINITY };

describe('dispatch lane turns at one send a second', () => {
  it('given twenty messages, then each send costs its claim and its record, and the setor, timed sends and leftovers are read only now and then', async () => {
    const world = await CampaignWorld.create();
    await launch(world, 20);
    const uow = counting(world.uow);
    const timed = new NoTimedSends();
    const lane = new RunDispatchLane(uow, world.clock, world.ids, new FixedRandom(0), world.gateway, world.sleeper, world.senderFailures, onceASecond, timed);
    const result = await lane.run(world.setores[0]!.id, 'owner-1');
    expect(result.sent).toBe(20);
    expect(world.sleeper.waits.every((ms) => ms === 1_000)).toBe(true);
    // 20 claims + 20 records, plus acquire, the leftovers' look, three context reads (every 10 s), campaign, the last empty claim, retries, release.
    expect(uow.count).toBeLessThanOrEqual(2 * 20 + 10);
    // Timed sends are looked for every 5 s of the run, not before every send.
    expect(timed.asked).toBeGreaterThanOrEqual(2);
    expect(timed.asked).toBeLessThanOrEqual(5);
  });

  it('given a run that reaches the end of its slice, then it hands the lane over at once (the next run waits the gap itself)', async () => {
    const world = await CampaignWorld.create();
    await launch(world, 10);
    const lane = world.lane({ ...onceASecond, sliceMs: 2_500 });
    const result = await lane.run(world.setores[0]!.id, 'owner-1');
    expect(result.outcome).toBe('yielded');
    expect(result.rescheduleAt!.getTime()).toBe(world.clock.now().getTime());
    const held = await world.repos.dispatchLanes.find(world.setores[0]!.id);
    // The pacing is kept in the lane: the next run of any worker waits until then.
    expect(held!.nextSendAt!.getTime()).toBeGreaterThan(world.clock.now().getTime());
    expect(held!.owner).toBeNull();
  });

  it('given a test-key campaign larger than a new number’s warming limit, then its sends (which warming does not count) are never skipped', async () => {
    const world = await CampaignWorld.create();
    const id = await launch(world, 60, 'test');
    const lane = world.lane(onceASecond);
    const result = await lane.run(world.setores[0]!.id, 'owner-1');
    expect(result.sent).toBe(60);
    expect(await world.repos.campaigns.messagesInStatus(id, ['pulado'])).toHaveLength(0);
  });

  it('given a live campaign larger than the warming limit, then the lane stops at the limit counted from its own sends and skips the rest', async () => {
    const world = await CampaignWorld.create();
    const id = await launch(world, 60);
    const lane = world.lane(onceASecond);
    const result = await lane.run(world.setores[0]!.id, 'owner-1');
    expect(result.sent).toBe(50);
    expect(await world.repos.campaigns.messagesInStatus(id, ['pulado'])).toHaveLength(10);
  });

  it('given a send to record, then the rows the company’s lanes share (campaign counters, daily count) are written last, each in one statement', async () => {
    const world = await CampaignWorld.create();
    await launch(world, 1);
    const uow = recording(world.uow);
    const lane = new RunDispatchLane(uow, world.clock, world.ids, new FixedRandom(0), world.gateway, world.sleeper, world.senderFailures, onceASecond);
    expect((await lane.run(world.setores[0]!.id, 'owner-1')).sent).toBe(1);
    const record = uow.transactions.find((calls) => calls.includes('campaigns.addTotals'))!;
    expect(record).toEqual(['dispatchLanes.renew', 'campaigns.updateMessages', 'campaigns.updateMessages', 'events.record', 'campaigns.addTotals', 'campaigns.update', 'events.record', 'usage.addSent']);
  });
});
