import * as m0003 from './0003-messages.js';
import { postgresArea } from '../shared/postgres-area.js';
import { KyselyConversationRepository, KyselyMessageRepository, KyselyRotationCursorRepository } from './kysely-message-repositories.js';

/** Conversations and message records, and the shared rotation cursors (the contact and tag tables of 0003 belong to the contacts area). */
export const messagesArea = postgresArea({
  migrations: { '0003-messages': m0003 },
  repositories: (db) => ({
    rotationCursors: new KyselyRotationCursorRepository(db),
    conversations: new KyselyConversationRepository(db),
    messages: new KyselyMessageRepository(db),
  }),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { MessagesTables } from './messages-tables.js';
