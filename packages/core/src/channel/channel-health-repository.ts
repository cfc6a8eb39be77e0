import type { HealthCheckEntry, InstanceHealth } from './channel-health.js';

/** Stores the last health of each instance and the history of checks. */
export interface ChannelHealthRepository {
  /** Inserts or replaces the health of `health.instanceId`. */
  save(health: InstanceHealth): Promise<void>;
  findByInstance(instanceId: string): Promise<InstanceHealth | null>;
  listByCompany(companyId: string): Promise<InstanceHealth[]>;
  appendHistory(entry: HealthCheckEntry): Promise<void>;
  /** The company's checks at or after `since`, oldest first. */
  historyOfCompany(companyId: string, since: Date): Promise<HealthCheckEntry[]>;
  /** Drops history entries older than `before`; returns how many. */
  purgeHistory(before: Date): Promise<number>;
}
export const ChannelHealthRepository = Symbol.for('carteiro.ChannelHealthRepository');
