import type { QueueDefinition } from '../shared/job-scheduler.js';

/** Queues of the campaign engine: the API enqueues prepare and start, the worker consumes all four. */
export const CampaignQueues = {
  /** `{ campaignId }`: links the contacts of a new campaign's recipients (created for unknown phones). */
  prepare: 'campaign-prepare',
  /** `{ campaignId }`: moves a due campaign to processando and wakes its lanes. */
  start: 'campaign-start',
  /** `{ setorId }`: sends from one setor (one lane per setor, whatever the campaign). */
  lane: 'campaign-lane',
  /** Periodic: starts due campaigns, wakes idle lanes with work, completes settled campaigns. */
  sweep: 'campaign-sweep',
} as const;

/** How the campaign queues behave: lanes and starts keep at most one queued job per setor or campaign beside the running one. */
export const campaignQueueDefinitions: readonly QueueDefinition[] = [
  { name: CampaignQueues.prepare, policy: 'stately', retryLimit: 5, retryDelay: 5 },
  { name: CampaignQueues.start, policy: 'stately', retryLimit: 5, retryDelay: 5 },
  // A lane job only wakes the lane in its process (milliseconds), but one left active by a worker killed between
  // fetch and completion blocks its lane's next job (stately: one active per key) until it expires: 15 s, not 15 min.
  { name: CampaignQueues.lane, policy: 'stately', retryLimit: 2, retryDelay: 5, expireInSeconds: 15 },
  { name: CampaignQueues.sweep, policy: 'singleton', retryLimit: 1 },
];

/** Engine settings read from the environment by the composition roots. */
export interface CampaignEngineSettings {
  /** Multiplies every anti-ban interval (`PACING_SCALE`, default 1). */
  pacingScale: number;
}
export const CampaignEngineSettings = Symbol.for('carteiro.CampaignEngineSettings');
