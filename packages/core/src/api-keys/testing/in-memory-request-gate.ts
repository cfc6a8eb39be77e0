import { isKeyActive } from '../index.js';
import type { GateEntry, RequestGate } from '../index.js';
import { rateLimitBuckets } from '../../rate-limits/index.js';
import type { RateLimiter } from '../../rate-limits/index.js';
import type { InMemoryStore } from '../../shared/testing/in-memory-store.js';
import '../../companies/testing/index.js'; // store.companies
import './in-memory-api-key-repositories.js'; // store.apiKeys, store.rateLimits

const counterId = (bucket: string, windowStart: Date) => `${bucket}@${windowStart.getTime()}`;

/** The fixed-window counters of the in-memory store (`store.rateLimits`), as the request gate writes them. */
export class InMemoryRateLimiter implements RateLimiter {
  constructor(private readonly store: InMemoryStore) {}

  /** The count of one bucket in the window starting at `windowStart` (0 when never counted). */
  async count(bucket: string, windowStart: Date): Promise<number> {
    return this.store.rateLimits.get(counterId(bucket, windowStart)) ?? 0;
  }

  async purge(before: Date): Promise<number> {
    let removed = 0;
    for (const id of [...this.store.rateLimits.keys()]) {
      if (Number(id.split('@')[1]) < before.getTime()) {
        this.store.rateLimits.delete(id);
        removed += 1;
      }
    }
    return removed;
  }
}

/** The request gate over the in-memory store: the counters {@link InMemoryRateLimiter} reads and purges. */
export class InMemoryRequestGate implements RequestGate {
  constructor(private readonly store: InMemoryStore) {}

  async admit(keyHash: string, now: Date, windowStart: Date): Promise<GateEntry | null> {
    const apiKey = [...this.store.apiKeys.values()].find((k) => k.keyHash === keyHash);
    const company = apiKey ? this.store.companies.get(apiKey.companyId) : undefined;
    if (!apiKey || !company) return null;
    if (!isKeyActive(apiKey, now)) return { apiKey, company, counts: null };
    const [key, companyCount] = rateLimitBuckets({ apiKey, company }).map((bucket) => {
      const id = counterId(bucket.key, windowStart);
      const count = (this.store.rateLimits.get(id) ?? 0) + 1;
      this.store.rateLimits.set(id, count);
      return count;
    });
    return { apiKey, company, counts: { key: key!, company: companyCount! } };
  }
}
