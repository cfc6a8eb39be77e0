import type { Sleeper } from '@carteiro/core';

/** Waits on the process's timers (the production Sleeper). */
export class TimerSleeper implements Sleeper {
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
  }
}
