import type { Campaign, CampaignStatus, CampaignTotals } from '../index.js';
import { isTerminal, unsettledCount } from '../index.js';
import type { CampaignMessage, CampaignMessageStatus, SkipReason } from '../index.js';
import { publicMessageStatus } from '../index.js';
import type { CampaignRepository, MessageChange, MessageFilter, Reassignment } from '../index.js';
import type { DispatchLane, DispatchLaneRepository } from '../index.js';
import type { IdempotencyRecord, IdempotencyRepository } from '../index.js';
import type { SendFailureCode } from '../../channel/index.js';
import type { PageRequest } from '../../shared/pagination.js';
import { paginate, type InMemoryStore } from '../../shared/testing/in-memory-store.js';
import type { CampaignRepositories } from '../campaign-repositories.js';

const clone = <T>(v: T): T => structuredClone(v);

function campaignsOf(store: InMemoryStore) {
  return store.table('campaigns', () => new Map<string, Campaign>());
}
function messagesOf(store: InMemoryStore) {
  return store.table('campaignMessages', () => new Map<string, CampaignMessage>());
}
function lanesOf(store: InMemoryStore) {
  return store.table('dispatchLanes', () => new Map<string, DispatchLane>());
}

const bySeq = (a: CampaignMessage, b: CampaignMessage) => a.seq - b.seq;

export class InMemoryCampaignRepository implements CampaignRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get campaigns() {
    return campaignsOf(this.store);
  }
  private get messages() {
    return messagesOf(this.store);
  }
  private messagesOfCampaign(campaignId: string) {
    return [...this.messages.values()].filter((m) => m.campaignId === campaignId).sort(bySeq);
  }

  async insert(campaign: Campaign) {
    this.campaigns.set(campaign.id, clone(campaign));
  }
  async insertMessages(messages: readonly CampaignMessage[]) {
    for (const m of messages) {
      if (this.messages.has(m.id)) throw new Error(`duplicate campaign message ${m.id}`);
      this.messages.set(m.id, clone(m));
    }
  }
  async update(campaign: Campaign) {
    const current = this.campaigns.get(campaign.id);
    if (!current) return;
    this.campaigns.set(campaign.id, { ...clone(campaign), totals: current.totals });
  }
  async addTotals(id: string, delta: Omit<CampaignTotals, 'total'>) {
    const c = this.campaigns.get(id);
    if (!c) return null;
    c.totals.enviados += delta.enviados;
    c.totals.falhas += delta.falhas;
    c.totals.pulados += delta.pulados;
    return clone(c);
  }
  async findById(id: string) {
    const c = this.campaigns.get(id);
    return c ? clone(c) : null;
  }
  async findByIdInCompany(companyId: string, id: string) {
    const c = this.campaigns.get(id);
    return c && c.companyId === companyId ? clone(c) : null;
  }
  async findByIdForUpdate(id: string) {
    return this.findById(id);
  }
  async listByCompany(companyId: string, filter: { status?: CampaignStatus }, page: PageRequest) {
    const all = [...this.campaigns.values()]
      .filter((c) => c.companyId === companyId && (!filter.status || c.status === filter.status))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
    return paginate(all.map(clone), page);
  }
  async activeOfCompany(companyId: string) {
    return [...this.campaigns.values()]
      .filter((c) => c.companyId === companyId && (c.status === 'pendente' || c.status === 'processando'))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map(clone);
  }
  async unsettledLiveMessages(companyId: string) {
    return [...this.campaigns.values()]
      .filter((c) => c.companyId === companyId && c.mode === 'live' && !isTerminal(c.status))
      .reduce((sum, c) => sum + unsettledCount(c.totals), 0);
  }
  async dueToStart(now: Date, limit: number) {
    return [...this.campaigns.values()]
      .filter((c) => c.status === 'pendente' && (c.scheduledFor === null || c.scheduledFor.getTime() <= now.getTime()))
      .slice(0, limit)
      .map(clone);
  }
  async settledButRunning(limit: number) {
    return [...this.campaigns.values()].filter((c) => c.status === 'processando' && unsettledCount(c.totals) === 0).slice(0, limit).map(clone);
  }
  async unfinishedUsingSetor(setorId: string) {
    return [...this.campaigns.values()].filter((c) => !isTerminal(c.status) && c.setorIds.includes(setorId)).map(clone);
  }
  async listMessages(campaignId: string, filter: MessageFilter, page: PageRequest) {
    const q = filter.q?.toLowerCase();
    const all = this.messagesOfCampaign(campaignId).filter(
      (m) =>
        (!filter.status || publicMessageStatus(m.status) === filter.status) &&
        (!q || m.phone.toLowerCase().includes(q) || (m.name ?? '').toLowerCase().includes(q)),
    );
    return paginate(all.map(clone), page);
  }
  async findMessagesByIds(campaignId: string, ids: readonly string[]) {
    const wanted = new Set(ids);
    return this.messagesOfCampaign(campaignId).filter((m) => wanted.has(m.id)).map(clone);
  }
  async messagesInStatus(campaignId: string, statuses: readonly CampaignMessageStatus[], setorId?: string) {
    return this.messagesOfCampaign(campaignId)
      .filter((m) => statuses.includes(m.status) && (setorId === undefined || m.setorId === setorId))
      .map(clone);
  }
  async messagesWithoutContact(campaignId: string) {
    return this.messagesOfCampaign(campaignId)
      .filter((m) => m.contactId === null)
      .map((m) => ({ id: m.id, phone: m.phone, name: m.name }));
  }
  async attachContacts(campaignId: string, links: readonly { id: string; contactId: string; name: string | null }[]) {
    for (const link of links) {
      const m = this.messages.get(link.id);
      if (!m || m.campaignId !== campaignId) continue;
      m.contactId = link.contactId;
      m.name ??= link.name;
    }
  }
  async updateMessages(changes: readonly MessageChange[]) {
    const written: string[] = [];
    for (const change of changes) {
      const current = this.messages.get(change.message.id);
      if (!current || current.status !== change.expectedStatus) continue;
      if (change.expectedClaimedBy !== undefined && current.claimedBy !== change.expectedClaimedBy) continue;
      this.messages.set(current.id, clone(change.message));
      written.push(current.id);
    }
    return written;
  }
  private claimable(setorId: string, now: Date) {
    return [...this.messages.values()].filter((m) => {
      if (m.setorId !== setorId || m.status !== 'pendente') return false;
      if (m.notBefore && m.notBefore.getTime() > now.getTime()) return false;
      return this.campaigns.get(m.campaignId)?.status === 'processando';
    });
  }
  private inClaimOrder(setorId: string, now: Date) {
    return this.claimable(setorId, now).sort((a, b) => {
      const ca = this.campaigns.get(a.campaignId)!;
      const cb = this.campaigns.get(b.campaignId)!;
      return ca.createdAt.getTime() - cb.createdAt.getTime() || ca.id.localeCompare(cb.id) || a.seq - b.seq;
    });
  }
  private claim(m: CampaignMessage, by: string, now: Date) {
    m.status = 'enviando';
    m.claimedBy = by;
    m.claimedAt = now;
    m.updatedAt = now;
    return clone(m);
  }
  async claimMessages(setorId: string, by: string, limit: number, now: Date) {
    return this.inClaimOrder(setorId, now)
      .slice(0, limit)
      .map((m) => this.claim(m, by, now));
  }
  async pendingAhead(setorId: string, limit: number, now: Date) {
    return this.inClaimOrder(setorId, now).slice(0, limit).map(clone);
  }
  async claimListed(setorId: string, ids: readonly string[], by: string, now: Date) {
    const claimable = new Set(this.claimable(setorId, now));
    return ids.flatMap((id) => {
      const m = this.messages.get(id);
      return m && claimable.has(m) ? [this.claim(m, by, now)] : [];
    });
  }
  async inFlight(setorId: string) {
    return [...this.messages.values()].filter((m) => m.setorId === setorId && m.status === 'enviando').sort(bySeq).map(clone);
  }
  async skipPending(campaignId: string, skip: { reason: SkipReason; code: SendFailureCode | null; error: string | null; setorId?: string }, now: Date) {
    let count = 0;
    for (const m of this.messagesOfCampaign(campaignId)) {
      if (m.status !== 'pendente' || (skip.setorId !== undefined && m.setorId !== skip.setorId)) continue;
      Object.assign(m, { status: 'pulado', skipReason: skip.reason, errorCode: skip.code, error: skip.error, updatedAt: now });
      count += 1;
    }
    return count;
  }
  async reassign(campaignId: string, moves: readonly Reassignment[], now: Date) {
    let count = 0;
    for (const move of moves) {
      const m = this.messages.get(move.id);
      if (!m || m.campaignId !== campaignId || m.status !== 'pendente') continue;
      m.wasReassigned = m.wasReassigned || move.setorId !== m.assignedSetorId;
      m.setorId = move.setorId;
      m.updatedAt = now;
      count += 1;
    }
    return count;
  }
  async setoresWithWork(now: Date) {
    const lanes = lanesOf(this.store);
    const setores = new Set<string>();
    for (const m of this.messages.values()) {
      if (m.status !== 'pendente' && m.status !== 'enviando') continue;
      if (this.campaigns.get(m.campaignId)?.status !== 'processando' && m.status === 'pendente') continue;
      if (m.status === 'pendente' && m.notBefore && m.notBefore.getTime() > now.getTime()) continue;
      const lane = lanes.get(m.setorId);
      if (lane?.leaseUntil && lane.leaseUntil.getTime() > now.getTime()) continue;
      setores.add(m.setorId);
    }
    return [...setores].sort();
  }
  async earliestRetry(setorId: string) {
    let soonest: Date | null = null;
    for (const m of this.messages.values()) {
      if (m.setorId !== setorId || m.status !== 'pendente' || !m.notBefore) continue;
      if (this.campaigns.get(m.campaignId)?.status !== 'processando') continue;
      if (!soonest || m.notBefore < soonest) soonest = m.notBefore;
    }
    return soonest ? new Date(soonest) : null;
  }
}

export class InMemoryDispatchLaneRepository implements DispatchLaneRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get lanes() {
    return lanesOf(this.store);
  }
  async acquire(setorId: string, owner: string, now: Date, leaseUntil: Date) {
    const lane = this.lanes.get(setorId) ?? { setorId, owner: null, leaseUntil: null, nextSendAt: null };
    if (lane.owner && lane.owner !== owner && lane.leaseUntil && lane.leaseUntil.getTime() > now.getTime()) return null;
    const taken = { ...lane, owner, leaseUntil };
    this.lanes.set(setorId, taken);
    return clone(taken);
  }
  async renew(setorId: string, owner: string, leaseUntil: Date, nextSendAt: Date | null) {
    const lane = this.lanes.get(setorId);
    if (!lane || lane.owner !== owner) return false;
    Object.assign(lane, { leaseUntil, nextSendAt });
    return true;
  }
  async renewAll(renewals: readonly { setorId: string; owner: string; leaseUntil: Date; nextSendAt: Date | null }[]) {
    const held: boolean[] = [];
    for (const r of renewals) held.push(await this.renew(r.setorId, r.owner, r.leaseUntil, r.nextSendAt));
    return held;
  }
  async release(setorId: string, owner: string, nextSendAt: Date | null) {
    const lane = this.lanes.get(setorId);
    if (!lane || lane.owner !== owner) return;
    Object.assign(lane, { owner: null, leaseUntil: null, nextSendAt });
  }
  async find(setorId: string) {
    const lane = this.lanes.get(setorId);
    return lane ? clone(lane) : null;
  }
  async liveOwners(now: Date) {
    return [...this.lanes.values()].filter((l) => l.owner && l.leaseUntil && l.leaseUntil.getTime() > now.getTime()).map((l) => l.owner!);
  }
}

export class InMemoryIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get records() {
    return this.store.table('idempotencyKeys', () => new Map<string, IdempotencyRecord>());
  }
  async begin(record: IdempotencyRecord, expiredBefore: Date) {
    const id = `${record.companyId}:${record.key}`;
    const existing = this.records.get(id);
    const replaceable =
      !existing ||
      existing.createdAt.getTime() < expiredBefore.getTime() ||
      (existing.state === 'in_flight' && existing.lockedUntil.getTime() <= record.createdAt.getTime());
    if (replaceable) {
      this.records.set(id, clone(record));
      return null;
    }
    return clone(existing);
  }
  async complete(companyId: string, key: string, status: number, body: unknown) {
    const r = this.records.get(`${companyId}:${key}`);
    if (r) Object.assign(r, { state: 'completed', responseStatus: status, responseBody: clone(body) });
  }
  async release(companyId: string, key: string) {
    const id = `${companyId}:${key}`;
    if (this.records.get(id)?.state === 'in_flight') this.records.delete(id);
  }
  async purge(before: Date) {
    let n = 0;
    for (const [id, r] of this.records) {
      if (r.createdAt.getTime() < before.getTime()) {
        this.records.delete(id);
        n += 1;
      }
    }
    return n;
  }
}

/** The campaign area's fakes over one store. */
export function inMemoryCampaignRepositories(store: InMemoryStore): CampaignRepositories {
  return {
    campaigns: new InMemoryCampaignRepository(store),
    dispatchLanes: new InMemoryDispatchLaneRepository(store),
    idempotency: new InMemoryIdempotencyRepository(store),
  };
}
