import { describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import pg from 'pg';
import type { TestDatabase } from '@carteiro/postgres/testing';
import { eventually } from '../../worker/src/testing/test-worker.js';
import { call, createCampaign, expectSentExactlyOnce, launchHttpCampaign, outboxCount, phone, readCampaign } from './testing/http-tenant.js';
import { fleetOnTestDatabase, type ServerProcess } from './testing/server-process.js';

const RECIPIENTS = 900;

/**
 * Every connection of the service (pools, pg-boss, LISTEN) terminated by the server, twice, in
 * the middle of a campaign: as a failover or a PgBouncer restart would. The test's own pool
 * (application_name carteiro-test) is spared so that it can keep watching.
 */
async function cutEveryConnection(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name <> 'carteiro-test'`,
    );
    return result.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

async function listeners(database: TestDatabase): Promise<number> {
  const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'carteiro-listener'`.execute(database.db);
  return rows.rows[0]!.n;
}

describe('database cut: every service connection terminated mid-campaign', () => {
  let api: ServerProcess;
  let worker: ServerProcess;
  const setup = fleetOnTestDatabase({ env: { PACING_SCALE: '0.001' }, timeoutMs: 60_000 }, async (fleet) => {
    api = await fleet.start('api');
    worker = await fleet.start('worker');
  });

  it('finishes the campaign with each recipient exactly once, and both processes recover without a restart', async () => {
    const { tenant, recipients, id } = await launchHttpCampaign(api.url!, { boxes: 3, recipients: RECIPIENTS, firstPhone: 300_000, name: 'Cut' });

    await eventually(async () => (await listeners(setup.database)) > 0);
    const cuts: { sentAtCut: number; terminated: number }[] = [];
    for (const threshold of [200, 500]) {
      await eventually(async () => (await outboxCount(setup.database.db, tenant.companyId)) >= threshold, { timeoutMs: 30_000, intervalMs: 10 });
      const terminated = await cutEveryConnection(setup.database.url);
      cuts.push({ sentAtCut: await outboxCount(setup.database.db, tenant.companyId), terminated });
    }
    expect(cuts.every((c) => c.terminated > 0 && c.sentAtCut < RECIPIENTS)).toBe(true);

    const detail = await eventually(
      async () => {
        const read = await call(api.url!, 'GET', `/v1/campaigns/${id}`, tenant.key);
        return read.status === 200 && read.body.data.status === 'concluido' ? read.body.data : null;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    ).catch(async (error: Error) => {
      // What was left, for the failure message: the messages by status, the lanes, the worker's last words.
      const left = await sql`SELECT status, count(*)::int AS n FROM campaign_messages WHERE campaign_id = ${id}::uuid GROUP BY status`.execute(setup.database.db);
      const lanes = await sql`SELECT setor_id, owner, lease_until, next_send_at FROM dispatch_lanes`.execute(setup.database.db);
      throw new Error(`${error.message}\nmessages: ${JSON.stringify(left.rows)}\nlanes: ${JSON.stringify(lanes.rows)}\nworker:\n${worker.output().slice(-4_000)}`);
    });
    await expectSentExactlyOnce(setup.database.db, detail, tenant, recipients);

    // The same processes, never restarted, still work: the API is ready and a new campaign is sent.
    expect([api.exit, worker.exit]).toEqual([null, null]);
    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
    // The webhook LISTEN connection is back too.
    await eventually(async () => (await listeners(setup.database)) > 0);
    const again = recipients.slice(0, 30).map((r, i) => ({ ...r, phone: phone(400_000 + i) }));
    const second = await createCampaign(api.url!, tenant, again, 'After the cut');
    await eventually(async () => (await readCampaign(api.url!, tenant, second)).status === 'concluido', { timeoutMs: 30_000, intervalMs: 100 });
    expect(await outboxCount(setup.database.db, tenant.companyId)).toBe(RECIPIENTS + again.length);
    expect([api.exit, worker.exit]).toEqual([null, null]);
    process.stdout.write(`database cut: ${cuts.map((c) => `${c.terminated} connections at ${c.sentAtCut} sent`).join(', ')}\n`);
  }, 150_000);
});
