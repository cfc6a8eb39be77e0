import * as m0018 from './0018-ticket-sends.js';
import { postgresArea } from '../shared/postgres-area.js';
import { KyselyRatingReportRepository, KyselyTicketSendRepository, KyselyTicketTimelineRepository } from './kysely-ticket-reply-repositories.js';

/**
 * Replies, closing and ratings of tickets: the automatic sends' table (0018) and the timeline and
 * rating-report reads over `messages` and `tickets` (tables of 0003 and 0015).
 */
export const ticketRepliesArea = postgresArea({
  migrations: { '0018-ticket-sends': m0018 },
  repositories: (db) => ({
    ticketSends: new KyselyTicketSendRepository(db),
    ticketTimeline: new KyselyTicketTimelineRepository(db),
    ratingReports: new KyselyRatingReportRepository(db),
  }),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { TicketSendsTables } from './ticket-sends-tables.js';
