import type { QueueDefinition } from '@carteiro/core';
import type { Container } from 'inversify';
import type PgBoss from 'pg-boss';
import { ensureQueues } from './boss.js';

/**
 * Service identifier of the queue definitions an app's area modules bind (each binds its area's
 * list, e.g. `bind(QueueDefinitions).toConstantValue(campaignQueueDefinitions)`); a process creates
 * all of them at start, so no list of every queue lives anywhere.
 */
export const QueueDefinitions = Symbol.for('carteiro.QueueDefinitions');

/** The queues the container's modules declared, each once. */
export function declaredQueues(container: Container): QueueDefinition[] {
  const all = container.isBound(QueueDefinitions) ? container.getAll<readonly QueueDefinition[]>(QueueDefinitions).flat() : [];
  return [...new Map(all.map((q) => [q.name, q])).values()];
}

/** Creates the queues the container's modules declared (idempotent; every process calls it at start). */
export async function ensureDeclaredQueues(boss: PgBoss, container: Container): Promise<void> {
  await ensureQueues(boss, declaredQueues(container));
}
