import { expect, it } from '@jest/globals';
import { FixedRandom } from '../shared/testing/deterministic.js';
import type { ManualClock } from '../shared/testing/manual-clock.js';
import { CampaignWorld } from '../testing/campaign-world.js';
import type { CampaignSendObservation } from './dispatch-observer.js';
import { DEFAULT_DISPATCH_SETTINGS, RunDispatchLane } from './run-dispatch-lane.js';
import type { Sleeper } from './sleeper.js';

const phone = (n: number) => `+55119${String(90000000 + n).padStart(8, '0')}`;

/** Wakes `extraMs` after the time asked for, as a busy event loop does. */
class OversleepingSleeper implements Sleeper {
  constructor(private readonly clock: ManualClock, private readonly extraMs: number) {}
  async sleep(ms: number): Promise<void> {
    this.clock.advance(ms + this.extraMs);
  }
}

it('given a lane whose waits overshoot by 40 ms, then each send after the first reports 40 ms of lateness and its outcome', async () => {
  const world = await CampaignWorld.create();
  world.gateway.failFor(phone(2), { code: 'RECIP_BLOCKED' });
  await world.launch([0, 1, 2].map(phone));
  const observed: CampaignSendObservation[] = [];
  const settings = { ...DEFAULT_DISPATCH_SETTINGS, maxInProcessWaitMs: Number.POSITIVE_INFINITY, sliceMs: Number.POSITIVE_INFINITY };
  const lane = new RunDispatchLane(world.uow, world.clock, world.ids, new FixedRandom(0), world.gateway, new OversleepingSleeper(world.clock, 40), world.senderFailures, settings, null, {
    campaignSend: (observation) => observed.push(observation),
  });
  await lane.run(world.setores[0]!.id, 'owner-1');
  // The number's first send has no planned instant; the gaps of the others were planned in this run.
  expect(observed).toEqual([
    { outcome: 'sent', lateMs: null },
    { outcome: 'sent', lateMs: 40 },
    { outcome: 'RECIP_BLOCKED', lateMs: 40 },
  ]);
});

it('given a lane that resumes long after its planned instant, then lateness counts from the start of the run, not the idle time', async () => {
  const world = await CampaignWorld.create();
  const observed: CampaignSendObservation[] = [];
  const settings = { ...DEFAULT_DISPATCH_SETTINGS, maxInProcessWaitMs: Number.POSITIVE_INFINITY, sliceMs: Number.POSITIVE_INFINITY };
  const lane = new RunDispatchLane(world.uow, world.clock, world.ids, new FixedRandom(0), world.gateway, world.sleeper, world.senderFailures, settings, null, {
    campaignSend: (observation) => observed.push(observation),
  });
  for (const round of [0, 1]) {
    await world.launch([phone(round)], { name: `Promo ${round}` });
    await lane.run(world.setores[0]!.id, `owner-${round}`);
    world.clock.advance(3_600_000);
  }
  expect(observed).toEqual([
    { outcome: 'sent', lateMs: null },
    { outcome: 'sent', lateMs: 0 },
  ]);
});
