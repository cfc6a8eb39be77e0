import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ChannelGateway,
  Clock,
  DEFAULT_DISPATCH_SETTINGS,
  HandleSenderFailure,
  IdGenerator,
  Random,
  Repositories,
  RunDispatchLane,
  StartCampaign,
  UnitOfWork,
  type Sleeper,
} from '@carteiro/core';
import { ManualClock } from '@carteiro/core/testing';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';
import { ContainerModule } from 'inversify';
import pg from 'pg';
import request from 'supertest';
import { createTestApi, type TestApi } from '../../../api/src/testing/test-api.js';
import { campaignTenant, outbox, phone } from './testing/campaign-e2e.js';

/** Moves the manual clock instead of waiting: the lane's pacing runs in no time, as it would in real time. */
class ClockSleeper implements Sleeper {
  constructor(private readonly clock: ManualClock) {}
  async sleep(ms: number): Promise<void> {
    this.clock.advance(ms);
  }
}

/**
 * The round trips of a paced lane (issue 17: 2,000 numbers sending once a second): every statement the
 * driver sends while one lane sends twenty messages at one a second through the simulator, counted on the
 * pg clients (pg-boss's own statements aside). The lane, the simulator and the database are the real ones;
 * the clock is manual and the sleeper moves it, so the gaps take no time.
 */
describe('paced lane round trips', () => {
  const clock = new ManualClock(new Date(Date.now() - 60_000));
  let api: TestApi;
  const original = pg.Client.prototype.query;
  let statements: string[] | null = null;

  beforeAll(async () => {
    api = await createTestApi({
      env: { PACING_SCALE: String(1 / 30) },
      overrides: [new ContainerModule(({ isBound, rebind }) => void (isBound(Clock) && rebind(Clock).toConstantValue(clock)))],
    });
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string } | undefined;
      const text = (typeof first === 'string' ? first : (first?.text ?? '')).trim().toLowerCase();
      if (statements && !text.includes('pgboss')) statements.push(text);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pg.Client.prototype.query;
  });
  afterAll(async () => {
    pg.Client.prototype.query = original;
    await api?.close();
  });

  it('twenty sends at one a second: one claim statement and one simulator write each, one read ahead and one record transaction per five', async () => {
    const t = await campaignTenant(api, { boxes: 1, warmingLimit: 1_000 });
    const recipients = Array.from({ length: 20 }, (_, i) => ({ phone: phone(400 + i) }));
    const created = await request(api.app).post('/v1/campaigns').set(t.auth).send({ name: 'Round trips', recipients, message: { text: 'Oi {{nome}}' }, options: { anti_ban_level: 'normal' } });
    expect(created.status).toBe(202);
    const c = api.container;
    const uow = c.get<ServiceUnitOfWork>(UnitOfWork);
    const ids = c.get<IdGenerator>(IdGenerator);
    expect(await new StartCampaign(uow, clock, ids).execute(created.body.data.id)).toBe('started');
    const lane = new RunDispatchLane(
      uow,
      clock,
      ids,
      c.get<Random>(Random),
      c.get<ChannelGateway>(ChannelGateway),
      new ClockSleeper(clock),
      new HandleSenderFailure(uow, clock, ids),
      { ...DEFAULT_DISPATCH_SETTINGS, pacingScale: 1 / 30, recordEvery: 5 },
      null,
      undefined,
      c.get<ServiceRepositories>(Repositories),
    );

    statements = [];
    const result = await lane.run(t.setores[0]!, 'round-trips:1');
    const seen = statements;
    statements = null;

    expect(result).toMatchObject({ outcome: 'idle', sent: 20, failed: 0 });
    expect(await outbox(api.database.db, t.company.id)).toHaveLength(20);
    const detail = (await request(api.app).get(`/v1/campaigns/${created.body.data.id}`).set(t.auth)).body.data;
    expect(detail).toMatchObject({ status: 'concluido', total_enviados: 20 });
    const count = (pattern: RegExp) => seen.filter((s) => pattern.test(s)).length;
    // Each message claimed on its own, outside any transaction (the statement the lanes of a process share); each
    // stored once in the simulator outbox.
    expect(count(/^select \* from carteiro_claim_grouped/)).toBe(20);
    expect(count(/from carteiro_simulator_record/)).toBe(20);
    // Recorded in four transactions of five: one lease renewal, one message update, one events insert, one counter
    // update each (the last one also completes the campaign).
    expect(count(/^update "dispatch_lanes" set "lease_until"/)).toBe(4);
    expect(count(/^update campaign_messages m set\s+status = u\.status/)).toBe(4);
    expect(count(/^update "campaigns" set "enviados" = enviados/)).toBe(4);
    expect(count(/^insert into "domain_events"/)).toBeLessThanOrEqual(5);
    expect(count(/^begin/)).toBeLessThanOrEqual(5);
    // The simulator reads a number's session every 5 s, not before every send.
    expect(count(/from "simulator_session_ends"/)).toBeLessThanOrEqual(5);
    // Everything (lease, leftovers, context reads every 10 s, release) in under five statements a send, where a
    // claim transaction and a record transaction per send took 274 statements in 48 transactions.
    expect(seen.length).toBeLessThanOrEqual(100);
  });
});
