import type { Timestamp } from '../shared/column-types.js';

export interface AgentsTable {
  id: string;
  company_id: string;
  name: string;
  email: string;
  status: string;
  active: boolean;
  last_assigned_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TeamMembersTable {
  team_id: string;
  agent_id: string;
  company_id: string;
  created_at: Timestamp;
}

export interface QuickRepliesTable {
  id: string;
  company_id: string;
  setor_id: string | null;
  shortcut: string;
  title: string;
  text: string | null;
  media_url: string | null;
  media_type: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The agents area's tables (0014-agents); the columns it adds to `teams` and `setores` are declared beside the foundation's. */
export interface AgentsTables {
  agents: AgentsTable;
  team_members: TeamMembersTable;
  quick_replies: QuickRepliesTable;
}

declare module '../shared/database.js' {
  interface Database extends AgentsTables {}
}
