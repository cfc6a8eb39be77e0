import { describe, expect, it } from '@jest/globals';
import { updateCompany } from '../companies/index.js';
import { CampaignWorld } from '../testing/campaign-world.js';
import { ReadCampaigns } from './read-campaigns.js';

// The operator suspends a company (modality `inativo`: read-only, single sends already refused) while its campaign runs.

describe('dispatch lane of a company made inactive mid-campaign', () => {
  it('given the company inactive, then the lane sends nothing and looks again a minute later; reactivated, it sends', async () => {
    const world = await CampaignWorld.create();
    const campaignId = await world.launch(['+5511990000001', '+5511990000002']);
    const setorId = world.setores[0]!.id;
    await world.repos.companies.update(updateCompany(world.company, world.clock.now(), { modality: 'inativo' }));

    const held = await world.lane().run(setorId, 'w');

    expect(held).toMatchObject({ outcome: 'yielded', sent: 0, rescheduleAt: new Date(world.clock.now().getTime() + 60_000) });
    expect(world.gateway.sent).toHaveLength(0);
    expect((await new ReadCampaigns(world.repos).detail(world.company.id, campaignId)).status).toBe('processando');

    await world.repos.companies.update(updateCompany(world.company, world.clock.now(), { modality: 'mensal' }));
    world.clock.advance(60_000);
    const resumed = await world.lane({ maxInProcessWaitMs: Number.POSITIVE_INFINITY, sliceMs: Number.POSITIVE_INFINITY }).run(setorId, 'w');
    expect(resumed.sent).toBe(2);
  });
});
