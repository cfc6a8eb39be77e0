import { describe, expect, it } from '@jest/globals';
import { FixedRandom } from '../testing/index.js';
import { CampaignWorld } from '../testing/campaign-world.js';
import { DEFAULT_DISPATCH_SETTINGS, RunDispatchLane } from './run-dispatch-lane.js';
import type { TimedSendContext, TimedSends, TimedSendStep } from './timed-sends.js';

/** Timed sends of one setor as a queue: each step "sends" one and notes who sent it and when. */
class QueuedTimedSends implements TimedSends {
  readonly log: { id: string; owner: string; at: number }[] = [];
  constructor(
    private readonly world: CampaignWorld,
    private readonly queue: string[],
  ) {}
  async hasWork(): Promise<boolean> {
    return this.queue.length > 0;
  }
  async sendNext(ctx: TimedSendContext): Promise<TimedSendStep | null> {
    const id = this.queue.shift();
    if (!id) return null;
    this.log.push({ id, owner: ctx.owner, at: this.world.clock.now().getTime() });
    return { attempted: true, sent: true, failed: false };
  }
}

const phone = (n: number) => `+55119${String(91000000 + n).padStart(8, '0')}`;

describe('dispatch lane with timed sends', () => {
  it('given due timed sends and a running campaign, then the lane sends the timed ones first, keeping the number’s gap between every send', async () => {
    const world = await CampaignWorld.create();
    await world.launch([phone(1), phone(2)], { antiBanLevel: 'normal' });
    const timed = new QueuedTimedSends(world, ['r1', 'r2']);
    const lane = new RunDispatchLane(world.uow, world.clock, world.ids, new FixedRandom(0), world.gateway, world.sleeper, world.senderFailures, {
      ...DEFAULT_DISPATCH_SETTINGS,
      maxInProcessWaitMs: Number.POSITIVE_INFINITY,
      sliceMs: Number.POSITIVE_INFINITY,
    }, timed);
    const result = await lane.run(world.setores[0]!.id, 'owner-1');
    expect(timed.log.map((l) => l.id)).toEqual(['r1', 'r2']);
    expect(timed.log.every((l) => l.owner === 'owner-1')).toBe(true);
    expect(world.gateway.sent).toHaveLength(2);
    // A new number's warming floor (30 s) separates every send, timed or not: r1, r2, then the two campaign messages.
    expect(world.sleeper.waits.slice(0, 3)).toEqual([30_000, 30_000, 30_000]);
    expect(timed.log[1]!.at - timed.log[0]!.at).toBe(30_000);
    expect(result.sent).toBe(4);
  });

  it('given a lane held by another owner, then no timed send is attempted', async () => {
    const world = await CampaignWorld.create();
    const setorId = world.setores[0]!.id;
    await world.uow.transaction((repos) => repos.dispatchLanes.acquire(setorId, 'other', world.clock.now(), new Date(world.clock.now().getTime() + 30_000)));
    const timed = new QueuedTimedSends(world, ['r1']);
    const lane = new RunDispatchLane(world.uow, world.clock, world.ids, new FixedRandom(0), world.gateway, world.sleeper, world.senderFailures, DEFAULT_DISPATCH_SETTINGS, timed);
    const result = await lane.run(setorId, 'owner-2');
    expect(result.outcome).toBe('busy');
    expect(timed.log).toEqual([]);
  });
});
