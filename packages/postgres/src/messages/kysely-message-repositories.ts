import type {
  DomainEvent,
  Conversation,
  ConversationRepository,
  KeyMode,
  MessageActivity,
  MessageAuthor,
  MessageContent,
  MessagePart,
  MessageRecord,
  MessageRepository,
  MessageStatus,
  RotationCursorRepository,
  SendFailureCode,
} from '@carteiro/core';
import { conversationPhoneKey, isUuid } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';

import type { Database } from '../shared/database.js';
import type { ConversationsTable, MessagesTable } from './messages-tables.js';
import { domainEventRow } from '../shared/kysely-event-outbox.js';

export class KyselyRotationCursorRepository implements RotationCursorRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async advance(key: string, now: Date): Promise<number> {
    const row = await this.db
      .insertInto('rotation_cursors')
      .values({ key, position: 0, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ position: sql`rotation_cursors.position + 1`, updated_at: now }))
      .returning('position')
      .executeTakeFirstOrThrow();
    return Number(row.position);
  }
}

function toConversation(row: Selectable<ConversationsTable>): Conversation {
  return {
    id: row.id,
    companyId: row.company_id,
    setorId: row.setor_id,
    contactId: row.contact_id,
    lastInboundAt: row.last_inbound_at,
    lastOutboundAt: row.last_outbound_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class KyselyConversationRepository implements ConversationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findOrCreate(candidate: Conversation): Promise<Conversation> {
    await this.db
      .insertInto('conversations')
      .values({
        id: candidate.id,
        company_id: candidate.companyId,
        setor_id: candidate.setorId,
        contact_id: candidate.contactId,
        last_inbound_at: candidate.lastInboundAt,
        last_outbound_at: candidate.lastOutboundAt,
        created_at: candidate.createdAt,
        updated_at: candidate.updatedAt,
      })
      .onConflict((oc) => oc.columns(['setor_id', 'contact_id']).doNothing())
      .execute();
    const found = await this.findBySetorAndContact(candidate.setorId, candidate.contactId);
    if (!found) throw new Error('conversation vanished while being created');
    return found;
  }

  async findById(companyId: string, id: string): Promise<Conversation | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.selectFrom('conversations').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
    return row ? toConversation(row) : null;
  }

  async findBySetorAndContact(setorId: string, contactId: string): Promise<Conversation | null> {
    const row = await this.db
      .selectFrom('conversations')
      .selectAll()
      .where('setor_id', '=', setorId)
      .where('contact_id', '=', contactId)
      .executeTakeFirst();
    return row ? toConversation(row) : null;
  }

  async touch(id: string, direction: 'inbound' | 'outbound', at: Date): Promise<void> {
    const column = direction === 'inbound' ? 'last_inbound_at' : 'last_outbound_at';
    await this.db
      .updateTable('conversations')
      .set({ [column]: sql`greatest(${sql.ref(column)}, ${at}::timestamptz)`, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async recordInbound(candidate: Conversation, phone: string, at: Date): Promise<Conversation> {
    // One statement: the window (as KyselyConversationWindowRepository.recordInbound) and the affinity (as
    // KyselyContactAffinityRepository.add) in data-modifying CTEs, and `touch` folded into the conversation's upsert
    // (a new row starts touched, an existing one is touched by the conflict update).
    const lastInbound = candidate.lastInboundAt && candidate.lastInboundAt.getTime() > at.getTime() ? candidate.lastInboundAt : at;
    const { rows } = await sql<Selectable<ConversationsTable>>`
      WITH w AS (
        INSERT INTO conversation_windows (setor_id, phone_key, last_inbound_at)
        VALUES (${candidate.setorId}, ${conversationPhoneKey(phone)}, ${at}::timestamptz)
        ON CONFLICT (setor_id, phone_key) DO UPDATE SET last_inbound_at = greatest(conversation_windows.last_inbound_at, excluded.last_inbound_at)
      ), a AS (
        INSERT INTO contact_affinities (contact_id, setor_id, company_id, source, created_at)
        VALUES (${candidate.contactId}, ${candidate.setorId}, ${candidate.companyId}, 'inbound', ${at}::timestamptz)
        ON CONFLICT (contact_id, setor_id) DO NOTHING
      )
      INSERT INTO conversations (id, company_id, setor_id, contact_id, last_inbound_at, last_outbound_at, created_at, updated_at)
      VALUES (${candidate.id}, ${candidate.companyId}, ${candidate.setorId}, ${candidate.contactId}, ${lastInbound}::timestamptz,
              ${candidate.lastOutboundAt}::timestamptz, ${candidate.createdAt}::timestamptz, ${at}::timestamptz)
      ON CONFLICT (setor_id, contact_id) DO UPDATE
        SET last_inbound_at = greatest(conversations.last_inbound_at, ${at}::timestamptz), updated_at = ${at}::timestamptz
      RETURNING *`.execute(this.db);
    return toConversation(rows[0]!);
  }
}

/** A `messages` row as the core reads it (the ticket timeline reads rows too). */
export function toMessage(row: Selectable<MessagesTable>): MessageRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    conversationId: row.conversation_id,
    setorId: row.setor_id,
    contactId: row.contact_id,
    phone: row.phone,
    senderNumber: row.sender_number,
    keyMode: row.key_mode as KeyMode,
    content: row.content as unknown as MessageContent,
    parts: row.parts as unknown as MessagePart[],
    status: row.status as MessageStatus,
    providerMessageId: row.provider_message_id,
    errorCode: row.error_code as SendFailureCode | null,
    error: row.error,
    reaction: row.reaction,
    editedAt: row.edited_at,
    deletedAt: row.deleted_at,
    sentAt: row.sent_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ticketId: row.ticket_id,
    direction: row.direction as 'inbound' | 'outbound',
    type: row.type as 'message' | 'note' | 'activity',
    author: row.author as unknown as MessageAuthor | null,
    activity: row.activity as unknown as MessageActivity | null,
    deliveredAt: row.delivered_at,
    readAt: row.read_at,
  };
}

function toRow(m: MessageRecord) {
  return {
    id: m.id,
    company_id: m.companyId,
    conversation_id: m.conversationId,
    setor_id: m.setorId,
    contact_id: m.contactId,
    phone: m.phone,
    sender_number: m.senderNumber,
    key_mode: m.keyMode,
    content: JSON.stringify(m.content),
    parts: JSON.stringify(m.parts),
    status: m.status,
    provider_message_id: m.providerMessageId,
    error_code: m.errorCode,
    error: m.error,
    reaction: m.reaction,
    edited_at: m.editedAt,
    deleted_at: m.deletedAt,
    sent_at: m.sentAt,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    ticket_id: m.ticketId ?? null,
    direction: m.direction ?? 'outbound',
    type: m.type ?? 'message',
    author: m.author ? JSON.stringify(m.author) : null,
    activity: m.activity ? JSON.stringify(m.activity) : null,
    delivered_at: m.deliveredAt ?? null,
    read_at: m.readAt ?? null,
  };
}

export class KyselyMessageRepository implements MessageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(message: MessageRecord): Promise<void> {
    await this.db.insertInto('messages').values(toRow(message)).execute();
  }

  async insertWithEvents(message: MessageRecord, events: readonly DomainEvent[]): Promise<void> {
    if (events.length === 0) return this.insert(message);
    // The events' insert (as KyselyEventOutbox.record) in a data-modifying CTE of the message's.
    await this.db
      .with('recorded', (db) => db.insertInto('domain_events').values(events.map(domainEventRow)))
      .insertInto('messages')
      .values(toRow(message))
      .execute();
  }

  async update(message: MessageRecord): Promise<void> {
    const { id, ...rest } = toRow(message);
    await this.db.updateTable('messages').set(rest).where('id', '=', id).execute();
  }

  async findById(companyId: string, id: string): Promise<MessageRecord | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.selectFrom('messages').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  async findByIdForUpdate(companyId: string, id: string): Promise<MessageRecord | null> {
    if (!isUuid(id)) return null;
    const row = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .forUpdate()
      .executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  async findInboundByProviderId(setorId: string, providerMessageId: string): Promise<MessageRecord | null> {
    // The partial unique index of inbound provider ids (0015-tickets).
    const row = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('setor_id', '=', setorId)
      .where('provider_message_id', '=', providerMessageId)
      .where('direction', '=', 'inbound')
      .executeTakeFirst();
    return row ? toMessage(row) : null;
  }
}
