import { conversationPhoneKey } from '../index.js';
import type { ConversationWindowRepository } from '../index.js';
import type { InMemoryStore } from '../../shared/testing/in-memory-store.js';

export class InMemoryConversationWindowRepository implements ConversationWindowRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get rows() {
    return this.store.table('conversationWindows', () => new Map<string, Date>());
  }
  async recordInbound(setorId: string, phone: string, at: Date) {
    const key = `${setorId}|${conversationPhoneKey(phone)}`;
    const previous = this.rows.get(key);
    if (!previous || previous.getTime() < at.getTime()) this.rows.set(key, new Date(at));
  }
  async lastInbound(setorId: string, phone: string) {
    const found = this.rows.get(`${setorId}|${conversationPhoneKey(phone)}`);
    return found ? new Date(found) : null;
  }
}
