import { systemActor } from '../shared/domain-event.js';
import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { ChannelInstance } from './channel-instance.js';
import { handleCommand } from '../shared/apply-command.js';
import { instanceOfSetor } from './instance-transitions.js';
import { failureGroupOf, type SendFailureCode } from './send-failure.js';
import type { ChannelRepositories } from './channel-repositories.js';
import type { SetorRepositories } from '../setores/index.js';

/** A send failure reported by a gateway for a setor. */
export interface SenderFailureInput {
  setorId: string;
  code: SendFailureCode;
  /** The provider's error text, kept in the event. */
  error?: string | null;
}

export interface SenderFailureOutcome {
  /** The setor's instance moved to disconnected now (false when the code is not a sender failure or it already was). */
  disconnected: boolean;
  /** The instance after the call (null when the setor has none). */
  instance: ChannelInstance | null;
}

/** Every sender-group code (banned, corrupt, replaced, restricted, disconnected, auth) means the number cannot send. */
export function disconnectsSender(code: SendFailureCode): boolean {
  return failureGroupOf(code) === 'sender';
}

/**
 * What a sender does when a gateway reports a sender failure: the setor's instance becomes
 * disconnected and `channel.session_disconnected` is recorded in the same transaction, so that
 * auto-selection and campaigns stop using the number. Other codes change nothing.
 */
export class HandleSenderFailure {
  constructor(
    private readonly uow: UnitOfWork<ChannelRepositories & SetorRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** In a transaction of its own. */
  execute(input: SenderFailureInput): Promise<SenderFailureOutcome> {
    if (!disconnectsSender(input.code)) return Promise.resolve({ disconnected: false, instance: null });
    return this.uow.transaction((repos) => this.within(repos, input));
  }

  /** Inside the caller's transaction (e.g. with the message marked failed). */
  async within(repos: Repositories<ChannelRepositories & SetorRepositories>, input: SenderFailureInput): Promise<SenderFailureOutcome> {
    if (!disconnectsSender(input.code)) return { disconnected: false, instance: null };
    const result = await handleCommand(repos, instanceOfSetor(input.setorId, this.ids, systemActor), {
      type: 'disconnect',
      at: this.clock.now(),
      reason: 'sender_failure',
      code: input.code,
      error: input.error ?? null,
    });
    return { disconnected: (result?.events.length ?? 0) > 0, instance: result?.state ?? null };
  }
}
