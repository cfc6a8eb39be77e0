import type { CampaignMessage } from '../../campaigns/index.js';
import type { ChannelInstance } from '../../channel/index.js';
import type { SimulatedMessage } from '../../channel/index.js';
import type { MessageRecord } from '../../messages/index.js';
import type { InMemoryStore } from '../../shared/testing/in-memory-store.js';
import {
  instanceIdOfQrName,
  type DueSimulatedReceipt,
  type MessageReceiptRepository,
  type ProviderAccountRepository,
  type ReceiptLookup,
  type ReceiptTarget,
  type SimulatorReceiptRepository,
} from '../message-receipt-repository.js';
import type { ReceiptRepositories } from '../receipt-repositories.js';
import '../../setores/testing/index.js'; // store.setores

/** The receipt fields a message row may carry (the tickets migration adds them to single sends). */
type WithReceipts = { deliveredAt?: Date | null; readAt?: Date | null; ticketId?: string | null; direction?: string };

function messageState(status: string): ReceiptTarget['status'] {
  if (status === 'sent' || status === 'delivered' || status === 'read') return 'sent';
  return status === 'failed' ? 'failed' : 'pending';
}

function campaignState(status: CampaignMessage['status']): ReceiptTarget['status'] {
  if (status === 'enviado') return 'sent';
  return status === 'falha' ? 'failed' : 'pending';
}

/** Single sends and campaign messages of the in-memory store, by provider id or by id. */
export class InMemoryMessageReceiptRepository implements MessageReceiptRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get messages() {
    return this.store.table('messages', () => new Map<string, MessageRecord & WithReceipts>());
  }
  private get campaignMessages() {
    return this.store.table('campaignMessages', () => new Map<string, CampaignMessage & WithReceipts>());
  }

  async findForUpdate(lookup: ReceiptLookup): Promise<ReceiptTarget | null> {
    // Sent messages only: inbound ones and a ticket's notes and activities are never sent.
    const outbound = (m: MessageRecord & WithReceipts) => (m.direction ?? 'outbound') === 'outbound' && (m.type ?? 'message') === 'message';
    const message =
      'messageId' in lookup
        ? [...this.messages.values()].find((m) => m.id === lookup.messageId && outbound(m))
        : [...this.messages.values()].find(
            (m) => outbound(m) && m.providerMessageId === lookup.providerMessageId && (!lookup.setorId || m.setorId === lookup.setorId),
          );
    if (message) {
      return {
        kind: 'message',
        id: message.id,
        companyId: message.companyId,
        setorId: message.setorId,
        campaignId: null,
        conversationId: message.conversationId,
        ticketId: message.ticketId ?? null,
        phone: message.phone,
        providerMessageId: message.providerMessageId,
        status: messageState(message.status),
        deliveredAt: message.deliveredAt ?? null,
        readAt: message.readAt ?? null,
      };
    }
    const campaign =
      'messageId' in lookup
        ? this.campaignMessages.get(lookup.messageId)
        : [...this.campaignMessages.values()].find(
            (m) => m.providerMessageId === lookup.providerMessageId && (!lookup.setorId || (m.actualSetorId ?? m.setorId) === lookup.setorId),
          );
    if (!campaign) return null;
    return {
      kind: 'campaign_message',
      id: campaign.id,
      companyId: campaign.companyId,
      setorId: campaign.actualSetorId ?? campaign.setorId,
      campaignId: campaign.campaignId,
      conversationId: null,
      ticketId: null,
      phone: campaign.phone,
      providerMessageId: campaign.providerMessageId,
      status: campaignState(campaign.status),
      deliveredAt: campaign.deliveredAt ?? null,
      readAt: campaign.readAt ?? null,
    };
  }

  async findManyForUpdate(lookups: readonly ReceiptLookup[]): Promise<(ReceiptTarget | null)[]> {
    const found: (ReceiptTarget | null)[] = [];
    for (const lookup of lookups) found.push(await this.findForUpdate(lookup));
    return found;
  }

  async saveMany(targets: readonly ReceiptTarget[]): Promise<void> {
    for (const target of targets) await this.save(target);
  }

  async save(target: ReceiptTarget): Promise<void> {
    if (target.kind === 'message') {
      const row = this.messages.get(target.id);
      if (!row) return;
      row.deliveredAt = target.deliveredAt;
      row.readAt = target.readAt;
      if (row.status !== 'failed') row.status = (target.readAt ? 'read' : target.deliveredAt ? 'delivered' : row.status) as MessageRecord['status'];
      return;
    }
    const row = this.campaignMessages.get(target.id);
    if (!row) return;
    row.deliveredAt = target.deliveredAt;
    row.readAt = target.readAt;
  }
}

/** The in-memory simulator outbox's pending receipts: sends not yet marked done. */
export class InMemorySimulatorReceiptRepository implements SimulatorReceiptRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get done() {
    return this.store.table('simulatorReceiptsDone', () => new Set<string>());
  }
  private get outbox() {
    return this.store.table('simulatorMessages', () => [] as SimulatedMessage[]);
  }
  async claimDue(sentBefore: Date, limit: number): Promise<DueSimulatedReceipt[]> {
    return this.outbox
      .filter((m) => m.outcome === 'sent' && m.payload.operation === undefined && !this.done.has(m.id) && m.sentAt.getTime() <= sentBefore.getTime())
      .sort((a, b) => a.sentAt.getTime() - b.sentAt.getTime())
      .slice(0, limit)
      .map((m) => ({ id: m.id, setorId: m.setorId, sentAt: m.sentAt }));
  }
  async markDone(receipts: readonly Pick<DueSimulatedReceipt, 'id' | 'sentAt'>[]): Promise<void> {
    for (const { id } of receipts) this.done.add(id);
  }
}

/** Boxes by their QR-provider instance or official phone number id. */
export class InMemoryProviderAccountRepository implements ProviderAccountRepository {
  constructor(private readonly store: InMemoryStore) {}
  async setorOfQrInstance(instanceName: string) {
    const instances = this.store.table('channelInstances', () => new Map<string, ChannelInstance>());
    const id = instanceIdOfQrName(instanceName);
    const found = [...instances.values()].find((i) => i.id === id || i.providerRef === instanceName);
    return found ? { setorId: found.setorId, companyId: found.companyId } : null;
  }
  async setorOfOfficialNumber(phoneNumberId: string) {
    const found = [...this.store.setores.values()].find((s) => s.channelType === 'official' && s.official?.phoneNumberId === phoneNumberId);
    return found ? { setorId: found.id, companyId: found.companyId } : null;
  }
}

export function inMemoryReceiptRepositories(store: InMemoryStore): ReceiptRepositories {
  return {
    messageReceipts: new InMemoryMessageReceiptRepository(store),
    simulatorReceipts: new InMemorySimulatorReceiptRepository(store),
    providerAccounts: new InMemoryProviderAccountRepository(store),
  };
}
