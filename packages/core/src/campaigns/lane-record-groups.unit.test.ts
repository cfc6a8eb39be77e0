import { describe, expect, it } from '@jest/globals';
import { CampaignWorld } from '../testing/campaign-world.js';
import { DEFAULT_DISPATCH_SETTINGS } from './run-dispatch-lane.js';
import { LaneRecordGroups, type LaneTurnRecord } from './lane-record-groups.js';
import { applyOutcome } from './settle-outcomes.js';
import { recording } from './testing/recording-unit-of-work.js';
import { zonedDay } from '../shared/zoned-time.js';

const phone = (n: number) => `+55119${String(94000000 + n).padStart(8, '0')}`;

/** A campaign spread over the world's boxes, started, and each box's lane taken by `owner-<box>`. */
async function given(boxes: number, recipients: number) {
  const world = await CampaignWorld.create({}, boxes);
  const id = await world.launch(Array.from({ length: recipients }, (_, i) => phone(i)), { setorIds: world.setores.map((s) => s.id) });
  const campaign = (await world.repos.campaigns.findById(id))!;
  const now = world.clock.now();
  const lease = new Date(now.getTime() + 30_000);
  for (const [i, setor] of world.setores.entries()) await world.repos.dispatchLanes.acquire(setor.id, `owner-${i}`, now, lease);
  /** A turn of box `i` that sent `n` of its pending messages. */
  const turn = async (i: number, n: number): Promise<LaneTurnRecord> => {
    const setorId = world.setores[i]!.id;
    const claimed = await world.repos.campaigns.claimMessages(setorId, `owner-${i}`, n, world.clock.now());
    const changes = claimed.map((m) => ({
      message: applyOutcome(m, setorId, { ok: true, providerMessageId: `wamid.${m.id}`, sentAt: now }, now, DEFAULT_DISPATCH_SETTINGS),
      expectedStatus: 'enviando' as const,
      expectedClaimedBy: `owner-${i}`,
    }));
    return { setorId, owner: `owner-${i}`, leaseUntil: lease, nextSendAt: new Date(now.getTime() + 1_000), unsent: [], changes, company: world.company, campaigns: new Map([[campaign.id, campaign]]) };
  };
  return { world, campaign, turn };
}

describe('lane record groups', () => {
  it('given turns handed in while a group is written, then they are written together in the next transaction, the campaign counted once for them', async () => {
    const { world, campaign, turn } = await given(3, 30);
    const uow = recording(world.uow);
    const groups = new LaneRecordGroups(uow, world.clock, world.ids, 64);
    const turns = [await turn(0, 2), await turn(1, 3), await turn(2, 4)];
    // The first starts a transaction at once; the two others arrive while it runs.
    const held = await Promise.all(turns.map((t) => groups.record(t)));
    expect(held).toEqual([true, true, true]);
    expect(uow.transactions).toHaveLength(2);
    // One statement each for the two leases, the campaign's counters and the daily usage of both setores.
    expect(uow.transactions[1]!.filter((c) => c.startsWith('dispatchLanes.'))).toEqual(['dispatchLanes.renewAll']);
    expect(uow.transactions[1]!.filter((c) => c === 'campaigns.addTotals')).toHaveLength(1);
    expect(uow.transactions[1]!.filter((c) => c.startsWith('usage.'))).toEqual(['usage.addSentAll']);
    expect((await world.repos.campaigns.findById(campaign.id))!.totals).toMatchObject({ enviados: 9 });
    // Each box's sends count on its own setor, and all of them on the company.
    const day = zonedDay(world.clock.now(), world.company.timezone);
    expect(await Promise.all(world.setores.map((s) => world.repos.usage.sentBySetor(s.id, day)))).toEqual([2, 3, 4]);
    expect(await world.repos.usage.sentByCompany(world.company.id, day)).toBe(9);
    const perSetor = await Promise.all(world.setores.map(async (s) => (await world.repos.campaigns.messagesInStatus(campaign.id, ['enviado'], s.id)).length));
    expect(perSetor).toEqual([2, 3, 4]);
  });

  it('given a group whose transaction fails for one turn, then the others are written each alone and only that turn fails', async () => {
    const { world, campaign, turn } = await given(3, 30);
    const failing = world.setores[1]!.id;
    const inner = world.uow;
    const uow = Object.create(inner) as typeof inner;
    uow.transaction = (work) =>
      inner.transaction((repos) => {
        const lanes = Object.create(repos.dispatchLanes) as typeof repos.dispatchLanes;
        lanes.renew = async (setorId, ...rest) => {
          if (setorId === failing) throw new Error('boom');
          return repos.dispatchLanes.renew(setorId, ...rest);
        };
        return work({ ...repos, dispatchLanes: lanes });
      });
    const groups = new LaneRecordGroups(uow, world.clock, world.ids, 64);
    const turns = [await turn(0, 2), await turn(1, 3), await turn(2, 4)];
    const settled = await Promise.allSettled(turns.map((t) => groups.record(t)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await world.repos.campaigns.findById(campaign.id))!.totals).toMatchObject({ enviados: 6 });
    expect((await world.repos.campaigns.messagesInStatus(campaign.id, ['enviando'], failing)).length).toBe(3);
  });

  it('given a lane that lost its lease, then its turn is still recorded and answers false', async () => {
    const { world, campaign, turn } = await given(2, 10);
    const groups = new LaneRecordGroups(world.uow, world.clock, world.ids, 64);
    const lost = { ...(await turn(0, 2)), owner: 'someone-else' };
    expect(await Promise.all([groups.record(lost), groups.record(await turn(1, 2))])).toEqual([false, true]);
    expect((await world.repos.campaigns.findById(campaign.id))!.totals).toMatchObject({ enviados: 4 });
  });
});
