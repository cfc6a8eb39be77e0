import type { SendFailureCode } from '../channel/index.js';

/** One campaign message handed to the channel by a dispatch lane. */
export interface CampaignSendObservation {
  /** `sent`, or the classified failure code of the attempt. */
  outcome: 'sent' | SendFailureCode;
  /**
   * How late the send started, in milliseconds (never negative): the moment the lane handed it to the
   * channel minus the later of the number's planned send instant (its previous send plus the pacing gap)
   * and the start of this run of the lane. Null when the number had no planned instant (its first send).
   * Within a run this is exactly "actual gap minus planned gap"; a lane that waited for a worker to pick
   * it up counts only from the run's start (the wait shows in the queue metrics instead), so that a lane
   * idle for hours, or closed by safe hours, does not report its idleness as lateness.
   */
  lateMs: number | null;
}

/**
 * What a dispatch lane reports about its sends, for the operator's metrics (Prometheus in the apps).
 * Called on the lane's hot path: an implementation must be synchronous and cheap (no I/O).
 */
export interface DispatchObserver {
  campaignSend(observation: CampaignSendObservation): void;
}
export const DispatchObserver = Symbol.for('carteiro.DispatchObserver');

/** Observes nothing: the default of a lane built without metrics (unit tests, tools). */
export const noDispatchObserver: DispatchObserver = { campaignSend: () => undefined };
