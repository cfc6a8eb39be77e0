import { conversationPhoneKey, type ConversationWindowRepository } from '@carteiro/core';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../shared/database.js';

/** The official 24-hour windows: one upserted row per setor and contact, keeping the latest inbound. */
export class KyselyConversationWindowRepository implements ConversationWindowRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async recordInbound(setorId: string, phone: string, at: Date): Promise<void> {
    await this.db
      .insertInto('conversation_windows')
      .values({ setor_id: setorId, phone_key: conversationPhoneKey(phone), last_inbound_at: at })
      .onConflict((oc) =>
        oc.columns(['setor_id', 'phone_key']).doUpdateSet({
          last_inbound_at: sql`greatest(conversation_windows.last_inbound_at, excluded.last_inbound_at)`,
        }),
      )
      .execute();
  }

  async lastInbound(setorId: string, phone: string): Promise<Date | null> {
    const row = await this.db
      .selectFrom('conversation_windows')
      .select('last_inbound_at')
      .where('setor_id', '=', setorId)
      .where('phone_key', '=', conversationPhoneKey(phone))
      .executeTakeFirst();
    return row?.last_inbound_at ?? null;
  }
}
