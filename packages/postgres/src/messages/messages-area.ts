import * as m0003 from './0003-messages.js';
import { postgresArea } from '../shared/postgres-area.js';
import { KyselyContactAffinityRepository, KyselyContactRepository, KyselyTagRepository } from './kysely-contact-repositories.js';
import { KyselyConversationRepository, KyselyMessageRepository, KyselyRotationCursorRepository } from './kysely-message-repositories.js';

/** Contacts, affinities and tags, conversations and message records, and the shared rotation cursors. */
export const messagesArea = postgresArea({
  migrations: { '0003-messages': m0003 },
  repositories: (db) => ({
    contacts: new KyselyContactRepository(db),
    contactAffinities: new KyselyContactAffinityRepository(db),
    tags: new KyselyTagRepository(db),
    rotationCursors: new KyselyRotationCursorRepository(db),
    conversations: new KyselyConversationRepository(db),
    messages: new KyselyMessageRepository(db),
  }),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { MessagesTables } from './messages-tables.js';
