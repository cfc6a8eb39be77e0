import { sql, type Kysely } from 'kysely';

/**
 * Agents and team members, the teams' auto-assignment settings, quick replies and the boxes'
 * ticket settings (conversations.md §3, §6, §9).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE agents (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      name text NOT NULL,
      email text NOT NULL,
      status text NOT NULL CHECK (status IN ('available', 'away', 'offline')),
      active boolean NOT NULL,
      last_assigned_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE UNIQUE INDEX agents_email_idx ON agents (company_id, lower(email));
    CREATE INDEX agents_company_name_idx ON agents (company_id, (lower(name) COLLATE "C"), id);
    CREATE TABLE team_members (
      team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
      agent_id uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
      company_id uuid NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (team_id, agent_id)
    );
    CREATE INDEX team_members_agent_idx ON team_members (agent_id);
    ALTER TABLE teams
      ADD COLUMN auto_assign boolean NOT NULL DEFAULT false,
      ADD COLUMN max_open_per_agent integer NOT NULL DEFAULT 10 CHECK (max_open_per_agent >= 1);
    CREATE TABLE quick_replies (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      setor_id uuid REFERENCES setores(id) ON DELETE CASCADE,
      shortcut text NOT NULL,
      title text NOT NULL,
      text text,
      media_url text,
      media_type text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE UNIQUE INDEX quick_replies_shortcut_idx
      ON quick_replies (company_id, (coalesce(setor_id, '00000000-0000-0000-0000-000000000000'::uuid)), shortcut);
    ALTER TABLE setores
      ADD COLUMN closing_message text,
      ADD COLUMN csat_enabled boolean NOT NULL DEFAULT false,
      ADD COLUMN csat_question text,
      ADD COLUMN csat_thanks text,
      ADD COLUMN reopen_window_minutes integer NOT NULL DEFAULT 30 CHECK (reopen_window_minutes BETWEEN 0 AND 10080),
      ADD COLUMN assistant_enabled boolean NOT NULL DEFAULT false,
      ADD COLUMN default_team_id uuid REFERENCES teams(id) ON DELETE SET NULL;
  `.execute(db);
}
