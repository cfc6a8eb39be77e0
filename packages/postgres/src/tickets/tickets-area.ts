import * as m0015 from './0015-tickets.js';
import * as m0020 from './0020-tickets-active-activity.js';
import * as m0028 from './0028-messages-timeline-supersedes-conversation-index.js';
import * as m0033 from './0033-tickets-rating-periods.js';
import { postgresArea } from '../shared/postgres-area.js';
import { kyselyTicketRepositories } from './kysely-ticket-repositories.js';

/** Tickets with their tags and links, the per-company ticket counter, and the ticket columns of `messages`. */
export const ticketsArea = postgresArea({
  migrations: { '0015-tickets': m0015, '0020-tickets-active-activity': m0020, '0028-messages-timeline-supersedes-conversation-index': m0028, '0033-tickets-rating-periods': m0033 },
  repositories: (db) => kyselyTicketRepositories(db),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { TicketsTables } from './tickets-tables.js';
