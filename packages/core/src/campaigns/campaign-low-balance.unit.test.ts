import { describe, expect, it } from '@jest/globals';
import { RecordPayment } from '../billing/index.js';
import { SequentialIds } from '../shared/testing/deterministic.js';
import { CampaignWorld } from '../testing/campaign-world.js';
import { RetryCampaignMessages } from './retry-campaign-messages.js';

const phone = (n: number) => `+55119${String(91000000 + n).padStart(8, '0')}`;
const lowAlerts = (world: CampaignWorld) => world.events.filter((e) => e.event === 'billing.low_balance').map((e) => e.data);

describe('billing.low_balance from campaign debits', () => {
  it('the reservation crossing the threshold alerts once; a retry crossing it again after a payment alerts again', async () => {
    const world = await CampaignWorld.create({ modality: 'avulso', avulsoBalance: 101 });
    world.gateway.failFor(phone(1), { code: 'RECIP_BLOCKED' });
    const { created } = await world.createCampaign().execute(
      { companyId: world.company.id, apiKeyId: null, mode: 'live' },
      { name: 'Promo', recipients: [{ phone: phone(0) }, { phone: phone(1) }], message: { text: 'Oi' } },
    );
    expect(lowAlerts(world)).toEqual([{ kind: 'messages', balance: 99, threshold: 100, level: 'low', modality: 'avulso' }]);
    await world.startCampaign().execute(created.id);
    await world.drain();
    const balance = (await world.repos.companies.findById(world.company.id))!.avulsoBalance;
    // Back above the threshold through a payment, which re-arms the alert; the retry's debit crosses it again.
    await new RecordPayment(world.uow, world.clock, new SequentialIds()).execute(world.company.id, {
      kind: 'messages',
      units: 101 - balance,
      amountCents: 100,
      method: 'manual',
      externalRef: 'top-up',
    });
    expect((await world.repos.companies.findById(world.company.id))!.avulsoBalance).toBe(101);
    const retried = await new RetryCampaignMessages(world.uow, world.clock).execute(world.company.id, created.id, { allFailures: true });
    expect(retried.retried).toBe(1);
    expect(lowAlerts(world)).toEqual([
      { kind: 'messages', balance: 99, threshold: 100, level: 'low', modality: 'avulso' },
      { kind: 'messages', balance: 100, threshold: 100, level: 'low', modality: 'avulso' },
    ]);
  });
});
