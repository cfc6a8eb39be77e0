import type {
  ClaimedDelivery,
  DeliveryAttempt,
  DeliveryStatus,
  DeliveryStatusFilter,
  DeliveryUpdate,
  DeliveryWithAttempts,
  DomainEvent,
  EventName,
  Page,
  PageRequest,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryRepository,
  WebhookEventQueue,
  WebhookRepository,
} from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import { findCompanyRecord } from '../shared/records.js';
import { readPage } from '../shared/read-page.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import { defaultPartitionName, dropPartitionsBefore } from '../shared/time-partitions.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from './webhooks-tables.js';

/** The channel a worker LISTENs on: outbox events to fan out, deliveries queued again. */
export const WEBHOOKS_NOTIFY_CHANNEL = 'carteiro_webhooks';

function toWebhook(row: Selectable<WebhooksTable>): Webhook {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'url', 'secret', 'active', 'created_at', 'updated_at']),
    events: row.events as EventName[],
  };
}

const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

function toDelivery(row: Selectable<WebhookDeliveriesTable>): WebhookDelivery {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'webhook_id', 'callback_url', 'event_id', 'payload', 'attempts', 'round_attempts', 'last_status_code', 'last_error']),
    event: row.event as EventName,
    status: row.status as DeliveryStatus,
    nextAttemptAt: date(row.next_attempt_at),
    lockedUntil: date(row.locked_until),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    completedAt: date(row.completed_at),
  };
}

function deliveryRow(d: WebhookDelivery) {
  return {
    ...columnsOf(d, ['id', 'companyId', 'webhookId', 'callbackUrl', 'eventId', 'event', 'payload', 'status', 'attempts', 'roundAttempts', 'lastStatusCode', 'lastError']),
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    locked_until: d.lockedUntil?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
    completed_at: d.completedAt?.toISOString() ?? null,
  };
}

function toAttempt(row: Selectable<WebhookAttemptsTable>): DeliveryAttempt {
  return {
    ...fieldsOf(row, ['delivery_id', 'number', 'started_at', 'duration_ms', 'status_code', 'error']),
    result: row.result as DeliveryAttempt['result'],
  };
}

export class KyselyWebhookRepository implements WebhookRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(webhook: Webhook): Promise<void> {
    await this.db
      .insertInto('webhooks')
      .values(columnsOf(webhook, ['id', 'companyId', 'url', 'events', 'secret', 'active', 'createdAt', 'updatedAt']))
      .execute();
  }

  async update(webhook: Webhook): Promise<void> {
    await this.db
      .updateTable('webhooks')
      .set({ url: webhook.url, events: webhook.events, active: webhook.active, secret: webhook.secret, updated_at: webhook.updatedAt })
      .where('id', '=', webhook.id)
      .execute();
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('webhooks').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async findByIdInCompany(companyId: string, id: string): Promise<Webhook | null> {
    return findCompanyRecord(this.db, 'webhooks', companyId, id, toWebhook);
  }

  async findByIdInCompanyForUpdate(companyId: string, id: string): Promise<Webhook | null> {
    return findCompanyRecord(this.db, 'webhooks', companyId, id, toWebhook, 'forUpdate');
  }

  async listByCompany(companyId: string, page: PageRequest): Promise<Page<Webhook>> {
    const webhooks = this.db.selectFrom('webhooks').where('company_id', '=', companyId);
    return readPage(webhooks, (q) => q.selectAll().orderBy('created_at').orderBy('id'), page, (rows) => rows.map(toWebhook));
  }

  async activeOfCompanies(companyIds: readonly string[]): Promise<Webhook[]> {
    if (companyIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('company_id', 'in', [...companyIds])
      .where('active', '=', true)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toWebhook);
  }
}

type ClaimRow = Selectable<WebhookDeliveriesTable> & { target_url: string | null; target_secret: string | null; target_active: boolean | null };

export class KyselyWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertMany(deliveries: readonly WebhookDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    // One parameter for the whole batch: a fan-out of thousands of deliveries stays one statement.
    await sql`
      INSERT INTO webhook_deliveries
      SELECT * FROM jsonb_populate_recordset(NULL::webhook_deliveries, ${JSON.stringify(deliveries.map(deliveryRow))}::jsonb)
    `.execute(this.db);
  }

  async claimDue(now: Date, limit: number, lockedUntil: Date): Promise<ClaimedDelivery[]> {
    const result = await sql<ClaimRow>`
      WITH due AS (
        SELECT id, created_at FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= ${now}
          AND (locked_until IS NULL OR locked_until <= ${now})
        ORDER BY next_attempt_at, id
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      ), claimed AS (
        UPDATE webhook_deliveries d SET locked_until = ${lockedUntil}
        FROM due WHERE d.id = due.id AND d.created_at = due.created_at
        RETURNING d.*
      )
      SELECT c.*, w.url AS target_url, w.secret AS target_secret, w.active AS target_active
      FROM claimed c LEFT JOIN webhooks w ON w.id = c.webhook_id
      ORDER BY c.next_attempt_at, c.id
    `.execute(this.db);
    return result.rows.map((row) => ({
      delivery: toDelivery(row),
      target:
        row.webhook_id !== null
          ? { url: row.target_url ?? '', secret: row.target_secret, active: row.target_active ?? false }
          : { url: row.callback_url ?? '', secret: null, active: true },
    }));
  }

  async saveAttempts(updates: readonly DeliveryUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    // `expected_attempts` guards against a worker whose lease ran out and was taken over: its
    // late outcome no longer matches the row and is dropped.
    const rows = updates.map(({ delivery, attempt }) => ({ ...deliveryRow(delivery), expected_attempts: attempt ? delivery.attempts - 1 : delivery.attempts }));
    const attempts = updates.flatMap(({ delivery, attempt }) =>
      attempt
        ? [
            {
              delivery_id: attempt.deliveryId,
              delivery_created_at: delivery.createdAt.toISOString(),
              number: attempt.number,
              started_at: attempt.startedAt.toISOString(),
              duration_ms: attempt.durationMs,
              status_code: attempt.statusCode,
              error: attempt.error,
              result: attempt.result,
            },
          ]
        : [],
    );
    await sql`
      WITH v AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(
          id uuid, created_at timestamptz, status text, attempts integer, round_attempts integer, next_attempt_at timestamptz,
          locked_until timestamptz, last_status_code integer, last_error text, updated_at timestamptz,
          completed_at timestamptz, expected_attempts integer)
      )
      UPDATE webhook_deliveries d SET
        status = v.status, attempts = v.attempts, round_attempts = v.round_attempts,
        next_attempt_at = v.next_attempt_at, locked_until = v.locked_until,
        last_status_code = v.last_status_code, last_error = v.last_error,
        updated_at = v.updated_at, completed_at = v.completed_at
      FROM v WHERE d.id = v.id AND d.created_at = v.created_at AND d.attempts = v.expected_attempts
    `.execute(this.db);
    if (attempts.length === 0) return;
    await sql`
      INSERT INTO webhook_attempts (delivery_id, delivery_created_at, number, started_at, duration_ms, status_code, error, result)
      SELECT a.delivery_id, a.delivery_created_at, a.number, a.started_at, a.duration_ms, a.status_code, a.error, a.result
      FROM jsonb_populate_recordset(NULL::webhook_attempts, ${JSON.stringify(attempts)}::jsonb) a
      WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id AND d.created_at = a.delivery_created_at)
      ON CONFLICT DO NOTHING
    `.execute(this.db);
  }

  async update(delivery: WebhookDelivery): Promise<void> {
    const { id, created_at: _createdAt, ...rest } = deliveryRow(delivery);
    await this.db.updateTable('webhook_deliveries').set(rest).where('id', '=', id).where('created_at', '=', delivery.createdAt).execute();
    // Wakes a listening worker: a redelivery is due now.
    if (delivery.status === 'pending') await sql`SELECT pg_notify(${WEBHOOKS_NOTIFY_CHANNEL}, 'deliveries')`.execute(this.db);
  }

  private async withAttempts(rows: Selectable<WebhookDeliveriesTable>[]): Promise<DeliveryWithAttempts[]> {
    if (rows.length === 0) return [];
    const attempts = await this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where(
        'delivery_id',
        'in',
        rows.map((r) => r.id),
      )
      // The creation times of these deliveries: only their partitions are read.
      .where(
        'delivery_created_at',
        'in',
        rows.map((r) => r.created_at),
      )
      .orderBy('delivery_id')
      .orderBy('number')
      .execute();
    const byDelivery = new Map<string, DeliveryAttempt[]>();
    for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), toAttempt(a)]);
    return rows.map((r) => ({ ...toDelivery(r), attemptLog: byDelivery.get(r.id) ?? [] }));
  }

  async findInWebhook(companyId: string, webhookId: string, id: string): Promise<DeliveryWithAttempts | null> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .where('webhook_id', '=', webhookId)
      .executeTakeFirst();
    return row ? ((await this.withAttempts([row]))[0] ?? null) : null;
  }

  async listByWebhook(companyId: string, webhookId: string, page: PageRequest, status?: DeliveryStatusFilter): Promise<Page<DeliveryWithAttempts>> {
    let query = this.db.selectFrom('webhook_deliveries').where('company_id', '=', companyId).where('webhook_id', '=', webhookId);
    if (status) query = query.where('status', '=', status);
    return readPage(query, (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), page, (rows) => this.withAttempts(rows));
  }

  async nextWakeUp(now: Date): Promise<Date | null> {
    const result = await sql<{ at: Date | null }>`
      SELECT min(GREATEST(next_attempt_at, CASE WHEN locked_until > ${now} THEN locked_until END)) AS at
      FROM webhook_deliveries WHERE status = 'pending'
    `.execute(this.db);
    return date(result.rows[0]?.at ?? null);
  }

  /**
   * Drops the weekly partitions (deliveries and their attempts) created before `before`: retention
   * counts from a delivery's creation, and a week stays while one of its deliveries is pending (a
   * redelivery). Then deletes the finished deliveries completed before `before` that the default
   * partition took (weeks that had no partition yet), with their attempts.
   */
  async purgeFinishedBefore(before: Date): Promise<number> {
    const dropped = await dropPartitionsBefore(this.db, 'webhook_deliveries', before, {
      siblings: ['webhook_attempts'],
      keepIf: (partition) => sql`SELECT 1 FROM ${sql.id(partition.name)} WHERE status = 'pending' LIMIT 1`,
    });
    const result = await sql<{ n: number }>`
      WITH gone AS (
        DELETE FROM ${sql.id(defaultPartitionName('webhook_deliveries'))}
        WHERE status <> 'pending' AND completed_at < ${before}
        RETURNING id, created_at
      ), attempts AS (
        DELETE FROM webhook_attempts a USING gone WHERE a.delivery_id = gone.id AND a.delivery_created_at = gone.created_at
      )
      SELECT count(*)::int AS n FROM gone
    `.execute(this.db);
    return dropped + Number(result.rows[0]?.n ?? 0);
  }
}

type EventRow = Omit<Selectable<Database['domain_events']>, 'data' | 'actor'> & { data: Record<string, unknown>; actor: DomainEvent['actor'] };

export class KyselyWebhookEventQueue implements WebhookEventQueue {
  constructor(private readonly db: Kysely<Database>) {}

  async take(limit: number): Promise<DomainEvent[]> {
    const result = await sql<EventRow>`
      WITH taken AS (
        DELETE FROM webhook_event_queue
        WHERE seq IN (SELECT seq FROM webhook_event_queue ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING seq, occurred_at
      )
      SELECT e.* FROM domain_events e JOIN taken t ON t.seq = e.seq AND t.occurred_at = e.occurred_at ORDER BY e.seq
    `.execute(this.db);
    return result.rows.map((row) => {
      const event: DomainEvent = {
        id: row.id,
        event: row.event as EventName,
        companyId: row.company_id,
        setorId: row.setor_id,
        occurredAt: new Date(row.occurred_at),
        data: row.data,
        actor: row.actor,
      };
      if (row.callback_url !== null) event.callbackUrl = row.callback_url;
      return event;
    });
  }
}
