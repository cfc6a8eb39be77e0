import type { DomainEvent, EventOutbox } from '../domain-event.js';
import type { InMemoryStore } from './in-memory-store.js';

/** The kernel's outbox over the in-memory store: `store.events`, oldest first. */
export class InMemoryEventOutbox implements EventOutbox {
  constructor(private readonly store: InMemoryStore) {}
  async record(events: readonly DomainEvent[]) {
    this.store.events.push(...structuredClone(events));
  }
  async purgeBefore(before: Date) {
    // Only events the webhook fan-out already took (before its cursor) may go; the cursor moves with them.
    const position = this.store.table('webhookEventCursor', () => ({ taken: 0 }));
    const taken = this.store.events.slice(0, position.taken);
    const kept = taken.filter((e) => e.occurredAt >= before);
    const removed = taken.length - kept.length;
    this.store.events = [...kept, ...this.store.events.slice(position.taken)];
    position.taken -= removed;
    return removed;
  }
}
