/**
 * The dispatch lane of one setor: who sends from it now (a lease, so that one worker at a time
 * sends from a number, whatever the campaign) and when it may send next (its pacing survives
 * restarts).
 */
export interface DispatchLane {
  setorId: string;
  owner: string | null;
  leaseUntil: Date | null;
  nextSendAt: Date | null;
}

/** Stores lanes; every method is atomic on its own. */
export interface DispatchLaneRepository {
  /**
   * Takes the setor's lane for `owner` until `leaseUntil`, unless another owner holds an unexpired
   * lease. Answers the lane taken, or null when it is busy.
   */
  acquire(setorId: string, owner: string, now: Date, leaseUntil: Date): Promise<DispatchLane | null>;
  /** Extends the lease and stores the pacing; false when `owner` no longer holds it. */
  renew(setorId: string, owner: string, leaseUntil: Date, nextSendAt: Date | null): Promise<boolean>;
  /** `renew` of several lanes at once (a group of lanes recording together): one answer per renewal, in order. */
  renewAll(renewals: readonly { setorId: string; owner: string; leaseUntil: Date; nextSendAt: Date | null }[]): Promise<boolean[]>;
  /** Gives the lane up (the lease ends now), keeping the pacing. */
  release(setorId: string, owner: string, nextSendAt: Date | null): Promise<void>;
  find(setorId: string): Promise<DispatchLane | null>;
  /** The owners of every lease still running at `now` (one entry per lane held): who holds how many lanes. */
  liveOwners(now: Date): Promise<string[]>;
}
export const DispatchLaneRepository = Symbol.for('carteiro.DispatchLaneRepository');
