import type { KeyMode } from '../../api-keys/index.js';
import type { NumberCheck, ChannelGateway, HealthProbe, MessageOperationResult, Profile, ProfileUpdate, QrCode, SendRequest, SendResult, SentMessageRef, SessionState, SessionTarget } from '../index.js';
import { supportsOperation, type ChannelCapabilities, type SentMessageOperation } from '../index.js';
import { DomainError } from '../../shared/errors.js';
import type { SendFailureCode } from '../index.js';
import type { Clock } from '../../shared/clock.js';
import type { Setor } from '../../setores/index.js';

/** A scripted failure for sends to one recipient. */
export interface ScriptedFailure {
  code: SendFailureCode;
  providerFailure?: boolean;
}

/** An edit, delete or reaction the fake gateway was asked for. */
export interface RecordedOperation {
  operation: SentMessageOperation;
  setorId: string;
  instanceId: string;
  mode: KeyMode;
  to: string;
  providerMessageId: string;
  providerChatId: string | null;
  /** The new text (edit) or the emoji (reaction, empty to remove). */
  text?: string;
  emoji?: string;
}

/**
 * A channel gateway for core tests: records every send and every operation on a sent message,
 * succeeds unless a failure was scripted for the recipient, and connects at once. The real
 * simulator lives in `@carteiro/channels`.
 */
export class FakeChannelGateway implements ChannelGateway {
  readonly sent: SendRequest[] = [];
  readonly failures = new Map<string, ScriptedFailure>();
  /** Edits, deletes and reactions, in order. */
  readonly operations: RecordedOperation[] = [];
  /** Scripted failures of operations (not sends) on messages to a recipient. */
  readonly operationFailures = new Map<string, ScriptedFailure>();
  readonly sessions = new Map<string, SessionState>();
  /** Instance ids whose probes get no answer (the provider is unreachable for them). */
  readonly unreachable = new Set<string>();
  /** Instance ids passed to `disconnect`, in order. */
  readonly disconnected: string[] = [];
  private counter = 0;

  constructor(private readonly clock: Clock) {}

  capabilities(setor: Setor, _mode: KeyMode): ChannelCapabilities {
    const official = setor.channelType === 'official';
    return {
      text: true,
      media: true,
      templates: official,
      interactive: official,
      polls: !official,
      events: !official,
      conversationWindow: official,
      editMessages: !official,
      deleteMessages: !official,
      reactions: true,
    };
  }

  failOperationsFor(to: string, failure: ScriptedFailure): void {
    this.operationFailures.set(to, failure);
  }

  failFor(to: string, failure: ScriptedFailure): void {
    this.failures.set(to, failure);
  }

  async connect(target: SessionTarget): Promise<QrCode> {
    this.sessions.set(target.instance.id, { status: 'connected', phoneNumber: '+5511900000000' });
    return { qrCode: 'data:image/png;base64,', expiresInSeconds: 60 };
  }

  async sessionState(target: SessionTarget): Promise<SessionState> {
    return this.sessions.get(target.instance.id) ?? { status: target.instance.status, phoneNumber: target.instance.phoneNumber };
  }

  async disconnect(target: SessionTarget): Promise<void> {
    this.disconnected.push(target.instance.id);
    this.sessions.set(target.instance.id, { status: 'disconnected', phoneNumber: null });
  }

  async probe(target: SessionTarget): Promise<HealthProbe> {
    if (this.unreachable.has(target.instance.id)) return { responding: false, connected: false, error: 'provider did not answer' };
    const state = await this.sessionState(target);
    return { responding: true, connected: state.status === 'connected', error: null };
  }

  async fetchProfile(_target: SessionTarget): Promise<Profile> {
    return { name: null, pictureUrl: null };
  }

  async updateProfile(_target: SessionTarget, update: ProfileUpdate): Promise<Profile> {
    return { name: update.name ?? null, pictureUrl: update.pictureUrl ?? null };
  }

  async send(request: SendRequest): Promise<SendResult> {
    this.sent.push(structuredClone(request));
    const failure = this.failures.get(request.to);
    if (failure) {
      return { ok: false, code: failure.code, error: `scripted ${failure.code}`, providerFailure: failure.providerFailure ?? false };
    }
    this.counter += 1;
    return { ok: true, providerMessageId: `fake-${this.counter}`, sentAt: this.clock.now() };
  }

  editMessage(target: SessionTarget, message: SentMessageRef & { text: string }): Promise<MessageOperationResult> {
    return this.operate('edit', target, message, { text: message.text });
  }

  deleteMessage(target: SessionTarget, message: SentMessageRef): Promise<MessageOperationResult> {
    return this.operate('delete', target, message, {});
  }

  react(target: SessionTarget, message: SentMessageRef & { emoji: string }): Promise<MessageOperationResult> {
    return this.operate('reaction', target, message, { emoji: message.emoji });
  }

  /** Numbers checked, in order (one entry per call). */
  readonly numberChecks: string[][] = [];
  /** A number has an account unless a RECIP_NOT_WHATSAPP failure is scripted for it. */
  async checkNumbers(_target: SessionTarget, phones: readonly string[]): Promise<NumberCheck[]> {
    this.numberChecks.push([...phones]);
    return phones.map((phone) => ({ phone, hasChannel: this.failures.get(phone)?.code !== 'RECIP_NOT_WHATSAPP' }));
  }

  private async operate(
    operation: SentMessageOperation,
    target: SessionTarget,
    message: SentMessageRef,
    extra: { text?: string; emoji?: string },
  ): Promise<MessageOperationResult> {
    if (!supportsOperation(operation, this.capabilities(target.setor, target.mode))) {
      throw new DomainError('UNPROCESSABLE', `fake gateway: ${target.setor.channelType} boxes cannot do ${operation}`);
    }
    this.operations.push({
      operation,
      setorId: target.setor.id,
      instanceId: target.instance.id,
      mode: target.mode,
      to: message.to,
      providerMessageId: message.providerMessageId,
      providerChatId: message.providerChatId ?? null,
      ...extra,
    });
    const failure = this.operationFailures.get(message.to);
    if (failure) {
      return { ok: false, code: failure.code, error: `scripted ${failure.code}`, providerFailure: failure.providerFailure ?? false };
    }
    return { ok: true, at: this.clock.now() };
  }
}
