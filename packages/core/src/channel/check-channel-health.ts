import { InstanceUseCase } from './instance-use-case.js';
import { systemActor } from '../shared/domain-event.js';
import type { ChannelGateway, HealthProbe } from './channel-gateway.js';
import { HEALTH_HISTORY_MAX_MINUTES, historyEntryOf, nextHealth, type HealthState, type InstanceHealth } from './channel-health.js';
import type { ChannelInstance } from './channel-instance.js';
import { handleCommand } from '../shared/apply-command.js';

export interface HealthCheckSummary {
  checked: number;
  byState: Record<HealthState, number>;
  /** History entries dropped because they left the longest window. */
  purged: number;
}

/**
 * The periodic health check (a worker job): probes every instance, reconciles its status with what
 * the provider answered (a session lost at the provider becomes disconnected; a pairing that
 * completed becomes connected, with their events), and records the health and a history entry.
 * History older than 1,440 minutes is purged.
 */
export class CheckChannelHealth extends InstanceUseCase {
  async execute(): Promise<HealthCheckSummary> {
    const byState: Record<HealthState, number> = { healthy: 0, degraded: 0, down: 0, unknown: 0 };
    const instances = await this.repos.channelInstances.all();
    for (const instance of instances) {
      const health = await this.checkOne(instance);
      if (health) byState[health.state] += 1;
    }
    const purged = await this.repos.channelHealth.purgeHistory(
      new Date(this.clock.now().getTime() - HEALTH_HISTORY_MAX_MINUTES * 60_000),
    );
    return { checked: instances.length, byState, purged };
  }

  /**
   * The check a connection enqueues (`ChannelQueues.healthAtConnection`): the setor's instance, if it is
   * still the one that connected (a setor recreated meanwhile is left to the periodic check). Null when
   * there is nothing to check.
   */
  async checkAtConnection(input: { setorId: string; instanceId: string }): Promise<InstanceHealth | null> {
    const instance = await this.repos.channelInstances.findBySetor(input.setorId);
    if (!instance || instance.id !== input.instanceId) return null;
    return this.checkOne(instance);
  }

  /** Checks one instance; null when its setor no longer exists. */
  async checkOne(instance: ChannelInstance): Promise<InstanceHealth | null> {
    const setor = await this.repos.setores.findById(instance.setorId);
    if (!setor) return null;
    // The health job acts for no key: the router picks the setor's live adapter (or the simulator for
    // sessions the simulator holds).
    const target = { setor, instance, mode: 'live' as const };
    const probe = await this.safeProbe(target);
    let observed: { status: ChannelInstance['status']; phoneNumber: string | null } | null = null;
    // Ask for the full state only when the probe disagrees with the instance (a session that
    // connected meanwhile, or one lost at the provider while connected or pairing).
    const disagrees = probe.connected ? instance.status !== 'connected' : instance.status !== 'disconnected';
    if (probe.responding && disagrees) {
      observed = await this.gateway.sessionState(target).catch(() => null);
    }
    return this.uow.transaction(async (repos) => {
      let current = instance;
      if (observed) {
        const result = await handleCommand(repos, this.instanceOf(setor.id, systemActor), {
          type: 'observe-session',
          at: this.clock.now(),
          ...observed,
        });
        current = result?.state ?? current;
      }
      const previous = await repos.channelHealth.findByInstance(current.id);
      const health = nextHealth(
        previous,
        { instanceId: current.id, companyId: current.companyId, setorId: current.setorId },
        current.status,
        probe,
        this.clock.now(),
      );
      await repos.channelHealth.save(health);
      await repos.channelHealth.appendHistory(historyEntryOf(health));
      return health;
    });
  }

  private async safeProbe(target: Parameters<ChannelGateway['probe']>[0]): Promise<HealthProbe> {
    try {
      return await this.gateway.probe(target);
    } catch (error) {
      return { responding: false, connected: false, error: error instanceof Error ? error.message : String(error) };
    }
  }
}
