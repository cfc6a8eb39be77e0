import { describe, expect, it } from '@jest/globals';
import { eventually } from '../../worker/src/testing/test-worker.js';
import { expectSentExactlyOnce, launchHttpCampaign, outboxCount, readCampaign } from './testing/http-tenant.js';
import { fleetOnTestDatabase, type ServerProcess } from './testing/server-process.js';

const RECIPIENTS = 2_000;
const KILLS = 3;

/**
 * PACING_SCALE 0.001: a new number's 30 s warming floor becomes 30 ms, so three numbers send about
 * 100 messages a second and the campaign lasts ~20 s of sending; each kill lands after a fresh
 * share of sends, so it always interrupts lanes mid-batch.
 */
describe('chaos: the worker SIGKILLed three times during a 2,000-recipient campaign on 3 numbers', () => {
  let api: ServerProcess;
  const setup = fleetOnTestDatabase({ env: { PACING_SCALE: '0.001' }, timeoutMs: 60_000 }, async (fleet) => {
    api = await fleet.start('api');
  });

  it('delivers to each recipient exactly once and the counters add up', async () => {
    const { tenant, recipients, id } = await launchHttpCampaign(api.url!, { boxes: 3, recipients: RECIPIENTS, firstPhone: 100_000, name: 'Chaos' });

    const kills: { sentAtKill: number; claimedAtKill: number }[] = [];
    for (let k = 0; k < KILLS; k += 1) {
      const worker = await setup.fleet.start('worker');
      const before = await outboxCount(setup.database.db, tenant.companyId);
      // Kill once this worker has sent its share: about a quarter of the campaign each time.
      const target = Math.min(before + RECIPIENTS / 4, RECIPIENTS - 200);
      await eventually(async () => (await outboxCount(setup.database.db, tenant.companyId)) >= target, { timeoutMs: 30_000, intervalMs: 10 });
      worker.kill('SIGKILL');
      expect(await worker.exited).toEqual({ code: null, signal: 'SIGKILL' });
      const claimed = await setup.database.db
        .selectFrom('campaign_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('campaign_id', '=', id)
        .where('status', '=', 'enviando')
        .executeTakeFirstOrThrow();
      kills.push({ sentAtKill: await outboxCount(setup.database.db, tenant.companyId), claimedAtKill: Number(claimed.n) });
    }
    // The kills interrupted a campaign still under way.
    expect(kills.every((k) => k.sentAtKill < RECIPIENTS)).toBe(true);
    expect((await readCampaign(api.url!, tenant, id)).status).toBe('processando');

    await setup.fleet.start('worker');
    const detail = await eventually(
      async () => {
        const read = await readCampaign(api.url!, tenant, id);
        return read.status === 'concluido' ? read : null;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    expect(detail.total_enviados + detail.total_falhas + detail.total_pulados).toBe(detail.total_destinatarios);
    await expectSentExactlyOnce(setup.database.db, detail, tenant, recipients);
    process.stdout.write(`chaos: kills at ${kills.map((k) => `${k.sentAtKill} sent/${k.claimedAtKill} claimed`).join(', ')}\n`);
  }, 150_000);
});
