import type { Page, PageRequest } from '../shared/pagination.js';
import type { Campaign, CampaignStatus, CampaignTotals } from './campaign.js';
import type { CampaignMessage, CampaignMessageStatus, PublicMessageStatus, SkipReason } from './campaign-message.js';
import type { SendFailureCode } from '../channel/index.js';

/** A message write guarded by the status the writer last saw (compare-and-set). */
export interface MessageChange {
  message: CampaignMessage;
  expectedStatus: CampaignMessageStatus;
  /** When set, the row must also still be claimed by this lane (fencing). */
  expectedClaimedBy?: string;
}

/** Filters of the messages and recipients reads. */
export interface MessageFilter {
  status?: PublicMessageStatus;
  /** Recipients search: part of the phone or of the name, case-insensitive. */
  q?: string;
}

/** A pending message moved to another number by redistribution. */
export interface Reassignment {
  id: string;
  setorId: string;
}

/**
 * Stores campaigns and their recipients' messages. Reads are scoped by company where an API
 * caller is involved; the dispatch reads by id. Bulk operations are single statements in
 * PostgreSQL: a campaign has up to 10,000 messages.
 */
export interface CampaignRepository {
  insert(campaign: Campaign): Promise<void>;
  /** Every recipient of a new campaign, in one statement. */
  insertMessages(messages: readonly CampaignMessage[]): Promise<void>;
  /** Writes every field but `totals` (which only move through {@link addTotals}). */
  update(campaign: Campaign): Promise<void>;
  /**
   * Moves the settled counters atomically and answers the campaign as it is then (its row is locked
   * until the transaction ends), or null when there is none.
   */
  addTotals(id: string, delta: Omit<CampaignTotals, 'total'>): Promise<Campaign | null>;
  findById(id: string): Promise<Campaign | null>;
  findByIdInCompany(companyId: string, id: string): Promise<Campaign | null>;
  /** The campaign, locked until the transaction ends. */
  findByIdForUpdate(id: string): Promise<Campaign | null>;
  listByCompany(companyId: string, filter: { status?: CampaignStatus }, page: PageRequest): Promise<Page<Campaign>>;
  /** pendente and processando campaigns of the company (the concurrency cap), oldest first. */
  activeOfCompany(companyId: string): Promise<Campaign[]>;
  /** Messages still to send in non-terminal live campaigns of the company (reserved against the daily limit). */
  unsettledLiveMessages(companyId: string): Promise<number>;
  /** pendente campaigns whose start time has come (null scheduled_for: immediate). */
  dueToStart(now: Date, limit: number): Promise<Campaign[]>;
  /** processando campaigns without unsettled messages (completion the dispatch may have missed). */
  settledButRunning(limit: number): Promise<Campaign[]>;
  /** Campaigns (pendente, processando, pausado) whose pool includes the setor. */
  unfinishedUsingSetor(setorId: string): Promise<Campaign[]>;

  listMessages(campaignId: string, filter: MessageFilter, page: PageRequest): Promise<Page<CampaignMessage>>;
  findMessagesByIds(campaignId: string, ids: readonly string[]): Promise<CampaignMessage[]>;
  /** Messages of a campaign in the given statuses (and, when given, currently on the setor), in order. */
  messagesInStatus(campaignId: string, statuses: readonly CampaignMessageStatus[], setorId?: string): Promise<CampaignMessage[]>;
  /** Messages of the campaign whose contact is not linked yet (created from a phone), in order. */
  messagesWithoutContact(campaignId: string): Promise<Pick<CampaignMessage, 'id' | 'phone' | 'name'>[]>;
  /** Links messages to their contacts; a message without a name takes the contact's. */
  attachContacts(campaignId: string, links: readonly { id: string; contactId: string; name: string | null }[]): Promise<void>;
  /** Applies changes whose row is still as expected; answers the ids written. */
  updateMessages(changes: readonly MessageChange[]): Promise<string[]>;
  /**
   * Claims up to `limit` pending messages on the setor in processando campaigns (oldest
   * campaign first, then request order), skipping rows another transaction holds; they
   * become `enviando`, claimed by `by`.
   */
  claimMessages(setorId: string, by: string, limit: number, now: Date): Promise<CampaignMessage[]>;
  /**
   * The messages `claimMessages` would take next (same order and conditions), left pending: a paced lane
   * reads them ahead and claims each with `claimListed` right before its send.
   */
  pendingAhead(setorId: string, limit: number, now: Date): Promise<CampaignMessage[]>;
  /**
   * Claims those of the listed messages that are still claimable (pending on the setor, due, in a processando
   * campaign: not paused, cancelled or moved since they were read), in one atomic statement; answers them claimed.
   */
  claimListed(setorId: string, ids: readonly string[], by: string, now: Date): Promise<CampaignMessage[]>;
  /** `enviando` messages on the setor: claimed by a lane that may have died before recording. */
  inFlight(setorId: string): Promise<CampaignMessage[]>;
  /** Skips every pending message of the campaign (optionally only those on the setor); answers the count. */
  skipPending(
    campaignId: string,
    skip: { reason: SkipReason; code: SendFailureCode | null; error: string | null; setorId?: string },
    now: Date,
  ): Promise<number>;
  /** Moves pending messages to other setores (was_reassigned set when the setor differs from the assigned one). */
  reassign(campaignId: string, moves: readonly Reassignment[], now: Date): Promise<number>;
  /** Setores with claimable work now (pending messages of processando campaigns, not waiting for a retry) and no live lane lease. */
  setoresWithWork(now: Date): Promise<string[]>;
  /** The soonest `not_before` of pending messages on the setor in processando campaigns (automatic retries). */
  earliestRetry(setorId: string): Promise<Date | null>;
}
export const CampaignRepository = Symbol.for('carteiro.CampaignRepository');
