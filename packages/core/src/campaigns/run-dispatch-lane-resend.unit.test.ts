import { describe, expect, it } from '@jest/globals';
import { CampaignWorld } from '../testing/campaign-world.js';

const phone = (n: number) => `+55119${String(91000000 + n).padStart(8, '0')}`;

describe('dispatch lane resends after a crash', () => {
  it('given messages a dead run had claimed, then their sends tell the gateway since when an earlier attempt may exist; fresh claims do not', async () => {
    const world = await CampaignWorld.create();
    await world.launch([0, 1, 2].map(phone));
    const setorId = world.setores[0]!.id;
    const claimedAt = world.clock.now();
    const [leftover] = await world.repos.campaigns.claimMessages(setorId, 'dead-run', 1, claimedAt);
    world.clock.advance(60_000);
    await world.drain();
    const sends = world.gateway.sent;
    expect(sends).toHaveLength(3);
    expect(sends.find((s) => s.clientMessageId === leftover!.id)?.earlierAttemptSince).toEqual(claimedAt);
    expect(sends.filter((s) => s.clientMessageId !== leftover!.id).map((s) => s.earlierAttemptSince)).toEqual([undefined, undefined]);
  });
});
