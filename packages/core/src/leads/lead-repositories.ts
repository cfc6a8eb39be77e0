import type { Page, PageRequest } from '../shared/pagination.js';
import type { Lead } from './lead.js';
import type { LeadSearch } from './lead-search.js';

/** Lead searches and their results. Reads are scoped by company. */
export interface LeadSearchRepository {
  insert(search: LeadSearch): Promise<void>;
  /** A search of the company not yet expired at `now`, or null. */
  findById(companyId: string, id: string, now: Date): Promise<LeadSearch | null>;
  /** Any company's search, locked until the transaction ends (the job's claim). */
  findByIdForUpdate(id: string): Promise<LeadSearch | null>;
  update(search: LeadSearch): Promise<void>;
  /** Stores leads at positions `from`, `from + 1`, … (a position already stored is kept). */
  appendItems(searchId: string, from: number, items: readonly Lead[]): Promise<void>;
  /** By position. */
  listItems(searchId: string, page: PageRequest): Promise<Page<Lead>>;
  /** Searches of live keys created in `[from, ∞)`: the `lead_searches_per_day` quota. */
  countLiveSince(companyId: string, from: Date): Promise<number>;
  /** Ids of searches still queued or running (a worker's start-up resumes them). */
  listUnfinished(limit: number): Promise<string[]>;
  /** Deletes searches (and their leads) expired at `now`; returns how many. */
  deleteExpired(now: Date): Promise<number>;
}
export const LeadSearchRepository = Symbol.for('carteiro.LeadSearchRepository');

/** One cached answer of the channel's number check. */
export interface ChannelCheck {
  phone: string;
  hasChannel: boolean | null;
  checkedAt: Date;
}

/** The 7-day cache of `POST /v1/leads/validate-channel`, per company and setor. */
export interface ChannelCheckRepository {
  /** Checks of these phones made at or after `since`. */
  find(companyId: string, setorId: string, phones: readonly string[], since: Date): Promise<ChannelCheck[]>;
  save(companyId: string, setorId: string, checks: readonly ChannelCheck[]): Promise<void>;
  /** Deletes answers checked before `before` (past the cache's life); returns how many. */
  deleteCheckedBefore(before: Date): Promise<number>;
}
export const ChannelCheckRepository = Symbol.for('carteiro.ChannelCheckRepository');

/** The leads area's repositories. */
export interface LeadRepositories {
  leadSearches: LeadSearchRepository;
  channelChecks: ChannelCheckRepository;
}
