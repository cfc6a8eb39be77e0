import { createHash } from 'node:crypto';
import { adaptToCapabilities, DomainError, isConversationWindowOpen, needsConversationWindow, QR_LIFETIME_SECONDS, readableFailure, type ChannelCapabilities, type ChannelGateway, type ChannelSimulatorStore, type Clock, type ConversationWindowRepository, type HealthProbe, type IdGenerator, type KeyMode, type MessageOperationResult, type OutboundContent, type Profile, type ProfileUpdate, type QrCode, type Random, type SendFailureCode, type SendRequest, type SendResult, type SentMessageOperation, type SentMessageRef, type SessionState, type SessionTarget, type Setor, type SimulatedMessage, type SimulatedMessageKind, type SimulatedSessionEnd, supportsOperation, type NumberCheck } from '@carteiro/core';
import { OFFICIAL_CAPABILITIES, QR_CAPABILITIES } from '../channel-capabilities.js';
import { qrPngDataUrl } from '../qr-image.js';
import { simulatedPhoneNumber, simulatedQrContent } from './simulated-phone.js';

export interface ChannelSimulatorOptions {
  /** `SIMULATOR_SCAN_DELAY_MS`: how long after the first QR request the simulated phone scans it. */
  scanDelayMs: number;
  /** How long the session stays `connecting` after the scan; half the scan delay by default. */
  pairingMs?: number;
  /** Share of the other sends of test keys that fail; the specification's 5%. */
  testFailureRate?: number;
  /**
   * How long this process reuses a session's last end read from the store (0: read it on every call). A ban or
   * logout recorded by this process is seen at once; one recorded by another process within this delay, as with
   * a real provider whose ban is discovered on a later send.
   */
  sessionCacheMs?: number;
}

export interface ChannelSimulatorDeps {
  clock: Clock;
  ids: IdGenerator;
  random: Random;
  store: ChannelSimulatorStore;
  windows: ConversationWindowRepository;
}

/** Providers' references of simulator sessions start with this; the router sends such sessions back here. */
export const SIMULATOR_REF_PREFIX = 'sim:';

/** Recipients by their last four digits (operations.md, section 3). */
const MAGIC_RECIPIENTS: Record<string, { code: SendFailureCode; providerFailure: boolean; error: string }> = {
  '0001': { code: 'RECIP_NOT_WHATSAPP', providerFailure: false, error: 'simulated: the recipient has no account on the channel' },
  '0002': { code: 'RECIP_BLOCKED', providerFailure: false, error: 'simulated: the recipient blocked the number' },
  '0003': { code: 'TEMP_TIMEOUT', providerFailure: false, error: 'simulated: the send timed out' },
  '0004': { code: 'TEMP_SERVER_ERROR', providerFailure: true, error: 'simulated: the provider failed (HTTP 500)' },
  '0005': { code: 'SENDER_BANNED', providerFailure: false, error: 'simulated: the sending number was banned' },
};

/** The codes of the random 5% failures of test keys: recipient or temporary ones. */
const TEST_FAILURES: readonly SendFailureCode[] = ['RECIP_NOT_WHATSAPP', 'RECIP_BLOCKED', 'TEMP_TIMEOUT', 'TEMP_RATE_LIMIT'];

/**
 * The simulated channel: a real adapter used by every test key and, when no provider is configured,
 * by every setor. Its state lives in a `ChannelSimulatorStore` (PostgreSQL in production), and session
 * starts are read from the instance (`qrRequestedAt`, `connectedAt`), so any number of API and worker
 * processes see the same sessions and outbox. Sends are idempotent by `clientMessageId`.
 * Edits, deletes and reactions are outbox items too: kind `text`, with `payload.operation`
 * (`edit`, `delete`, `reaction`) and `payload.providerMessageId` naming the message they act on.
 */
export class ChannelSimulator implements ChannelGateway {
  private readonly pairingMs: number;
  private readonly testFailureRate: number;

  constructor(
    private readonly deps: ChannelSimulatorDeps,
    private readonly options: ChannelSimulatorOptions,
  ) {
    this.pairingMs = options.pairingMs ?? Math.round(options.scanDelayMs / 2);
    this.testFailureRate = options.testFailureRate ?? 0.05;
  }

  private readonly sessionEnds = new Map<string, { end: SimulatedSessionEnd | null; readAt: number }>();

  private async lastSessionEnd(instanceId: string): Promise<SimulatedSessionEnd | null> {
    const ttl = this.options.sessionCacheMs ?? 0;
    const now = this.deps.clock.now().getTime();
    const cached = this.sessionEnds.get(instanceId);
    if (ttl > 0 && cached && now - cached.readAt < ttl) return cached.end;
    const end = await this.deps.store.lastSessionEnd(instanceId);
    if (ttl > 0) this.sessionEnds.set(instanceId, { end, readAt: now });
    return end;
  }

  private async endSession(instanceId: string, end: SimulatedSessionEnd): Promise<void> {
    await this.deps.store.recordSessionEnd(instanceId, end);
    this.sessionEnds.delete(instanceId);
  }

  capabilities(setor: Setor, _mode: KeyMode): ChannelCapabilities {
    return setor.channelType === 'official' ? OFFICIAL_CAPABILITIES : QR_CAPABILITIES;
  }

  async connect(target: SessionTarget): Promise<QrCode> {
    const providerRef = `${SIMULATOR_REF_PREFIX}${target.instance.id}`;
    const state = await this.sessionState(target);
    if (state.status === 'connected' || target.setor.channelType === 'official') {
      // Official setores connect with their credentials: there is no code to scan.
      return { qrCode: null, expiresInSeconds: 0, state, providerRef };
    }
    const windowStart = target.instance.qrRequestedAt ?? this.deps.clock.now();
    const elapsedSeconds = (this.deps.clock.now().getTime() - windowStart.getTime()) / 1000;
    return {
      qrCode: await qrPngDataUrl(simulatedQrContent(target.instance.id, windowStart)),
      expiresInSeconds: Math.max(1, Math.ceil(QR_LIFETIME_SECONDS - elapsedSeconds)),
      providerRef,
    };
  }

  async sessionState(target: SessionTarget): Promise<SessionState> {
    const { instance, setor } = target;
    const start = instance.status === 'connected' ? (instance.connectedAt ?? instance.updatedAt) : instance.qrRequestedAt;
    const disconnected: SessionState = { status: 'disconnected', phoneNumber: null };
    if (start === null) return disconnected;
    const end = await this.lastSessionEnd(instance.id);
    if (end && end.at.getTime() >= start.getTime()) return disconnected;
    const phoneNumber = instance.phoneNumber ?? simulatedPhoneNumber(setor.id);
    if (instance.status === 'connected' || setor.channelType === 'official') return { status: 'connected', phoneNumber };
    const elapsed = this.deps.clock.now().getTime() - start.getTime();
    if (elapsed >= this.options.scanDelayMs + this.pairingMs) return { status: 'connected', phoneNumber };
    if (elapsed >= this.options.scanDelayMs) return { status: 'connecting', phoneNumber: null };
    return disconnected;
  }

  async disconnect(target: SessionTarget): Promise<void> {
    await this.endSession(target.instance.id, { at: this.deps.clock.now(), reason: 'logged_out' });
  }

  async probe(target: SessionTarget): Promise<HealthProbe> {
    const state = await this.sessionState(target);
    return { responding: true, connected: state.status === 'connected', error: null };
  }

  async fetchProfile(target: SessionTarget): Promise<Profile> {
    return { name: target.instance.profileName ?? target.setor.nome, pictureUrl: target.instance.profilePictureUrl };
  }

  async updateProfile(target: SessionTarget, update: ProfileUpdate): Promise<Profile> {
    const current = await this.fetchProfile(target);
    return { name: update.name ?? current.name, pictureUrl: update.pictureUrl ?? current.pictureUrl };
  }

  async send(request: SendRequest): Promise<SendResult> {
    // No look-up first: recordMessage keeps the first message of a clientMessageId and returns it, so a
    // retried send gets the original result back in the same round trip that would store a new one.
    const now = this.deps.clock.now();
    const state = await this.sessionState(request);
    const content = adaptToCapabilities(request.content, this.capabilities(request.setor, request.mode));
    const failure = await this.failureFor(request, state, content, now);
    const message: SimulatedMessage = {
      id: this.deps.ids.newId(),
      clientMessageId: request.clientMessageId,
      companyId: request.setor.companyId,
      setorId: request.setor.id,
      instanceId: request.instance.id,
      from: state.phoneNumber,
      to: request.to,
      ...describeContent(content),
      payload: {
        ...(content as unknown as Record<string, unknown>),
        ...(content.kind !== request.content.kind ? { fallbackOf: request.content.kind } : {}),
      },
      outcome: failure ? 'failed' : 'sent',
      errorCode: failure?.code ?? null,
      error: failure?.error ?? null,
      providerFailure: failure?.providerFailure ?? false,
      sentAt: now,
    };
    const { message: stored, created } = await this.deps.store.recordMessage(message);
    if (created && stored.errorCode === 'SENDER_BANNED') {
      await this.endSession(request.instance.id, { at: now, reason: 'banned' });
    }
    return resultOf(stored);
  }

  editMessage(target: SessionTarget, message: SentMessageRef & { text: string }): Promise<MessageOperationResult> {
    return this.operate('edit', target, message, message.text, { text: message.text });
  }

  deleteMessage(target: SessionTarget, message: SentMessageRef): Promise<MessageOperationResult> {
    return this.operate('delete', target, message, null, {});
  }

  react(target: SessionTarget, message: SentMessageRef & { emoji: string }): Promise<MessageOperationResult> {
    return this.operate('reaction', target, message, message.emoji === '' ? null : message.emoji, { emoji: message.emoji });
  }

  /** By the magic numbers: a number ending in 0001 has no account, every other one has. */
  async checkNumbers(_target: SessionTarget, phones: readonly string[]): Promise<NumberCheck[]> {
    return phones.map((phone) => ({ phone, hasChannel: MAGIC_RECIPIENTS[phone.replace(/\D/g, '').slice(-4)]?.code !== 'RECIP_NOT_WHATSAPP' }));
  }

  /**
   * One operation on a sent message, kept in the outbox as a `text` item (operations.md lists no kind for
   * them) whose payload names the operation and the target. It fails as the channel would: the session is
   * not connected, or (official reactions) the 24-hour window is closed. Test keys' random failures are
   * for sends only.
   */
  private async operate(
    operation: SentMessageOperation,
    target: SessionTarget,
    ref: SentMessageRef,
    text: string | null,
    extra: Record<string, unknown>,
  ): Promise<MessageOperationResult> {
    if (!supportsOperation(operation, this.capabilities(target.setor, target.mode))) {
      throw new DomainError('UNPROCESSABLE', `The ${target.setor.channelType} channel cannot ${operation === 'reaction' ? 'react to' : operation} a sent message`);
    }
    const now = this.deps.clock.now();
    const state = await this.sessionState(target);
    let failure: { code: SendFailureCode; providerFailure: boolean; error: string } | null = null;
    if (state.status !== 'connected') {
      failure = { code: 'SENDER_DISCONNECTED', providerFailure: false, error: 'simulated: the sending number is not connected' };
    } else if (target.setor.channelType === 'official') {
      const lastInbound = await this.deps.windows.lastInbound(target.setor.id, ref.to);
      if (!isConversationWindowOpen(lastInbound, now)) {
        failure = { code: 'OFFICIAL_WINDOW_EXPIRED', providerFailure: false, error: readableFailure.OFFICIAL_WINDOW_EXPIRED };
      }
    }
    const id = this.deps.ids.newId();
    await this.deps.store.recordMessage({
      id,
      clientMessageId: `${operation}:${id}`,
      companyId: target.setor.companyId,
      setorId: target.setor.id,
      instanceId: target.instance.id,
      from: state.phoneNumber,
      to: ref.to,
      kind: 'text',
      text,
      mediaUrl: null,
      mediaType: null,
      mediaFilename: null,
      templateName: null,
      payload: { operation, providerMessageId: ref.providerMessageId, ...extra },
      outcome: failure ? 'failed' : 'sent',
      errorCode: failure?.code ?? null,
      error: failure?.error ?? null,
      providerFailure: failure?.providerFailure ?? false,
      sentAt: now,
    });
    return failure ? { ok: false, ...failure } : { ok: true, at: now };
  }

  private async failureFor(
    request: SendRequest,
    state: SessionState,
    content: OutboundContent,
    now: Date,
  ): Promise<{ code: SendFailureCode; providerFailure: boolean; error: string } | null> {
    if (state.status !== 'connected') {
      return { code: 'SENDER_DISCONNECTED', providerFailure: false, error: 'simulated: the sending number is not connected' };
    }
    const magic = MAGIC_RECIPIENTS[request.to.replace(/\D/g, '').slice(-4)];
    if (magic) return magic;
    if (request.setor.channelType === 'official' && needsConversationWindow(content)) {
      const lastInbound = await this.deps.windows.lastInbound(request.setor.id, request.to);
      if (!isConversationWindowOpen(lastInbound, now)) {
        return { code: 'OFFICIAL_WINDOW_EXPIRED', providerFailure: false, error: readableFailure.OFFICIAL_WINDOW_EXPIRED };
      }
    }
    if (request.mode === 'test' && this.deps.random.next() < this.testFailureRate) {
      const code = TEST_FAILURES[Math.floor(this.deps.random.next() * TEST_FAILURES.length)] ?? 'TEMP_TIMEOUT';
      return { code, providerFailure: false, error: `simulated test-key failure: ${readableFailure[code]}` };
    }
    return null;
  }
}

function describeContent(content: OutboundContent): Pick<
  SimulatedMessage,
  'kind' | 'text' | 'mediaUrl' | 'mediaType' | 'mediaFilename' | 'templateName'
> {
  const none = { text: null, mediaUrl: null, mediaType: null, mediaFilename: null, templateName: null };
  switch (content.kind) {
    case 'text':
      return { ...none, kind: 'text', text: content.text };
    case 'media':
      return {
        ...none,
        kind: content.mediaType as SimulatedMessageKind,
        text: content.caption ?? null,
        mediaUrl: content.url,
        mediaType: content.mediaType,
        mediaFilename: content.filename ?? null,
      };
    case 'document':
      // Inline bytes are not kept: the outbox records what identifies them (size and SHA-256).
      return {
        ...none,
        kind: 'document',
        text: content.caption ?? null,
        mediaUrl: `inline:${content.mimeType};size=${content.data.byteLength};sha256=${createHash('sha256').update(content.data).digest('hex')}`,
        mediaType: 'document',
        mediaFilename: content.filename,
      };
    case 'template':
      return { ...none, kind: 'template', templateName: content.name };
    case 'interactive':
      return { ...none, kind: 'interactive', text: content.bodyText };
    case 'poll':
      return { ...none, kind: 'poll', text: content.name };
    case 'event':
      return { ...none, kind: 'event', text: content.name };
  }
}

function resultOf(message: SimulatedMessage): SendResult {
  if (message.outcome === 'sent') return { ok: true, providerMessageId: message.id, sentAt: message.sentAt };
  return {
    ok: false,
    code: message.errorCode ?? 'UNKNOWN',
    error: message.error ?? 'simulated failure',
    providerFailure: message.providerFailure,
  };
}
