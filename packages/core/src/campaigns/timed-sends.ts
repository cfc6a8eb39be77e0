import type { ChannelInstance } from '../channel/index.js';
import type { Company } from '../companies/index.js';
import type { Setor } from '../setores/index.js';

/** What a lane hands a timed send: its setor, the setor's instance and company, the lane owner and the time. */
export interface TimedSendContext {
  setor: Setor;
  instance: ChannelInstance;
  company: Company;
  /** The lane run holding the lease (the claim's owner). */
  owner: string;
}

/** What one timed step did: whether something went to the channel (pacing counts it) and how it ended. */
export interface TimedSendStep {
  /** A send reached the channel: the lane waits its number's gap before the next one. */
  attempted: boolean;
  sent: boolean;
  failed: boolean;
}

/**
 * One-off sends at a set time (scheduled messages, appointment reminders), made by the setor's
 * dispatch lane ahead of its campaign messages: the lease holder claims a due row, sends it with
 * `clientMessageId` = the row id and settles it by compare-and-set. The scheduling area implements it.
 */
export interface TimedSends {
  /** Whether the setor has a due row, or one claimed by a lane run that died. */
  hasWork(setorId: string, now: Date): Promise<boolean>;
  /** Takes over a dead run's claim or claims one due row, sends and settles it; null when there was none. */
  sendNext(context: TimedSendContext): Promise<TimedSendStep | null>;
}
export const TimedSends = Symbol.for('carteiro.TimedSends');
