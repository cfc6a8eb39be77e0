import * as m0014 from './0014-agents.js';
import { postgresArea } from '../shared/postgres-area.js';
import { KyselyAgentRepository } from './kysely-agent-repository.js';
import { KyselyQuickReplyRepository } from './kysely-quick-reply-repository.js';

/**
 * Agents with their team memberships, and quick replies (the core's `agents` and `quick-replies`
 * areas). Migration 0014 also adds the teams' auto-assignment columns and the boxes' ticket
 * settings, which the foundation's team and setor repositories read.
 */
export const agentsArea = postgresArea({
  migrations: { '0014-agents': m0014 },
  repositories: (db) => ({
    agents: new KyselyAgentRepository(db),
    quickReplies: new KyselyQuickReplyRepository(db),
  }),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { AgentsTables } from './agents-tables.js';
