import type { InstanceStatus } from './channel-instance.js';
import type { HealthProbe } from './channel-gateway.js';

/** The specification's health states. Rules: `docs/channel.md` and `healthStateOf`. */
export type HealthState = 'healthy' | 'degraded' | 'down' | 'unknown';

/** After this many failed checks in a row a connected setor is `down` rather than `degraded`. */
export const DOWN_AFTER_FAILURES = 3;
/** A check older than this no longer tells anything: the setor reads `unknown` (the job is not running). */
export const HEALTH_STALE_AFTER_MS = 5 * 60_000;
/** The longest history a client may ask for (`history_minutes` 1-1440). */
export const HEALTH_HISTORY_MAX_MINUTES = 1440;

/** The last known health of one setor's instance, updated by every check. */
export interface InstanceHealth {
  instanceId: string;
  companyId: string;
  setorId: string;
  /** The state computed at the last check (reads may turn it `unknown` when stale). */
  state: HealthState;
  connected: boolean;
  /** The provider answered the last probe. */
  responding: boolean;
  lastCheckedAt: Date;
  lastOkAt: Date | null;
  consecutiveFailures: number;
  error: string | null;
}

/** One check, kept for the history window. */
export interface HealthCheckEntry {
  instanceId: string;
  companyId: string;
  setorId: string;
  checkedAt: Date;
  state: HealthState;
  connected: boolean;
  responding: boolean;
  error: string | null;
}

/**
 * The health state from one observation:
 * - `healthy`: the provider answered and the session is connected;
 * - `degraded`: the instance is connected but the last 1-2 checks failed (no answer, or not connected yet
 *   not confirmed lost): sends may fail;
 * - `down`: the instance is not connected, or 3+ checks in a row failed;
 * - `unknown`: never checked, a check older than 5 minutes, or a session still pairing (`connecting`).
 */
export function healthStateOf(input: {
  instanceStatus: InstanceStatus;
  probe: HealthProbe;
  consecutiveFailures: number;
}): HealthState {
  if (input.probe.responding && input.probe.connected && input.instanceStatus === 'connected') return 'healthy';
  if (input.instanceStatus === 'connecting') return 'unknown';
  if (input.instanceStatus !== 'connected') return 'down';
  return input.consecutiveFailures >= DOWN_AFTER_FAILURES ? 'down' : 'degraded';
}

/**
 * The health after one check. `instanceStatus` is the instance's status after the check reconciled it
 * (a provider that says "closed" has already moved the instance to disconnected).
 */
export function nextHealth(
  previous: InstanceHealth | null,
  ids: { instanceId: string; companyId: string; setorId: string },
  instanceStatus: InstanceStatus,
  probe: HealthProbe,
  now: Date,
): InstanceHealth {
  const ok = probe.responding && probe.connected && instanceStatus === 'connected';
  const consecutiveFailures = ok ? 0 : (previous?.consecutiveFailures ?? 0) + 1;
  return {
    ...ids,
    state: healthStateOf({ instanceStatus, probe, consecutiveFailures }),
    connected: probe.connected && instanceStatus === 'connected',
    responding: probe.responding,
    lastCheckedAt: now,
    lastOkAt: ok ? now : (previous?.lastOkAt ?? null),
    consecutiveFailures,
    error: ok ? null : (probe.error ?? (probe.responding ? 'session not connected' : 'provider did not answer')),
  };
}

/** The state a read reports: the stored one, or `unknown` when there is none or it is stale. */
export function readHealthState(health: InstanceHealth | null, now: Date): HealthState {
  if (!health) return 'unknown';
  if (now.getTime() - health.lastCheckedAt.getTime() > HEALTH_STALE_AFTER_MS) return 'unknown';
  return health.state;
}

export function historyEntryOf(health: InstanceHealth): HealthCheckEntry {
  return {
    instanceId: health.instanceId,
    companyId: health.companyId,
    setorId: health.setorId,
    checkedAt: health.lastCheckedAt,
    state: health.state,
    connected: health.connected,
    responding: health.responding,
    error: health.error,
  };
}
