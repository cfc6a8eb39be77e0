import type { Page, PageRequest } from '../shared/pagination.js';
import type { QuickReply } from './quick-reply.js';

/** Filters of GET /v1/quick-replies. */
export interface QuickReplyFilters {
  /** Company-wide replies and that box's; omitted: every reply. */
  setorId?: string;
  /** Part of the shortcut, title or text, ignoring case. */
  q?: string;
}

/** Stores quick replies; shortcuts unique per company and scope (company-wide or one box). */
export interface QuickReplyRepository {
  /** Inserts unless the scope has the shortcut; answers the holder then (null when inserted). */
  insertUnique(reply: QuickReply): Promise<QuickReply | null>;
  /** Writes every field; answers the reply holding the shortcut in the scope when it is another one (nothing written then). */
  update(reply: QuickReply): Promise<QuickReply | null>;
  findById(companyId: string, id: string): Promise<QuickReply | null>;
  /** The reply's company whatever it is (the operator's routes by id); null when missing. */
  companyOf(id: string): Promise<string | null>;
  /** A page by shortcut then id (company-wide before a box's on equal shortcuts). */
  list(companyId: string, filters: QuickReplyFilters, page: PageRequest): Promise<Page<QuickReply>>;
  count(companyId: string): Promise<number>;
  delete(companyId: string, id: string): Promise<boolean>;
}
export const QuickReplyRepository = Symbol.for('carteiro.QuickReplyRepository');
