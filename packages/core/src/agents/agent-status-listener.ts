/**
 * Told after an agent's availability changed and committed (status, active, teams): the tickets
 * area gives an available agent their teams' oldest queued tickets and puts a deactivated agent's
 * open tickets back in the queue. Bound as a list; none is fine.
 */
export interface AgentStatusListener {
  onAgentChanged(companyId: string, agentId: string): Promise<void>;
}
export const AgentStatusListener = Symbol.for('carteiro.AgentStatusListener');
