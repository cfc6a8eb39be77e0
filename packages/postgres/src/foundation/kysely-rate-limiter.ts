import type { RateLimiter } from '@carteiro/core';
import type { Kysely } from 'kysely';
import type { Database } from '../shared/database.js';

/** The fixed-window counters `KyselyRequestGate` writes, shared by every process on the database. */
export class KyselyRateLimiter implements RateLimiter {
  constructor(private readonly db: Kysely<Database>) {}

  async purge(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('rate_limit_counters').where('window_start', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
