import type { Agent, QuickReply, Setor, SetorInboxInput, TeamWithMembers } from '@carteiro/core';
import { DEFAULT_SETOR_INBOX_SETTINGS } from '@carteiro/core';
import { component, s } from '../http/schema.js';

/** An agent as GET /v1/agents and the operator see it; `open_tickets` counts their non-closed tickets. */
export function agentView(agent: Agent, openTickets: number) {
  return {
    id: agent.id,
    name: agent.name,
    email: agent.email,
    status: agent.status,
    active: agent.active,
    team_ids: agent.teamIds,
    open_tickets: openTickets,
  };
}

/** A team with its members and assignment settings (GET /v1/teams, the operator's team routes). */
export function teamWithMembersView({ team, members }: TeamWithMembers) {
  return {
    id: team.id,
    company_id: team.companyId,
    nome: team.nome,
    setor_ids: team.setorIds,
    members: members.map((m) => ({ agent_id: m.agentId, name: m.name, status: m.status, active: m.active })),
    auto_assign: team.autoAssign,
    max_open_per_agent: team.maxOpenPerAgent,
    created_at: team.createdAt.toISOString(),
  };
}

export function quickReplyView(reply: QuickReply) {
  return {
    id: reply.id,
    shortcut: reply.shortcut,
    title: reply.title,
    text: reply.text,
    media_url: reply.mediaUrl,
    media_type: reply.mediaType,
    setor_id: reply.setorId,
    placeholders: reply.placeholders,
    created_at: reply.createdAt.toISOString(),
    updated_at: reply.updatedAt.toISOString(),
  };
}

/** The ticket settings of a box, as the operator's setor reads show them. */
export function setorInboxView(setor: Setor) {
  const inbox = setor.inbox ?? DEFAULT_SETOR_INBOX_SETTINGS;
  return {
    closing_message: inbox.closingMessage,
    csat_enabled: inbox.csatEnabled,
    csat_question: inbox.csatQuestion,
    csat_thanks: inbox.csatThanks,
    reopen_window_minutes: inbox.reopenWindowMinutes,
    assistant_enabled: inbox.assistantEnabled,
    default_team_id: inbox.defaultTeamId,
  };
}

/** Response schema of {@link setorInboxView}'s fields. */
export const setorInboxProperties = {
  closing_message: s.nullableString({ description: 'Sent when a ticket closes; placeholders {{nome}} {{primeiro_nome}} {{protocolo}} {{atendente}}.' }),
  csat_enabled: s.boolean(),
  csat_question: s.nullableString(),
  csat_thanks: s.nullableString(),
  reopen_window_minutes: s.integer({ minimum: 0, maximum: 10_080 }),
  assistant_enabled: s.boolean(),
  default_team_id: s.nullableUuid(),
};

export const TeamMember = s.object({ agent_id: s.uuid(), name: s.string(), status: s.enum(['available', 'away', 'offline']), active: s.boolean() });

/** A team of GET /v1/teams and the operator's team routes. */
export const TeamWithMembersSchema = component(
  'TeamWithMembers',
  s.object({
    id: s.uuid(),
    company_id: s.uuid(),
    nome: s.string(),
    setor_ids: s.array(s.uuid()),
    members: s.array(TeamMember),
    auto_assign: s.boolean({ description: 'A team-only assignment picks the available member with fewest open tickets.' }),
    max_open_per_agent: s.integer({ description: 'Auto-assignment skips members with this many open tickets.' }),
    created_at: s.dateTime(),
  }),
);

/** Request schema of the ticket settings of PATCH /admin/v1/setores/:id. */
export const setorInboxBodyProperties = {
  closing_message: s.nullableString({ maxLength: 1024, description: 'null or empty: no closing message. Placeholders {{nome}} {{primeiro_nome}} {{protocolo}} {{atendente}}; another one is a 400.' }),
  csat_enabled: s.boolean({ description: 'Closing requests a rating by default (default false).' }),
  csat_question: s.nullableString({ maxLength: 1024 }),
  csat_thanks: s.nullableString({ maxLength: 1024 }),
  reopen_window_minutes: s.integer({ minimum: 0, maximum: 10_080, description: 'Default 30; 0: inbound never reopens.' }),
  assistant_enabled: s.boolean({ description: 'New tickets start `pending` (with the assistant) when the contact’s AI is active (default false).' }),
  default_team_id: s.nullableUuid({ description: 'Team of tickets opened by inbound messages.' }),
};

/** The body fields of {@link setorInboxBodyProperties}. */
export interface SetorInboxBody {
  closing_message?: string | null;
  csat_enabled?: boolean;
  csat_question?: string | null;
  csat_thanks?: string | null;
  reopen_window_minutes?: number;
  assistant_enabled?: boolean;
  default_team_id?: string | null;
}

/** The core's inbox input from the body (only the fields sent). */
export function setorInboxInput(body: SetorInboxBody): SetorInboxInput {
  const input: SetorInboxInput = {};
  if (body.closing_message !== undefined) input.closingMessage = body.closing_message;
  if (body.csat_enabled !== undefined) input.csatEnabled = body.csat_enabled;
  if (body.csat_question !== undefined) input.csatQuestion = body.csat_question;
  if (body.csat_thanks !== undefined) input.csatThanks = body.csat_thanks;
  if (body.reopen_window_minutes !== undefined) input.reopenWindowMinutes = body.reopen_window_minutes;
  if (body.assistant_enabled !== undefined) input.assistantEnabled = body.assistant_enabled;
  if (body.default_team_id !== undefined) input.defaultTeamId = body.default_team_id === null ? null : body.default_team_id.toLowerCase();
  return input;
}
