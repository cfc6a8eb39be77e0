import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { healthStateOf, nextHealth, readHealthState, type InstanceHealth } from './channel-health.js';

const ids = { instanceId: 'i-1', companyId: 'c-1', setorId: 's-1' };
const ok = { responding: true, connected: true, error: null };
const silent = { responding: false, connected: false, error: 'timeout' };
const closed = { responding: true, connected: false, error: null };

describe('channel health rules', () => {
  it('is healthy when the provider answers and the session is connected', () => {
    const clock = new ManualClock();
    const health = nextHealth(null, ids, 'connected', ok, clock.now());
    expect(health).toEqual({
      ...ids,
      state: 'healthy',
      connected: true,
      responding: true,
      lastCheckedAt: clock.now(),
      lastOkAt: clock.now(),
      consecutiveFailures: 0,
      error: null,
    });
  });

  it('degrades on the first two failed checks of a connected box and is down from the third', () => {
    const clock = new ManualClock();
    let health: InstanceHealth = nextHealth(null, ids, 'connected', ok, clock.now());
    const okAt = clock.now();
    const states: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      clock.advance(60_000);
      health = nextHealth(health, ids, 'connected', silent, clock.now());
      states.push(health.state);
    }
    expect(states).toEqual(['degraded', 'degraded', 'down', 'down']);
    expect(health).toMatchObject({ consecutiveFailures: 4, lastOkAt: okAt, responding: false, error: 'timeout' });
    clock.advance(60_000);
    health = nextHealth(health, ids, 'connected', ok, clock.now());
    expect(health).toMatchObject({ state: 'healthy', consecutiveFailures: 0, lastOkAt: clock.now(), error: null });
  });

  it('is down when the instance is not connected, and unknown while pairing', () => {
    expect(healthStateOf({ instanceStatus: 'disconnected', probe: closed, consecutiveFailures: 1 })).toBe('down');
    expect(healthStateOf({ instanceStatus: 'disconnected', probe: ok, consecutiveFailures: 0 })).toBe('down');
    expect(healthStateOf({ instanceStatus: 'connecting', probe: closed, consecutiveFailures: 1 })).toBe('unknown');
    const health = nextHealth(null, ids, 'disconnected', closed, new ManualClock().now());
    expect(health).toMatchObject({ state: 'down', connected: false, responding: true, error: 'session not connected' });
  });

  it('reads unknown when never checked or when the last check is older than five minutes', () => {
    const clock = new ManualClock();
    expect(readHealthState(null, clock.now())).toBe('unknown');
    const health = nextHealth(null, ids, 'connected', ok, clock.now());
    clock.advance(5 * 60_000);
    expect(readHealthState(health, clock.now())).toBe('healthy');
    clock.advance(1);
    expect(readHealthState(health, clock.now())).toBe('unknown');
  });
});
