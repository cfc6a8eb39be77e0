import { sql, type Kysely } from 'kysely';
import {
  instanceIdOfQrName,
  type DueSimulatedReceipt,
  type MessageReceiptRepository,
  type ProviderAccountRepository,
  type ReceiptLookup,
  type ReceiptRepositories,
  type ReceiptTarget,
  type SimulatorReceiptRepository,
} from '@carteiro/core';
import type { Database } from '../shared/database.js';

interface MessageRow {
  id: string;
  company_id: string;
  setor_id: string;
  conversation_id: string;
  ticket_id: string | null;
  phone: string;
  provider_message_id: string | null;
  status: string;
  delivered_at: Date | null;
  read_at: Date | null;
}

interface CampaignMessageRow {
  id: string;
  company_id: string;
  campaign_id: string;
  setor_id: string;
  phone: string;
  provider_message_id: string | null;
  status: string;
  delivered_at: Date | null;
  read_at: Date | null;
}

function messageState(status: string): ReceiptTarget['status'] {
  if (status === 'sent' || status === 'delivered' || status === 'read') return 'sent';
  return status === 'failed' ? 'failed' : 'pending';
}

function messageTarget(m: MessageRow): ReceiptTarget {
  return {
    kind: 'message',
    id: m.id,
    companyId: m.company_id,
    setorId: m.setor_id,
    campaignId: null,
    conversationId: m.conversation_id,
    ticketId: m.ticket_id,
    phone: m.phone,
    providerMessageId: m.provider_message_id,
    status: messageState(m.status),
    deliveredAt: m.delivered_at,
    readAt: m.read_at,
  };
}

function campaignMessageTarget(c: CampaignMessageRow): ReceiptTarget {
  return {
    kind: 'campaign_message',
    id: c.id,
    companyId: c.company_id,
    setorId: c.setor_id,
    campaignId: c.campaign_id,
    conversationId: null,
    ticketId: null,
    phone: c.phone,
    providerMessageId: c.provider_message_id,
    status: c.status === 'enviado' ? 'sent' : c.status === 'falha' ? 'failed' : 'pending',
    deliveredAt: c.delivered_at,
    readAt: c.read_at,
  };
}

/**
 * Receipts over `messages` (outbound single sends) and `campaign_messages`, in plain SQL: a
 * provider id is looked up in single sends first (the partial index of outbound provider ids),
 * then in campaign messages; the row is locked for the rest of the transaction.
 */
export class KyselyMessageReceiptRepository implements MessageReceiptRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findForUpdate(lookup: ReceiptLookup): Promise<ReceiptTarget | null> {
    const byId = 'messageId' in lookup;
    const setorId = byId ? null : (lookup.setorId ?? null);
    const message = byId
      ? await sql<MessageRow>`
          SELECT id, company_id, setor_id, conversation_id, ticket_id, phone, provider_message_id, status, delivered_at, read_at
          FROM messages WHERE id = ${lookup.messageId}::uuid AND direction = 'outbound' AND type = 'message' FOR UPDATE`.execute(this.db)
      : await sql<MessageRow>`
          SELECT id, company_id, setor_id, conversation_id, ticket_id, phone, provider_message_id, status, delivered_at, read_at
          FROM messages
          WHERE provider_message_id = ${lookup.providerMessageId} AND direction = 'outbound'
            AND (${setorId}::uuid IS NULL OR setor_id = ${setorId}::uuid)
          ORDER BY created_at LIMIT 1 FOR UPDATE`.execute(this.db);
    const m = message.rows[0];
    if (m) return messageTarget(m);
    const campaign = byId
      ? await sql<CampaignMessageRow>`
          SELECT id, company_id, campaign_id, coalesce(actual_setor_id, setor_id) AS setor_id, phone, provider_message_id, status, delivered_at, read_at
          FROM campaign_messages WHERE id = ${lookup.messageId}::uuid FOR UPDATE`.execute(this.db)
      : await sql<CampaignMessageRow>`
          SELECT id, company_id, campaign_id, coalesce(actual_setor_id, setor_id) AS setor_id, phone, provider_message_id, status, delivered_at, read_at
          FROM campaign_messages
          WHERE provider_message_id = ${lookup.providerMessageId}
            AND (${setorId}::uuid IS NULL OR coalesce(actual_setor_id, setor_id) = ${setorId}::uuid)
          LIMIT 1 FOR UPDATE`.execute(this.db);
    const c = campaign.rows[0];
    return c ? campaignMessageTarget(c) : null;
  }

  /**
   * Provider-id lookups in two statements whatever their number (single sends first, then campaign messages for
   * the rest), each row found as `findForUpdate` finds it and locked; lookups by id go one by one (the operator's
   * route names one message at a time).
   */
  async findManyForUpdate(lookups: readonly ReceiptLookup[]): Promise<(ReceiptTarget | null)[]> {
    const answers: (ReceiptTarget | null)[] = lookups.map(() => null);
    const byProvider: { index: number; providerMessageId: string; setorId: string | null }[] = [];
    for (const [index, lookup] of lookups.entries()) {
      if ('messageId' in lookup) answers[index] = await this.findForUpdate(lookup);
      else byProvider.push({ index, providerMessageId: lookup.providerMessageId, setorId: lookup.setorId ?? null });
    }
    if (byProvider.length === 0) return answers;
    const pids = byProvider.map((l) => l.providerMessageId);
    const setores = byProvider.map((l) => l.setorId);
    const singles = await sql<MessageRow & { ord: string }>`
      SELECT l.ord, m.* FROM unnest(${pids}::text[], ${setores}::uuid[]) WITH ORDINALITY AS l(pid, setor, ord)
      CROSS JOIN LATERAL (
        SELECT id, company_id, setor_id, conversation_id, ticket_id, phone, provider_message_id, status, delivered_at, read_at
        FROM messages
        WHERE provider_message_id = l.pid AND direction = 'outbound' AND (l.setor IS NULL OR setor_id = l.setor)
        ORDER BY created_at LIMIT 1 FOR UPDATE
      ) m`.execute(this.db);
    for (const row of singles.rows) answers[byProvider[Number(row.ord) - 1]!.index] = messageTarget(row);
    const rest = byProvider.filter((l) => answers[l.index] === null);
    if (rest.length === 0) return answers;
    const campaign = await sql<CampaignMessageRow & { ord: string }>`
      SELECT l.ord, c.* FROM unnest(${rest.map((l) => l.providerMessageId)}::text[], ${rest.map((l) => l.setorId)}::uuid[]) WITH ORDINALITY AS l(pid, setor, ord)
      CROSS JOIN LATERAL (
        SELECT id, company_id, campaign_id, coalesce(actual_setor_id, setor_id) AS setor_id, phone, provider_message_id, status, delivered_at, read_at
        FROM campaign_messages
        WHERE provider_message_id = l.pid AND (l.setor IS NULL OR coalesce(actual_setor_id, setor_id) = l.setor)
        LIMIT 1 FOR UPDATE
      ) c`.execute(this.db);
    for (const row of campaign.rows) answers[rest[Number(row.ord) - 1]!.index] = campaignMessageTarget(row);
    return answers;
  }

  /** One statement per kind of message. */
  async saveMany(targets: readonly ReceiptTarget[]): Promise<void> {
    const singles = targets.filter((t) => t.kind === 'message');
    const campaign = targets.filter((t) => t.kind === 'campaign_message');
    if (singles.length > 0) {
      await sql`
        UPDATE messages m SET delivered_at = u.delivered_at, read_at = u.read_at,
          status = CASE WHEN m.status IN ('sent', 'delivered', 'read')
                        THEN (CASE WHEN u.read_at IS NOT NULL THEN 'read' WHEN u.delivered_at IS NOT NULL THEN 'delivered' ELSE m.status END)
                        ELSE m.status END
        FROM unnest(${singles.map((t) => t.id)}::uuid[], ${singles.map((t) => t.deliveredAt)}::timestamptz[], ${singles.map((t) => t.readAt)}::timestamptz[])
          AS u(id, delivered_at, read_at)
        WHERE m.id = u.id`.execute(this.db);
    }
    if (campaign.length > 0) {
      await sql`
        UPDATE campaign_messages c SET delivered_at = u.delivered_at, read_at = u.read_at
        FROM unnest(${campaign.map((t) => t.id)}::uuid[], ${campaign.map((t) => t.deliveredAt)}::timestamptz[], ${campaign.map((t) => t.readAt)}::timestamptz[])
          AS u(id, delivered_at, read_at)
        WHERE c.id = u.id`.execute(this.db);
    }
  }

  async save(target: ReceiptTarget): Promise<void> {
    if (target.kind === 'message') {
      await sql`
        UPDATE messages SET delivered_at = ${target.deliveredAt}, read_at = ${target.readAt},
          status = CASE WHEN status IN ('sent', 'delivered', 'read')
                        THEN (CASE WHEN ${target.readAt}::timestamptz IS NOT NULL THEN 'read' WHEN ${target.deliveredAt}::timestamptz IS NOT NULL THEN 'delivered' ELSE status END)
                        ELSE status END
        WHERE id = ${target.id}::uuid`.execute(this.db);
      return;
    }
    await sql`UPDATE campaign_messages SET delivered_at = ${target.deliveredAt}, read_at = ${target.readAt} WHERE id = ${target.id}::uuid`.execute(this.db);
  }
}

/** The simulator's owed delivery receipts (`simulator_receipts_owed`, 0026), claimed with SKIP LOCKED. */
export class KyselySimulatorReceiptRepository implements SimulatorReceiptRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async claimDue(sentBefore: Date, limit: number): Promise<DueSimulatedReceipt[]> {
    const { rows } = await sql<{ id: string; setor_id: string; sent_at: Date }>`
      SELECT id, setor_id, sent_at FROM simulator_receipts_owed
      WHERE sent_at <= ${sentBefore}
      ORDER BY sent_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`.execute(this.db);
    return rows.map((r) => ({ id: r.id, setorId: r.setor_id, sentAt: new Date(r.sent_at) }));
  }

  /** By the key (send time, id); the send time as the sweep read it, to the millisecond, so a range of one millisecond. */
  async markDone(receipts: readonly Pick<DueSimulatedReceipt, 'id' | 'sentAt'>[]): Promise<void> {
    if (receipts.length === 0) return;
    await sql`
      DELETE FROM simulator_receipts_owed o
      USING unnest(${receipts.map((r) => r.id)}::uuid[], ${receipts.map((r) => r.sentAt.toISOString())}::timestamptz[]) AS d(id, sent_at)
      WHERE o.sent_at >= d.sent_at AND o.sent_at < d.sent_at + interval '1 millisecond' AND o.id = d.id`.execute(this.db);
  }
}

/** Boxes by their QR-provider instance (id in the name, or provider reference) or official `phone_number_id`. */
export class KyselyProviderAccountRepository implements ProviderAccountRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async setorOfQrInstance(instanceName: string) {
    const id = instanceIdOfQrName(instanceName);
    const { rows } = await sql<{ setor_id: string; company_id: string }>`
      SELECT setor_id, company_id FROM channel_instances
      WHERE ${id}::uuid IS NOT NULL AND id = ${id}::uuid OR provider_ref = ${instanceName}
      LIMIT 1`.execute(this.db);
    return rows[0] ? { setorId: rows[0].setor_id, companyId: rows[0].company_id } : null;
  }

  async setorOfOfficialNumber(phoneNumberId: string) {
    const { rows } = await sql<{ id: string; company_id: string }>`
      SELECT id, company_id FROM setores WHERE channel_type = 'official' AND official->>'phoneNumberId' = ${phoneNumberId}
      ORDER BY created_at LIMIT 1`.execute(this.db);
    return rows[0] ? { setorId: rows[0].id, companyId: rows[0].company_id } : null;
  }
}

export function kyselyReceiptRepositories(db: Kysely<Database>): ReceiptRepositories {
  return {
    messageReceipts: new KyselyMessageReceiptRepository(db),
    simulatorReceipts: new KyselySimulatorReceiptRepository(db),
    providerAccounts: new KyselyProviderAccountRepository(db),
  };
}
