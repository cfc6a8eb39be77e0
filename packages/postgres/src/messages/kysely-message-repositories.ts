import type {
  DomainEvent,
  Conversation,
  ConversationRepository,
  InboundContactCandidate,
  InboundContactRecorded,
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
import { conversationPhoneKey, isUuid, phoneMatchKey } from '@carteiro/core';
import { toContact } from '../contacts/kysely-contact-repositories.js';
import type { ContactsTable } from '../contacts/contacts-tables.js';
import { sql, type Kysely, type Selectable } from 'kysely';

import type { Database } from '../shared/database.js';
import { findCompanyRecord } from '../shared/records.js';
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
    return findCompanyRecord(this.db, 'conversations', companyId, id, toConversation);
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

  async recordInboundContacts(candidates: readonly InboundContactCandidate[]): Promise<(InboundContactRecorded | null)[]> {
    if (candidates.length === 0) return [];
    // One statement for the group: the contacts inserted or locked (as KyselyContactRepository.insertOrLockInbound), then
    // for each the window, the affinity and the conversation's upsert (as recordInbound), all from one unnest.
    const column = <T>(pick: (c: InboundContactCandidate) => T) => candidates.map(pick);
    const lastInbound = (c: InboundContactCandidate) =>
      c.conversation.lastInboundAt && c.conversation.lastInboundAt.getTime() > c.at.getTime() ? c.conversation.lastInboundAt : c.at;
    const { rows } = await sql<Selectable<ContactsTable> & { n: string; inserted: boolean } & { [K in keyof Selectable<ConversationsTable> as `v_${K}`]: Selectable<ConversationsTable>[K] }>`
      WITH input AS (
        SELECT * FROM unnest(
          ${column((c) => c.contact.id)}::uuid[], ${column((c) => c.contact.companyId)}::uuid[], ${column((c) => c.contact.phone)}::text[],
          ${column((c) => phoneMatchKey(c.contact.phone))}::text[], ${column((c) => c.contact.name)}::text[], ${column((c) => c.contact.email)}::text[],
          ${column((c) => JSON.stringify(c.contact.customFields))}::text[], ${column((c) => c.contact.iaAtiva)}::boolean[],
          ${column((c) => c.contact.iaPausedUntil)}::timestamptz[], ${column((c) => c.contact.createdAt)}::timestamptz[],
          ${column((c) => c.contact.updatedAt)}::timestamptz[], ${column((c) => c.conversation.id)}::uuid[], ${column((c) => c.conversation.setorId)}::uuid[],
          ${column((c) => conversationPhoneKey(c.phone))}::text[], ${column((c) => c.at)}::timestamptz[], ${column(lastInbound)}::timestamptz[],
          ${column((c) => c.conversation.lastOutboundAt)}::timestamptz[], ${column((c) => c.conversation.createdAt)}::timestamptz[]
        ) WITH ORDINALITY AS i(id, company_id, phone, phone_key, name, email, custom_fields, ia_ativa, ia_paused_until, created_at, updated_at,
                               conv_id, setor_id, win_key, at, conv_last_inbound_at, conv_last_outbound_at, conv_created_at, n)
      ), ins AS (
        INSERT INTO contacts (id, company_id, phone, phone_key, name, email, custom_fields, ia_ativa, ia_paused_until, created_at, updated_at)
        SELECT id, company_id, phone, phone_key, name, email, custom_fields::jsonb, ia_ativa, ia_paused_until, created_at, updated_at FROM input ORDER BY n
        ON CONFLICT (company_id, phone_key) DO NOTHING
        RETURNING *
      ), locked AS (
        SELECT c.* FROM contacts c WHERE (c.company_id, c.phone_key) IN (SELECT company_id, phone_key FROM input) FOR UPDATE
      ), found AS (
        SELECT i.n, i.setor_id AS in_setor_id, i.win_key, i.at, i.conv_id, i.conv_last_inbound_at, i.conv_last_outbound_at, i.conv_created_at, c.*
        FROM input i
        JOIN (SELECT ins.*, true AS inserted FROM ins UNION ALL SELECT locked.*, false AS inserted FROM locked) c
          ON c.company_id = i.company_id AND c.phone_key = i.phone_key
      ), w AS (
        INSERT INTO conversation_windows (setor_id, phone_key, last_inbound_at)
        SELECT in_setor_id, win_key, at FROM found ORDER BY n
        ON CONFLICT (setor_id, phone_key) DO UPDATE SET last_inbound_at = greatest(conversation_windows.last_inbound_at, excluded.last_inbound_at)
      ), a AS (
        INSERT INTO contact_affinities (contact_id, setor_id, company_id, source, created_at)
        SELECT id, in_setor_id, company_id, 'inbound', at FROM found ORDER BY n
        ON CONFLICT (contact_id, setor_id) DO NOTHING
      ), v AS (
        INSERT INTO conversations (id, company_id, setor_id, contact_id, last_inbound_at, last_outbound_at, created_at, updated_at)
        SELECT conv_id, company_id, in_setor_id, id, conv_last_inbound_at, conv_last_outbound_at, conv_created_at, at FROM found ORDER BY n
        ON CONFLICT (setor_id, contact_id) DO UPDATE
          SET last_inbound_at = greatest(conversations.last_inbound_at, excluded.updated_at), updated_at = excluded.updated_at
        RETURNING *
      )
      SELECT f.n, f.inserted, f.id, f.company_id, f.phone, f.phone_key, f.name, f.email, f.custom_fields, f.ia_ativa, f.ia_paused_until,
             f.created_at, f.updated_at,
             v.id AS v_id, v.company_id AS v_company_id, v.setor_id AS v_setor_id, v.contact_id AS v_contact_id,
             v.last_inbound_at AS v_last_inbound_at, v.last_outbound_at AS v_last_outbound_at, v.created_at AS v_created_at, v.updated_at AS v_updated_at
      FROM found f JOIN v ON v.setor_id = f.in_setor_id AND v.contact_id = f.id`.execute(this.db);
    const byIndex = new Map(rows.map((r) => [Number(r.n), r]));
    return candidates.map((_, i) => {
      const row = byIndex.get(i + 1);
      if (!row) return null;
      return {
        contact: toContact(row),
        created: row.inserted,
        conversation: toConversation({
          id: row.v_id,
          company_id: row.v_company_id,
          setor_id: row.v_setor_id,
          contact_id: row.v_contact_id,
          last_inbound_at: row.v_last_inbound_at,
          last_outbound_at: row.v_last_outbound_at,
          created_at: row.v_created_at,
          updated_at: row.v_updated_at,
        }),
      };
    });
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

  async insertAllWithEvents(messages: readonly MessageRecord[], events: readonly DomainEvent[]): Promise<void> {
    if (messages.length === 0 && events.length === 0) return;
    // One statement of one text whatever the counts (prepared once per connection, and cheap to build): the rows travel
    // as one array per column. A multi-row VALUES made a new text of hundreds of parameters for every group size, which
    // Kysely compiled and PostgreSQL parsed and planned each time. The events are inserted in the order given (their seq).
    const rows = messages.map(toRow);
    const m = <K extends keyof ReturnType<typeof toRow>>(key: K) => rows.map((r) => r[key]);
    const e = <T>(pick: (event: DomainEvent) => T) => events.map(pick);
    await sql`
      WITH recorded AS (
        INSERT INTO domain_events (id, event, company_id, setor_id, occurred_at, data, actor, callback_url)
        SELECT id, event, company_id, setor_id, occurred_at, data::jsonb, actor::jsonb, callback_url
        FROM unnest(${e((x) => x.id)}::uuid[], ${e((x) => x.event)}::text[], ${e((x) => x.companyId)}::uuid[], ${e((x) => x.setorId)}::uuid[],
                    ${e((x) => x.occurredAt)}::timestamptz[], ${e((x) => JSON.stringify(x.data))}::text[], ${e((x) => JSON.stringify(x.actor))}::text[],
                    ${e((x) => x.callbackUrl ?? null)}::text[])
          WITH ORDINALITY AS x(id, event, company_id, setor_id, occurred_at, data, actor, callback_url, ord)
        ORDER BY ord
      )
      INSERT INTO "messages" (id, company_id, conversation_id, setor_id, contact_id, phone, sender_number, key_mode, content, parts, status,
                            provider_message_id, error_code, error, reaction, edited_at, deleted_at, sent_at, created_at, updated_at, ticket_id,
                            direction, type, author, activity, delivered_at, read_at)
      SELECT id, company_id, conversation_id, setor_id, contact_id, phone, sender_number, key_mode, content::jsonb, parts::jsonb, status,
             provider_message_id, error_code, error, reaction, edited_at, deleted_at, sent_at, created_at, updated_at, ticket_id,
             direction, type, author::jsonb, activity::jsonb, delivered_at, read_at
      FROM unnest(${m('id')}::uuid[], ${m('company_id')}::uuid[], ${m('conversation_id')}::uuid[], ${m('setor_id')}::uuid[], ${m('contact_id')}::uuid[],
                  ${m('phone')}::text[], ${m('sender_number')}::text[], ${m('key_mode')}::text[], ${m('content')}::text[], ${m('parts')}::text[],
                  ${m('status')}::text[], ${m('provider_message_id')}::text[], ${m('error_code')}::text[], ${m('error')}::text[], ${m('reaction')}::text[],
                  ${m('edited_at')}::timestamptz[], ${m('deleted_at')}::timestamptz[], ${m('sent_at')}::timestamptz[], ${m('created_at')}::timestamptz[],
                  ${m('updated_at')}::timestamptz[], ${m('ticket_id')}::uuid[], ${m('direction')}::text[], ${m('type')}::text[], ${m('author')}::text[],
                  ${m('activity')}::text[], ${m('delivered_at')}::timestamptz[], ${m('read_at')}::timestamptz[])
        AS x(id, company_id, conversation_id, setor_id, contact_id, phone, sender_number, key_mode, content, parts, status, provider_message_id,
             error_code, error, reaction, edited_at, deleted_at, sent_at, created_at, updated_at, ticket_id, direction, type, author, activity,
             delivered_at, read_at)`.execute(this.db);
  }

  async update(message: MessageRecord): Promise<void> {
    const { id, ...rest } = toRow(message);
    await this.db.updateTable('messages').set(rest).where('id', '=', id).execute();
  }

  async findById(companyId: string, id: string): Promise<MessageRecord | null> {
    if (!isUuid(id)) return null;
    return findCompanyRecord(this.db, 'messages', companyId, id, toMessage);
  }

  async findByIdForUpdate(companyId: string, id: string): Promise<MessageRecord | null> {
    if (!isUuid(id)) return null;
    return findCompanyRecord(this.db, 'messages', companyId, id, toMessage, 'forUpdate');
  }

  async findInboundByProviderIds(keys: readonly { setorId: string; providerMessageId: string }[]): Promise<MessageRecord[]> {
    if (keys.length === 0) return [];
    // The partial unique index of inbound provider ids, probed once per pair.
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('direction', '=', 'inbound')
      .where((eb) => eb.or(keys.map((k) => eb.and([eb('setor_id', '=', k.setorId), eb('provider_message_id', '=', k.providerMessageId)]))))
      .execute();
    return rows.map(toMessage);
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
