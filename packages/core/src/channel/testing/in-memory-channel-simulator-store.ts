import {
  phoneDigits,
  type ChannelSimulatorStore,
  type SimulatedMessage,
  type SimulatedMessageFilter,
  type SimulatedSessionEnd,
} from '../index.js';
import { InMemoryStore } from '../../shared/testing/in-memory-store.js';

/** The simulator's state in memory (core and adapter unit tests); PostgreSQL holds it in production. */
export class InMemoryChannelSimulatorStore implements ChannelSimulatorStore {
  constructor(private readonly store: InMemoryStore = new InMemoryStore()) {}
  private get messages() {
    return this.store.table('simulatorMessages', () => [] as SimulatedMessage[]);
  }
  private get sessionEnds() {
    return this.store.table('simulatorSessionEnds', () => new Map<string, SimulatedSessionEnd>());
  }
  async recordMessage(message: SimulatedMessage) {
    const existing = this.messages.find((m) => m.clientMessageId === message.clientMessageId);
    if (existing) return { message: structuredClone(existing), created: false };
    this.messages.push(structuredClone(message));
    return { message: structuredClone(message), created: true };
  }
  async findByClientMessageId(clientMessageId: string) {
    const found = this.messages.find((m) => m.clientMessageId === clientMessageId);
    return found ? structuredClone(found) : null;
  }
  async listMessages(filter: SimulatedMessageFilter) {
    const to = filter.to ? phoneDigits(filter.to) : null;
    return this.messages
      .map((m, index) => ({ m, index }))
      .filter(({ m }) => (!to || phoneDigits(m.to) === to) && (!filter.setorId || m.setorId === filter.setorId))
      .filter(({ m }) => !filter.companyId || m.companyId === filter.companyId)
      .sort((a, b) => b.m.sentAt.getTime() - a.m.sentAt.getTime() || b.index - a.index)
      .slice(0, filter.limit)
      .map(({ m }) => structuredClone(m));
  }
  async recordSessionEnd(instanceId: string, end: SimulatedSessionEnd) {
    const previous = this.sessionEnds.get(instanceId);
    if (!previous || previous.at.getTime() <= end.at.getTime()) this.sessionEnds.set(instanceId, structuredClone(end));
  }
  async lastSessionEnd(instanceId: string) {
    const found = this.sessionEnds.get(instanceId);
    return found ? structuredClone(found) : null;
  }
  async purgeMessagesBefore(before: Date) {
    const messages = this.messages;
    const kept = messages.filter((m) => m.sentAt >= before);
    const removed = messages.length - kept.length;
    messages.splice(0, messages.length, ...kept);
    return removed;
  }
}
