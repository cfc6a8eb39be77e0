import type { RateLimitBucket, RateLimitCount, RateLimiter } from '@carteiro/core';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema/database.js';

/** Fixed-window counters in one upsert, shared by every process on the database. */
export class KyselyRateLimiter implements RateLimiter {
  constructor(private readonly db: Kysely<Database>) {}

  async hit(buckets: readonly RateLimitBucket[], windowStart: Date): Promise<RateLimitCount[]> {
    if (buckets.length === 0) return [];
    const rows = await this.db
      .insertInto('rate_limit_counters')
      .values(buckets.map((b) => ({ bucket: b.key, window_start: windowStart, count: 1 })))
      .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql`rate_limit_counters.count + 1` }))
      .returning(['bucket', 'count'])
      .execute();
    const counts = new Map(rows.map((r) => [r.bucket, r.count]));
    return buckets.map((b) => ({ key: b.key, limit: b.limit, count: counts.get(b.key) ?? 1 }));
  }

  async purge(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('rate_limit_counters').where('window_start', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
