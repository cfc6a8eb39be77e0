import { ValidationError } from '../shared/errors.js';

export const AgentStatuses = ['available', 'away', 'offline'] as const;
/** An agent's availability: only `available` agents are picked by auto-assignment. */
export type AgentStatus = (typeof AgentStatuses)[number];

/** A person who answers tickets (conversations.md §6, §9). Never deleted: deactivated. */
export interface Agent {
  id: string;
  companyId: string;
  name: string;
  /** Unique per company ignoring case. */
  email: string;
  status: AgentStatus;
  active: boolean;
  teamIds: string[];
  /** Ties in auto-assignment go to the least recently assigned. */
  lastAssignedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Agents per company (conversations.md §11). */
export const MAX_AGENTS = 500;
export const MAX_AGENT_NAME_LENGTH = 100;
export const MAX_AGENT_EMAIL_LENGTH = 254;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The writable fields of an agent; omitted fields keep theirs. */
export interface AgentInput {
  name?: string;
  email?: string;
  status?: AgentStatus;
  active?: boolean;
  teamIds?: string[];
}

function checkAgentInput(input: AgentInput): void {
  if (input.name !== undefined && (input.name.trim().length < 1 || input.name.trim().length > MAX_AGENT_NAME_LENGTH)) {
    throw new ValidationError(`name must have 1-${MAX_AGENT_NAME_LENGTH} characters`, { field: 'name' });
  }
  if (input.email !== undefined && (input.email.trim().length > MAX_AGENT_EMAIL_LENGTH || !EMAIL.test(input.email.trim()))) {
    throw new ValidationError('email must be an email address', { field: 'email' });
  }
  if (input.status !== undefined && !(AgentStatuses as readonly string[]).includes(input.status)) {
    throw new ValidationError(`status must be one of ${AgentStatuses.join(', ')}`, { field: 'status', allowed: AgentStatuses });
  }
}

/** A new agent: active, `offline` unless a status is given. */
export function createAgent(id: string, companyId: string, now: Date, input: AgentInput & { name: string; email: string }): Agent {
  checkAgentInput(input);
  return {
    id,
    companyId,
    name: input.name.trim(),
    email: input.email.trim(),
    status: input.status ?? 'offline',
    active: input.active ?? true,
    teamIds: [...new Set(input.teamIds ?? [])],
    lastAssignedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The agent with `input` applied. */
export function updateAgent(agent: Agent, input: AgentInput, now: Date): Agent {
  checkAgentInput(input);
  return {
    ...agent,
    name: input.name !== undefined ? input.name.trim() : agent.name,
    email: input.email !== undefined ? input.email.trim() : agent.email,
    status: input.status ?? agent.status,
    active: input.active ?? agent.active,
    teamIds: input.teamIds !== undefined ? [...new Set(input.teamIds)] : agent.teamIds,
    updatedAt: now,
  };
}

/** Whether a change can give the agent tickets or take theirs back: auto-assignment must look again. */
export function availabilityChanged(before: Agent, after: Agent): boolean {
  return before.status !== after.status || before.active !== after.active || before.teamIds.join() !== after.teamIds.join();
}

/** Whether auto-assignment may pick the agent. */
export function isAssignable(agent: Pick<Agent, 'active' | 'status'>): boolean {
  return agent.active && agent.status === 'available';
}
