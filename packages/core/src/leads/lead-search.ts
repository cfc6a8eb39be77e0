import type { KeyMode } from '../api-keys/index.js';
import type { LeadSearchCriteria } from './lead.js';

export type LeadSearchStatus = 'queued' | 'running' | 'completed' | 'failed';

/** Results of a search stay readable this long (business.md §5). */
export const LEAD_SEARCH_RETENTION_MS = 7 * 24 * 3600_000;

/**
 * One lead search (`POST /v1/leads/search`): a job that reads the source page by page; each page's
 * leads, its cursor and the credits it cost are committed together, so a search whose worker died
 * resumes from its last committed page with every lead once and charged once.
 */
export interface LeadSearch {
  id: string;
  companyId: string;
  apiKeyId: string;
  mode: KeyMode;
  status: LeadSearchStatus;
  criteria: LeadSearchCriteria;
  /** The source read (`sample`, `cnpja`). */
  source: string;
  /** Leads stored so far. */
  returned: number;
  /** Leads the source reported for the criteria (at least `returned`). */
  total: number;
  creditsUsed: number;
  datasetMonth: string | null;
  /** The cursor of the next page to read; null before the first page and after the last. */
  cursor: string | null;
  pagesRead: number;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  expiresAt: Date;
}

export function createLeadSearch(
  id: string,
  companyId: string,
  apiKey: { id: string; mode: KeyMode },
  criteria: LeadSearchCriteria,
  source: string,
  now: Date,
): LeadSearch {
  return {
    id,
    companyId,
    apiKeyId: apiKey.id,
    mode: apiKey.mode,
    status: 'queued',
    criteria,
    source,
    returned: 0,
    total: 0,
    creditsUsed: 0,
    datasetMonth: null,
    cursor: null,
    pagesRead: 0,
    error: null,
    createdAt: now,
    startedAt: null,
    completedAt: null,
    expiresAt: new Date(now.getTime() + LEAD_SEARCH_RETENTION_MS),
  };
}
