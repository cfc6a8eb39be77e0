import type { Sleeper } from '../index.js';
import type { ManualClock } from '../../shared/testing/manual-clock.js';

/** A sleeper that moves a manual clock instead of waiting, and remembers every wait. */
export class ManualSleeper implements Sleeper {
  readonly waits: number[] = [];
  constructor(private readonly clock: ManualClock) {}
  async sleep(ms: number): Promise<void> {
    this.waits.push(ms);
    this.clock.advance(ms);
  }
}
