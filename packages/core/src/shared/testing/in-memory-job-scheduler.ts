import type { EnqueueOptions, JobScheduler } from '../job-scheduler.js';
import type { InMemoryStore } from './in-memory-store.js';

/** Records jobs instead of running them; tests read `store.jobs` and run handlers themselves. */
export class InMemoryJobScheduler implements JobScheduler {
  constructor(private readonly store: InMemoryStore) {}

  async enqueue(queue: string, data: Record<string, unknown>, options: EnqueueOptions = {}): Promise<string | null> {
    const singletonKey = options.singletonKey ?? null;
    if (singletonKey && this.store.jobs.some((j) => j.queue === queue && j.singletonKey === singletonKey)) return null;
    const id = `job-${this.store.jobs.length + 1}`;
    this.store.jobs.push({ id, queue, data: structuredClone(data), startAfter: options.startAfter ?? null, singletonKey });
    return id;
  }
}
