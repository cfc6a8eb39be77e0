import type { GateEntry, RequestGate } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import { toApiKey } from './kysely-api-key-repository.js';
import { toCompany } from './kysely-company-repository.js';
import type { Database } from '../shared/database.js';
import type { ApiKeysTable, CompaniesTable } from './foundation-tables.js';

type GateRow = Selectable<ApiKeysTable> & { [K in keyof CompaniesTable as `c_${K}`]: Selectable<CompaniesTable>[K] } & {
  ord: number;
  counted: boolean;
  key_total: number | null;
  company_total: number | null;
};

interface Pending {
  keyHash: string;
  now: Date;
  windowStart: Date;
  resolve(entry: GateEntry | null): void;
  reject(error: unknown): void;
}

/** Requests admitted by one statement at most. */
const MAX_BATCH = 256;

/**
 * The first trip to the database of every `/v1` request: the key by its hash, its company and the
 * two rate-limit counters, in one statement instead of three (key, company, counter upsert).
 *
 * The requests that reach the gate in the same turn of the event loop share that statement: under
 * load an API process has many requests in flight, and one round trip for all of them is what
 * keeps authentication from costing more than the route itself. Nothing is cached: each statement
 * reads the keys as they are (a revocation takes effect for every request admitted after it
 * commits) and counts in the table every process shares. Within a batch, each request gets the
 * count it would have had if the requests had arrived one by one in that order.
 *
 * Counters are the rows `KyselyRateLimiter` writes (`key:<id>`, `company:<id>`), incremented only
 * for requests whose key is active at their `now` (the condition of `isKeyActive`). Rows are
 * upserted in one order (key buckets, then company buckets, each sorted) so that concurrent
 * statements of any process take the shared company row after the key rows and never deadlock.
 */
export class KyselyRequestGate implements RequestGate {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(private readonly db: Kysely<Database>) {}

  admit(keyHash: string, now: Date, windowStart: Date): Promise<GateEntry | null> {
    return new Promise((resolve, reject) => {
      this.pending.push({ keyHash, now, windowStart, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the I/O callbacks of this turn: every request parsed in it joins the batch.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH);
      this.run(batch).then(
        (entries) => batch.forEach((p, i) => p.resolve(entries[i]!)),
        (error: unknown) => batch.forEach((p) => p.reject(error)),
      );
    }
  }

  private async run(batch: Pending[]): Promise<(GateEntry | null)[]> {
    const hashes = batch.map((p) => p.keyHash);
    const nows = batch.map((p) => p.now.toISOString());
    const windows = batch.map((p) => p.windowStart.toISOString());
    const { rows } = await sql<GateRow>`
      WITH req AS (
        SELECT r.key_hash, r.at, r.window_start, r.ord::int AS ord
        FROM unnest(${hashes}::text[], ${nows}::timestamptz[], ${windows}::timestamptz[]) WITH ORDINALITY AS r(key_hash, at, window_start, ord)
      ), k AS (
        SELECT * FROM api_keys WHERE key_hash = ANY(${hashes}::text[])
      ), admitted AS (
        SELECT req.ord, req.window_start, k.id, k.company_id,
               (k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > req.at)) AS counted
        FROM req JOIN k ON k.key_hash = req.key_hash
      ), hits AS (
        INSERT INTO rate_limit_counters AS r (bucket, window_start, count)
        SELECT b.bucket, a.window_start, count(*)::int
        FROM admitted a CROSS JOIN LATERAL (VALUES (1, 'key:' || a.id::text), (2, 'company:' || a.company_id::text)) AS b(lock_order, bucket)
        WHERE a.counted
        GROUP BY b.lock_order, b.bucket, a.window_start
        ORDER BY b.lock_order, b.bucket, a.window_start
        ON CONFLICT (bucket, window_start) DO UPDATE SET count = r.count + excluded.count
        RETURNING r.bucket, r.window_start, r.count
      )
      SELECT a.ord, a.counted, k.*,
             c.id AS c_id, c.name AS c_name, c.plan_code AS c_plan_code, c.modality AS c_modality, c.expires_at AS c_expires_at,
             c.avulso_balance AS c_avulso_balance, c.unlimited AS c_unlimited, c.bulk_messaging_enabled AS c_bulk_messaging_enabled,
             c.multi_number_enabled AS c_multi_number_enabled, c.daily_limit AS c_daily_limit,
             c.concurrent_campaigns_limit AS c_concurrent_campaigns_limit, c.company_rpm AS c_company_rpm,
             c.safe_hours_start AS c_safe_hours_start, c.safe_hours_end AS c_safe_hours_end, c.timezone AS c_timezone,
             c.default_country AS c_default_country, c.quota_overrides AS c_quota_overrides,
             c.created_at AS c_created_at, c.updated_at AS c_updated_at,
             hk.count AS key_total, hc.count AS company_total
      FROM admitted a
      JOIN k ON k.id = a.id
      JOIN companies c ON c.id = k.company_id
      LEFT JOIN hits hk ON hk.bucket = 'key:' || k.id::text AND hk.window_start = a.window_start
      LEFT JOIN hits hc ON hc.bucket = 'company:' || k.company_id::text AND hc.window_start = a.window_start
    `.execute(this.db);

    const entries: (GateEntry | null)[] = batch.map(() => null);
    // Walk the batch backwards: the last counted request of a bucket sees its total, each earlier one one less.
    const later = new Map<string, number>();
    const take = (bucket: string, windowStart: Date, total: number) => {
      const id = `${bucket}@${windowStart.getTime()}`;
      const seen = later.get(id) ?? 0;
      later.set(id, seen + 1);
      return total - seen;
    };
    for (const row of [...rows].sort((a, b) => b.ord - a.ord)) {
      const request = batch[row.ord - 1]!;
      const counted = row.counted && row.key_total !== null && row.company_total !== null;
      entries[row.ord - 1] = {
        apiKey: toApiKey(row),
        company: toCompany({
          id: row.c_id,
          name: row.c_name,
          plan_code: row.c_plan_code,
          modality: row.c_modality,
          expires_at: row.c_expires_at,
          avulso_balance: row.c_avulso_balance,
          unlimited: row.c_unlimited,
          bulk_messaging_enabled: row.c_bulk_messaging_enabled,
          multi_number_enabled: row.c_multi_number_enabled,
          daily_limit: row.c_daily_limit,
          concurrent_campaigns_limit: row.c_concurrent_campaigns_limit,
          company_rpm: row.c_company_rpm,
          safe_hours_start: row.c_safe_hours_start,
          safe_hours_end: row.c_safe_hours_end,
          timezone: row.c_timezone,
          default_country: row.c_default_country,
          quota_overrides: row.c_quota_overrides,
          created_at: row.c_created_at,
          updated_at: row.c_updated_at,
        }),
        counts: counted
          ? {
              key: take(`key:${row.id}`, request.windowStart, row.key_total!),
              company: take(`company:${row.company_id}`, request.windowStart, row.company_total!),
            }
          : null,
      };
    }
    return entries;
  }
}
