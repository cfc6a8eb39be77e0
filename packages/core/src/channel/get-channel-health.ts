import type { Clock } from '../shared/clock.js';
import { ValidationError } from '../shared/errors.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { HEALTH_HISTORY_MAX_MINUTES, readHealthState, type HealthCheckEntry, type HealthState } from './channel-health.js';
import type { ChannelRepositories } from './channel-repositories.js';
import type { SetorRepositories } from '../setores/index.js';

/** The specification's health item, plus the instance id and, when asked, the history. */
export interface ChannelHealthItem {
  setorId: string;
  setorNome: string;
  instanceId: string | null;
  phoneNumber: string | null;
  health: {
    state: HealthState;
    connected: boolean;
    responding: boolean;
    lastCheckedAt: Date | null;
    lastOkAt: Date | null;
    consecutiveFailures: number;
    error: string | null;
  };
  /** Checks within the window, oldest first (only with `includeHistory`). */
  history?: HealthCheckEntry[];
}

/** GET /v1/channel/instances/health: one item per setor of the company, with or without history. */
export class GetChannelHealth {
  constructor(
    private readonly repos: Repositories<ChannelRepositories & SetorRepositories>,
    private readonly clock: Clock,
  ) {}

  async execute(input: { companyId: string; includeHistory?: boolean; historyMinutes?: number }): Promise<ChannelHealthItem[]> {
    const minutes = input.historyMinutes ?? 60;
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > HEALTH_HISTORY_MAX_MINUTES) {
      throw new ValidationError('history_minutes must be an integer from 1 to 1440', { field: 'history_minutes' });
    }
    const now = this.clock.now();
    const [setores, instances, healths] = await Promise.all([
      this.repos.setores.allOfCompany(input.companyId),
      this.repos.channelInstances.listByCompany(input.companyId),
      this.repos.channelHealth.listByCompany(input.companyId),
    ]);
    const history = input.includeHistory
      ? await this.repos.channelHealth.historyOfCompany(input.companyId, new Date(now.getTime() - minutes * 60_000))
      : [];
    return setores.map((setor) => {
      const instance = instances.find((i) => i.setorId === setor.id) ?? null;
      const health = instance ? (healths.find((h) => h.instanceId === instance.id) ?? null) : null;
      const connected = instance?.status === 'connected';
      const item: ChannelHealthItem = {
        setorId: setor.id,
        setorNome: setor.nome,
        instanceId: instance?.id ?? null,
        phoneNumber: instance?.phoneNumber ?? null,
        health: {
          state: readHealthState(health, now),
          // The instance's own status wins over a check that predates a change (a disconnect, a ban).
          connected: connected && (health?.connected ?? true),
          responding: health?.responding ?? false,
          lastCheckedAt: health?.lastCheckedAt ?? null,
          lastOkAt: health?.lastOkAt ?? null,
          consecutiveFailures: health?.consecutiveFailures ?? 0,
          error: health?.error ?? null,
        },
      };
      if (!connected && item.health.state !== 'unknown') item.health.state = 'down';
      if (input.includeHistory) item.history = instance ? history.filter((h) => h.instanceId === instance.id) : [];
      return item;
    });
  }
}
