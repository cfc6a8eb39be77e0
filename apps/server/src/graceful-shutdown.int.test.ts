import { describe, expect, it } from '@jest/globals';
import { eventually } from '../../worker/src/testing/test-worker.js';
import { expectSentExactlyOnce, launchHttpCampaign, outboxCount, readCampaign } from './testing/http-tenant.js';
import { fleetOnTestDatabase } from './testing/server-process.js';

const RECIPIENTS = 600;
/** main.ts gives up (exit 1) after 25 s; a clean stop must come well before. */
const SHUTDOWN_TIMEOUT_MS = 25_000;

describe('graceful shutdown: SIGTERM to a ROLE=all process mid-campaign', () => {
  const setup = fleetOnTestDatabase({ env: { PACING_SCALE: '0.001' }, timeoutMs: 60_000 });

  it('exits 0 in time, stops accepting, releases its work, and a new process finishes the campaign exactly once', async () => {
    const first = await setup.fleet.start('all');
    const { tenant, recipients, id } = await launchHttpCampaign(first.url!, { boxes: 2, recipients: RECIPIENTS, firstPhone: 500_000, name: 'Shutdown' });
    await eventually(async () => (await outboxCount(setup.database.db, tenant.companyId)) >= 150, { timeoutMs: 30_000, intervalMs: 10 });

    const inFlight = await setup.database.db.selectFrom('campaign_messages').select('id').where('campaign_id', '=', id).where('status', '=', 'enviando').execute();
    const signalledAt = Date.now();
    first.kill('SIGTERM');
    // The listening socket closes first: new connections are refused while the worker still drains.
    await eventually(async () => fetch(`${first.url}/healthz`).then(() => false, () => true), { timeoutMs: SHUTDOWN_TIMEOUT_MS, intervalMs: 20 });
    const exit = await first.exited;
    const tookMs = Date.now() - signalledAt;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(tookMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS);

    // Nothing left claimed or leased: in-flight work was finished or handed back.
    const sentAtStop = await outboxCount(setup.database.db, tenant.companyId);
    expect(sentAtStop).toBeLessThan(RECIPIENTS);
    const claimed = await setup.database.db.selectFrom('campaign_messages').select('id').where('campaign_id', '=', id).where('status', '=', 'enviando').execute();
    expect(claimed).toHaveLength(0);
    const leases = await setup.database.db.selectFrom('dispatch_lanes').select(['setor_id', 'owner']).where('setor_id', 'in', tenant.setorIds).execute();
    expect(leases.filter((l) => l.owner !== null)).toEqual([]);
    // Every message the channel accepted is recorded as sent: nothing was lost in the stop.
    const recorded = await setup.database.db.selectFrom('campaign_messages').select('id').where('campaign_id', '=', id).where('status', '=', 'enviado').execute();
    expect(recorded).toHaveLength(sentAtStop);

    const second = await setup.fleet.start('all');
    const detail = await eventually(
      async () => {
        const read = await readCampaign(second.url!, tenant, id);
        return read.status === 'concluido' ? read : null;
      },
      { timeoutMs: 45_000, intervalMs: 100 },
    );
    await expectSentExactlyOnce(setup.database.db, detail, tenant, recipients);
    process.stdout.write(`graceful shutdown: exit 0 after ${tookMs} ms with ${sentAtStop}/${RECIPIENTS} sent, ${inFlight.length} claimed at the signal\n`);
  }, 120_000);
});
