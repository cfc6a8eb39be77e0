/** Queues of the campaign engine (registered with pg-boss by the worker). */
export const CampaignQueues = {
  /** `{ campaignId }`: links the contacts of a new campaign's recipients (created for unknown phones). */
  prepare: 'campaign-prepare',
  /** `{ campaignId }`: moves a due campaign to processando and wakes its lanes. */
  start: 'campaign-start',
  /** `{ setorId }`: sends from one box (one lane per box, whatever the campaign). */
  lane: 'campaign-lane',
  /** Periodic: starts due campaigns, wakes idle lanes with work, completes settled campaigns. */
  sweep: 'campaign-sweep',
} as const;

/** Engine settings read from the environment by the composition roots. */
export interface CampaignEngineSettings {
  /** Multiplies every anti-ban interval (`PACING_SCALE`, default 1). */
  pacingScale: number;
}
export const CampaignEngineSettings = Symbol.for('carteiro.CampaignEngineSettings');
