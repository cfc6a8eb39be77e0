import {
  phoneDigits,
  type ChannelSimulatorStore,
  type SendFailureCode,
  type SimulatedMessage,
  type SimulatedMessageFilter,
  type SimulatedMessageKind,
  type SimulatedSessionEnd,
} from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { SimulatorMessagesTable } from './channel-tables.js';
import type { Database } from '../shared/database.js';
import { rowByKey } from '../shared/grouped-statements.js';
import { defaultPartitionName, dropPartitionsBefore, listPartitions } from '../shared/time-partitions.js';

/** Keys of purged simulator messages deleted per housekeeping run at most. */
export const SIMULATOR_KEYS_PURGED_PER_RUN = 50_000;

function toMessage(row: Selectable<SimulatorMessagesTable>): SimulatedMessage {
  return {
    id: row.id,
    clientMessageId: row.client_message_id,
    companyId: row.company_id,
    setorId: row.setor_id,
    instanceId: row.instance_id,
    from: row.from_number,
    to: row.to_number,
    kind: row.kind as SimulatedMessageKind,
    text: row.text,
    mediaUrl: row.media_url,
    mediaType: row.media_type,
    mediaFilename: row.media_filename,
    templateName: row.template_name,
    payload: row.payload,
    outcome: row.outcome as SimulatedMessage['outcome'],
    errorCode: row.error_code as SendFailureCode | null,
    error: row.error,
    providerFailure: row.provider_failure,
    sentAt: row.sent_at,
  };
}

type RecordedMessage = { message: SimulatedMessage; created: boolean };

function toRow(message: SimulatedMessage) {
  return {
    id: message.id,
    client_message_id: message.clientMessageId,
    company_id: message.companyId,
    setor_id: message.setorId,
    instance_id: message.instanceId,
    from_number: message.from,
    to_number: message.to,
    to_digits: phoneDigits(message.to),
    kind: message.kind,
    text: message.text,
    media_url: message.mediaUrl,
    media_type: message.mediaType,
    media_filename: message.mediaFilename,
    template_name: message.templateName,
    payload: JSON.stringify(message.payload),
    outcome: message.outcome,
    error_code: message.errorCode,
    error: message.error,
    provider_failure: message.providerFailure,
    sent_at: message.sentAt,
  };
}

/**
 * The simulator's state in PostgreSQL, shared by every API and worker process: the outbox (one row
 * per client message id, so a retried send finds the original) and the ends of simulated sessions.
 * It writes outside any use-case transaction: what the simulated channel did stays done.
 */
export class KyselyChannelSimulatorStore implements ChannelSimulatorStore {
  constructor(private readonly db: Kysely<Database>) {}

  private pending: { message: SimulatedMessage; resolve: (r: RecordedMessage) => void; reject: (e: unknown) => void }[] = [];
  private flushScheduled = false;

  /**
   * Calls made in the same turn of the event loop (the concurrent sends of many numbers) share one
   * multi-row INSERT: one round trip instead of one per simulated message.
   */
  recordMessage(message: SimulatedMessage): Promise<RecordedMessage> {
    return new Promise((resolve, reject) => {
      this.pending.push({ message, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.flushScheduled = false;
    try {
      // The key decides (the outbox is partitioned by time, so it cannot hold the uniqueness itself):
      // the first row of a client id in the batch claims the key, and only a claimed key's row is
      // stored, in the same statement, so a key never exists without its message.
      // Inside the JSON the payload stays an object: jsonb_populate_record would keep a string as a jsonb string.
      const rows = batch.map(({ message }) => ({ ...toRow(message), payload: message.payload }));
      // The statement lives in a function (0022-simulator-record), whose plan PostgreSQL keeps per session.
      const { rows: inserted } = await sql<{ client_message_id: string }>`
        SELECT client_message_id FROM carteiro_simulator_record(${JSON.stringify(rows)}::jsonb) AS t(client_message_id)
      `.execute(this.db);
      const created = new Set(inserted.map((r) => r.client_message_id));
      // The first row of a client id in the batch is the one inserted; later ones, and ids stored before, get the stored one.
      const firstInBatch = new Map<string, SimulatedMessage>();
      for (const { message } of batch) if (created.has(message.clientMessageId) && !firstInBatch.has(message.clientMessageId)) firstInBatch.set(message.clientMessageId, message);
      const stored = batch.filter(({ message }) => !created.has(message.clientMessageId)).map(({ message }) => message.clientMessageId);
      const existing = new Map<string, SimulatedMessage>();
      if (stored.length > 0) {
        const rows = await this.db
          .selectFrom('simulator_message_keys as k')
          .innerJoin('simulator_messages as m', (join) => join.onRef('m.client_message_id', '=', 'k.client_message_id').onRef('m.sent_at', '=', 'k.sent_at'))
          .selectAll('m')
          .where('k.client_message_id', 'in', [...new Set(stored)])
          .execute();
        for (const row of rows) existing.set(row.client_message_id, toMessage(row));
      }
      const handed = new Set<string>();
      for (const { message, resolve, reject } of batch) {
        const first = firstInBatch.get(message.clientMessageId);
        if (first === message && !handed.has(message.clientMessageId)) {
          handed.add(message.clientMessageId);
          resolve({ message, created: true });
        } else {
          const original = first ?? existing.get(message.clientMessageId);
          if (original) resolve({ message: original, created: false });
          else reject(new Error(`simulator message ${message.clientMessageId} vanished`));
        }
      }
    } catch (error) {
      for (const { reject } of batch) reject(error);
    }
  }

  async findByClientMessageId(clientMessageId: string): Promise<SimulatedMessage | null> {
    const row = await this.db
      .selectFrom('simulator_message_keys as k')
      .innerJoin('simulator_messages as m', (join) => join.onRef('m.client_message_id', '=', 'k.client_message_id').onRef('m.sent_at', '=', 'k.sent_at'))
      .selectAll('m')
      .where('k.client_message_id', '=', clientMessageId)
      .executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  async listMessages(filter: SimulatedMessageFilter): Promise<SimulatedMessage[]> {
    let query = this.db.selectFrom('simulator_messages').selectAll();
    if (filter.to) query = query.where('to_digits', '=', phoneDigits(filter.to));
    if (filter.setorId) query = query.where('setor_id', '=', filter.setorId);
    if (filter.companyId) query = query.where('company_id', '=', filter.companyId);
    const rows = await query.orderBy('sent_at', 'desc').orderBy('seq', 'desc').limit(filter.limit).execute();
    return rows.map(toMessage);
  }

  async recordSessionEnd(instanceId: string, end: SimulatedSessionEnd): Promise<void> {
    await this.db
      .insertInto('simulator_session_ends')
      .values({ instance_id: instanceId, ended_at: end.at, reason: end.reason })
      .onConflict((oc) =>
        oc
          .column('instance_id')
          .doUpdateSet({ ended_at: sql`excluded.ended_at`, reason: sql`excluded.reason` })
          .where('simulator_session_ends.ended_at', '<=', sql<Date>`excluded.ended_at`),
      )
      .execute();
  }

  async lastSessionEnd(instanceId: string): Promise<SimulatedSessionEnd | null> {
    // The simulator asks every few seconds for each number sending: outside a transaction those reads share a statement.
    const row = await rowByKey(this.db, 'simulator.lastSessionEnd', 'simulator_session_ends', 'instance_id', instanceId);
    return row ? { at: row.ended_at, reason: row.reason as SimulatedSessionEnd['reason'] } : null;
  }

  /**
   * Drops the day partitions that end before `before` and deletes the old rows the default
   * partition took (days that had no partition yet), and the receipts they still owed; then the keys of messages gone: those older
   * than both `before` and the oldest day still kept, so a message that is still stored keeps its key.
   */
  async purgeMessagesBefore(before: Date): Promise<number> {
    const dropped = await dropPartitionsBefore(this.db, 'simulator_messages', before);
    const result = await sql`DELETE FROM ${sql.id(defaultPartitionName('simulator_messages'))} WHERE sent_at < ${before}`.execute(this.db);
    // Receipts still owed by sends gone with their day (receipts turned off, or never settled).
    await sql`DELETE FROM simulator_receipts_owed WHERE sent_at < ${before}`.execute(this.db);
    const oldestKept = (await listPartitions(this.db, 'simulator_messages'))[0]?.from;
    const keysBefore = oldestKept && oldestKept.getTime() < before.getTime() ? oldestKept : before;
    // Bounded, so that a run stays short after a long pause (a day of keys is a few hundred thousand narrow rows); the rest goes next run.
    await sql`
      DELETE FROM simulator_message_keys WHERE client_message_id IN (
        SELECT client_message_id FROM simulator_message_keys WHERE sent_at < ${keysBefore} LIMIT ${SIMULATOR_KEYS_PURGED_PER_RUN}
      )
    `.execute(this.db);
    return dropped + Number(result.numAffectedRows ?? 0);
  }
}
