import { adaptToCapabilities, DomainError, type ChannelCapabilities, type ChannelGateway, type ChannelInstance, type Clock, type HealthProbe, type KeyMode, type MessageOperationResult, type OutboundContent, type Profile, type ProfileUpdate, type QrCode, type SendFailure, type SendFailureCode, type SendRequest, type SendResult, type SentMessageRef, type SessionState, type SessionTarget, type Setor, type NumberCheck } from '@carteiro/core';
import { QR_CAPABILITIES } from '../channel-capabilities.js';
import { describeOutcome, JsonHttpClient, type HttpOutcome } from '../http/json-http-client.js';
import { isPngDataUrl, qrPngDataUrl } from '../qr-image.js';
import { proxyForInstance, type EvolutionProxy } from './evolution-proxy.js';

export interface EvolutionGatewayOptions {
  /** `QR_PROVIDER_URL`. */
  baseUrl: string;
  /** `QR_PROVIDER_API_KEY`, sent as the `apikey` header. */
  apiKey?: string;
  /** Per-call timeout of sends and session calls. */
  timeoutMs?: number;
  /** Per-call timeout of health probes. */
  probeTimeoutMs?: number;
  /** Extra attempts of safe calls (reads, logout). */
  retries?: number;
  retryBackoffMs?: (attempt: number) => number;
  /** Send interactive buttons and lists natively (`sendButtons`/`sendList`); off: numbered text, as the channel requires. */
  nativeInteractive?: boolean;
  /** `QR_PROVIDER_PROXIES`: each session goes through one of them (picked by instance id); empty: direct. */
  proxies?: readonly EvolutionProxy[];
  /** Pause between number-check calls of 50 numbers (default 1 s). */
  numberCheckPauseMs?: number;
  fetch?: typeof fetch;
}

/** Numbers per `chat/whatsappNumbers` call. */
export const NUMBER_CHECK_BATCH = 50;

/** Baileys' disconnect reasons, as Evolution reports them in `disconnectionReasonCode`. */
const DISCONNECT_REASONS: Record<number, SendFailureCode> = {
  401: 'SENDER_DISCONNECTED', // logged out from the phone
  403: 'SENDER_BANNED', // forbidden: the number was banned
  411: 'SENDER_CORRUPT', // multi-device mismatch
  440: 'SENDER_REPLACED', // session opened elsewhere
  500: 'SENDER_CORRUPT', // bad session
};

interface EvolutionInstanceDetails {
  name?: string;
  connectionStatus?: string;
  ownerJid?: string | null;
  profileName?: string | null;
  profilePicUrl?: string | null;
  disconnectionReasonCode?: number | string | null;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The error texts of an Evolution error body (`{ status, error, response: { message } }`). */
function errorTexts(body: unknown): string {
  const message = asRecord(asRecord(body).response).message ?? asRecord(body).message ?? body;
  return JSON.stringify(message ?? '');
}

function phoneFromJid(jid: string | null | undefined): string | null {
  const digits = jid?.split('@')[0]?.split(':')[0]?.replace(/\D/g, '');
  return digits ? `+${digits}` : null;
}

/**
 * The QR provider: an Evolution-API-compatible server (v2 routes). Each setor's session is one
 * provider instance named `carteiro-<instance id>`; sessions, QR codes, sends and profiles go
 * through its REST API with the `apikey` header. Reads and logouts are retried; sends are not.
 * Sent messages are edited (`chat/updateMessage`), deleted for everyone (`chat/deleteMessageForEveryone`)
 * and reacted to (`message/sendReaction`) by their key `{ remoteJid, fromMe: true, id }`. Edits and
 * reactions set a state, so they are retried like reads; a delete is not (a repeat may find it gone).
 */
export class EvolutionGateway implements ChannelGateway {
  private readonly http: JsonHttpClient;
  private readonly timeoutMs: number;
  private readonly probeTimeoutMs: number;

  constructor(
    private readonly options: EvolutionGatewayOptions,
    private readonly clock: Clock,
  ) {
    this.http = new JsonHttpClient({
      baseUrl: options.baseUrl,
      headers: options.apiKey ? { apikey: options.apiKey } : {},
      retries: options.retries,
      backoffMs: options.retryBackoffMs,
      fetch: options.fetch,
    });
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 5_000;
  }

  /** The provider's instance name of a session. */
  static instanceName(instance: ChannelInstance): string {
    return instance.providerRef && !instance.providerRef.startsWith('sim:') ? instance.providerRef : `carteiro-${instance.id}`;
  }

  capabilities(_setor: Setor, _mode: KeyMode): ChannelCapabilities {
    return { ...QR_CAPABILITIES, interactive: this.options.nativeInteractive ?? false, events: false };
  }

  /** The Baileys key of a message this number sent: the chat's JID (as the send answered it, else from the number). */
  static messageKey(message: SentMessageRef): { remoteJid: string; fromMe: true; id: string } {
    const remoteJid = message.providerChatId || `${message.to.replace(/\D/g, '')}@s.whatsapp.net`;
    return { remoteJid, fromMe: true, id: message.providerMessageId };
  }

  /** The proxy a session goes through (`QR_PROVIDER_PROXIES`, picked by instance id); null: direct. */
  proxyOf(instance: ChannelInstance): EvolutionProxy | null {
    return proxyForInstance(instance.id, this.options.proxies ?? []);
  }

  /**
   * Asks for a QR code, creating the provider instance on first use. With proxies configured, a new
   * provider instance is created with its proxy (Evolution's `proxyHost`/`proxyPort`/… create fields,
   * so its first connection already goes through it), and one created earlier without a proxy gets
   * it through `POST /proxy/set/{instance}` before the code is asked for (Evolution applies a proxy
   * when the session next connects). A proxy the provider refuses (it tests each one) fails the call
   * with PROVIDER_ERROR rather than connecting the number directly.
   */
  async connect(target: SessionTarget): Promise<QrCode> {
    const name = EvolutionGateway.instanceName(target.instance);
    const path = `/instance/connect/${encodeURIComponent(name)}`;
    const proxy = this.proxyOf(target.instance);
    let proxyConfigured: boolean | undefined;
    const setProxy = async (): Promise<'set' | 'no-instance'> => {
      const outcome = await this.http.call({
        method: 'POST',
        path: `/proxy/set/${encodeURIComponent(name)}`,
        body: { enabled: true, ...proxy },
        timeoutMs: this.timeoutMs,
        idempotent: true,
      });
      if (outcome.kind === 'response' && outcome.status === 404) return 'no-instance';
      if (!outcome.ok) throw providerError('set the proxy of', outcome);
      proxyConfigured = true;
      return 'set';
    };
    if (proxy && !target.instance.proxyConfigured && target.instance.providerRef === name) await setProxy();
    let outcome = await this.http.call({ method: 'GET', path, timeoutMs: this.timeoutMs, idempotent: true });
    let qrSource: unknown = outcome.kind === 'response' ? outcome.body : null;
    if (outcome.kind === 'response' && outcome.status === 404) {
      const created = await this.http.call({
        method: 'POST',
        path: '/instance/create',
        body: {
          instanceName: name,
          qrcode: true,
          integration: 'WHATSAPP-BAILEYS',
          ...(proxy
            ? {
                proxyHost: proxy.host,
                proxyPort: proxy.port,
                proxyProtocol: proxy.protocol,
                ...(proxy.username !== undefined ? { proxyUsername: proxy.username } : {}),
                ...(proxy.password !== undefined ? { proxyPassword: proxy.password } : {}),
              }
            : {}),
        },
        timeoutMs: this.timeoutMs,
        idempotent: false,
      });
      // 403 "name already in use": another process created it meanwhile; ask for its code.
      if (created.kind === 'response' && created.status === 403) {
        outcome = await this.http.call({ method: 'GET', path, timeoutMs: this.timeoutMs, idempotent: true });
        qrSource = outcome.kind === 'response' ? outcome.body : null;
      } else {
        outcome = created;
        qrSource = created.kind === 'response' ? asRecord(created.body).qrcode : null;
        if (created.ok && proxy) proxyConfigured = true;
      }
    }
    if (!outcome.ok) throw providerError('connect', outcome);
    // An instance this adapter did not know it had created (a lost answer): its proxy applies from its next connection.
    if (proxy && !target.instance.proxyConfigured && proxyConfigured === undefined) await setProxy();
    const proxyField = proxyConfigured === undefined ? {} : { proxyConfigured };
    const body = asRecord(qrSource);
    if (asRecord(body.instance).state === 'open') {
      return { qrCode: null, expiresInSeconds: 0, state: await this.sessionState(target), providerRef: name, ...proxyField };
    }
    const qrCode = isPngDataUrl(body.base64) ? body.base64 : typeof body.code === 'string' && body.code ? await qrPngDataUrl(body.code) : null;
    if (!qrCode) throw new DomainError('PROVIDER_ERROR', 'The QR provider returned no QR code; try again in a few seconds');
    return { qrCode, expiresInSeconds: 60, providerRef: name, ...proxyField };
  }

  async sessionState(target: SessionTarget): Promise<SessionState> {
    const name = EvolutionGateway.instanceName(target.instance);
    const outcome = await this.connectionState(name, this.timeoutMs);
    if (outcome.kind === 'response' && outcome.status === 404) return { status: 'disconnected', phoneNumber: null };
    if (!outcome.ok) throw providerError('read the session of', outcome);
    const state = asRecord(asRecord(outcome.body).instance).state;
    if (state === 'open') {
      const details = await this.details(name);
      return { status: 'connected', phoneNumber: phoneFromJid(details?.ownerJid) ?? target.instance.phoneNumber };
    }
    return { status: state === 'connecting' ? 'connecting' : 'disconnected', phoneNumber: null };
  }

  async disconnect(target: SessionTarget): Promise<void> {
    const name = EvolutionGateway.instanceName(target.instance);
    const outcome = await this.http.call({ method: 'DELETE', path: `/instance/logout/${encodeURIComponent(name)}`, timeoutMs: this.timeoutMs, idempotent: true });
    // 404: no such instance; 400: not connected. Either way the session is gone.
    if (outcome.kind === 'response' && (outcome.ok || outcome.status === 404 || outcome.status === 400)) return;
    throw providerError('log out', outcome);
  }

  async probe(target: SessionTarget): Promise<HealthProbe> {
    const outcome = await this.connectionState(EvolutionGateway.instanceName(target.instance), this.probeTimeoutMs);
    if (outcome.kind === 'response' && outcome.status === 404) return { responding: true, connected: false, error: 'no session at the provider' };
    if (!outcome.ok) return { responding: false, connected: false, error: describeOutcome(outcome) };
    const state = asRecord(asRecord(outcome.body).instance).state;
    return { responding: true, connected: state === 'open', error: state === 'open' ? null : `session ${String(state)}` };
  }

  async fetchProfile(target: SessionTarget): Promise<Profile> {
    const details = await this.details(EvolutionGateway.instanceName(target.instance), true);
    return { name: details?.profileName ?? null, pictureUrl: details?.profilePicUrl ?? null };
  }

  async updateProfile(target: SessionTarget, update: ProfileUpdate): Promise<Profile> {
    const name = encodeURIComponent(EvolutionGateway.instanceName(target.instance));
    if (update.name !== undefined) {
      const outcome = await this.http.call({ method: 'POST', path: `/chat/updateProfileName/${name}`, body: { name: update.name }, timeoutMs: this.timeoutMs, idempotent: true });
      if (!outcome.ok) throw providerError('update the profile name of', outcome);
    }
    if (update.pictureUrl !== undefined) {
      const outcome = await this.http.call({ method: 'POST', path: `/chat/updateProfilePicture/${name}`, body: { picture: update.pictureUrl }, timeoutMs: this.timeoutMs, idempotent: true });
      if (!outcome.ok) throw providerError('update the profile picture of', outcome);
    }
    const needsCurrent = update.name === undefined || update.pictureUrl === undefined;
    const current = needsCurrent ? await this.fetchProfile(target) : { name: null, pictureUrl: null };
    return { name: update.name ?? current.name, pictureUrl: update.pictureUrl ?? current.pictureUrl };
  }

  async send(request: SendRequest): Promise<SendResult> {
    const name = encodeURIComponent(EvolutionGateway.instanceName(request.instance));
    const content = adaptToCapabilities(request.content, this.capabilities(request.setor, request.mode));
    const number = request.to.replace(/\D/g, '');
    if (request.earlierAttemptSince) {
      const earlier = await this.findEarlierSend(decodeURIComponent(name), number, content, request.earlierAttemptSince);
      if (earlier) return earlier;
    }
    const { route, body } = evolutionMessage(content, number);
    const outcome = await this.http.call({ method: 'POST', path: `/message/${route}/${name}`, body, timeoutMs: this.timeoutMs, idempotent: false });
    if (outcome.ok && outcome.kind === 'response') {
      const key = asRecord(asRecord(outcome.body).key);
      const timestamp = Number(asRecord(outcome.body).messageTimestamp);
      return {
        ok: true,
        providerMessageId: typeof key.id === 'string' && key.id ? key.id : request.clientMessageId,
        sentAt: Number.isFinite(timestamp) && timestamp > 0 ? new Date(timestamp * 1000) : this.clock.now(),
        // The JID the provider resolved (a Brazilian number may lose its ninth digit): edits and reactions need it.
        ...(typeof key.remoteJid === 'string' && key.remoteJid ? { providerChatId: key.remoteJid } : {}),
      };
    }
    return this.classify(outcome, decodeURIComponent(name));
  }

  editMessage(target: SessionTarget, message: SentMessageRef & { text: string }): Promise<MessageOperationResult> {
    const key = EvolutionGateway.messageKey(message);
    return this.operate(target, 'POST', 'chat/updateMessage', { number: message.to.replace(/\D/g, ''), key, text: message.text }, true);
  }

  deleteMessage(target: SessionTarget, message: SentMessageRef): Promise<MessageOperationResult> {
    const { remoteJid, fromMe, id } = EvolutionGateway.messageKey(message);
    return this.operate(target, 'DELETE', 'chat/deleteMessageForEveryone', { id, remoteJid, fromMe }, false);
  }

  react(target: SessionTarget, message: SentMessageRef & { emoji: string }): Promise<MessageOperationResult> {
    return this.operate(target, 'POST', 'message/sendReaction', { key: EvolutionGateway.messageKey(message), reaction: message.emoji }, true);
  }

  /**
   * `POST /chat/whatsappNumbers/{instance}` with `{ numbers }` (digits), at most 50 numbers a call and
   * `numberCheckPauseMs` (1 s) between calls, so a long list does not look like a scrape to the channel.
   * Answers `[{ exists, jid, number }]`; a number missing from the answer reads null.
   */
  async checkNumbers(target: SessionTarget, phones: readonly string[]): Promise<NumberCheck[]> {
    const name = encodeURIComponent(EvolutionGateway.instanceName(target.instance));
    const found = new Map<string, boolean>();
    const pauseMs = this.options.numberCheckPauseMs ?? 1000;
    for (let start = 0; start < phones.length; start += NUMBER_CHECK_BATCH) {
      if (start > 0 && pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      const numbers = phones.slice(start, start + NUMBER_CHECK_BATCH).map((p) => p.replace(/\D/g, ''));
      const outcome = await this.http.call({ method: 'POST', path: `/chat/whatsappNumbers/${name}`, body: { numbers }, timeoutMs: this.timeoutMs, idempotent: true });
      if (!outcome.ok || outcome.kind !== 'response') throw providerError('check numbers through', outcome);
      const answers = Array.isArray(outcome.body) ? outcome.body.map(asRecord) : [];
      answers.forEach((answer, i) => {
        const digits = String(answer.number ?? phoneFromJid(answer.jid as string | undefined) ?? numbers[i] ?? '').replace(/\D/g, '');
        if (typeof answer.exists === 'boolean') found.set(digits, answer.exists);
      });
    }
    return phones.map((phone) => ({ phone, hasChannel: found.get(phone.replace(/\D/g, '')) ?? null }));
  }

  private async operate(
    target: SessionTarget,
    method: 'POST' | 'DELETE',
    route: string,
    body: Record<string, unknown>,
    idempotent: boolean,
  ): Promise<MessageOperationResult> {
    const name = EvolutionGateway.instanceName(target.instance);
    const outcome = await this.http.call({ method, path: `/${route}/${encodeURIComponent(name)}`, body, timeoutMs: this.timeoutMs, idempotent });
    if (outcome.ok) return { ok: true, at: this.clock.now() };
    return this.classify(outcome, name);
  }

  private async classify(outcome: HttpOutcome, name: string): Promise<SendFailure> {
    const fail = (code: SendFailureCode, providerFailure = false): SendFailure => ({ ok: false, code, error: describeOutcome(outcome), providerFailure });
    if (outcome.kind === 'timeout') return fail('TEMP_TIMEOUT', true);
    if (outcome.kind === 'network') return fail('TEMP_NETWORK', true);
    const text = errorTexts(outcome.body);
    if (outcome.status === 401 || outcome.status === 403) return fail('SENDER_AUTH');
    if (outcome.status === 404) return fail('SENDER_DISCONNECTED');
    if (outcome.status === 429) return fail('TEMP_RATE_LIMIT');
    if (/"exists"\s*:\s*false/.test(text)) return fail('RECIP_NOT_WHATSAPP');
    if (/block/i.test(text)) return fail('RECIP_BLOCKED');
    if (/connection closed|not connected|connection lost|logged ?out/i.test(text)) {
      // Why the session closed tells a ban from a lost or replaced session.
      const details = await this.details(name);
      const reason = Number(details?.disconnectionReasonCode);
      return fail(DISCONNECT_REASONS[reason] ?? 'SENDER_DISCONNECTED');
    }
    if (/reconnect/i.test(text)) return fail('TEMP_RECONNECTING');
    if (/rate.?limit|too many/i.test(text)) return fail('TEMP_RATE_LIMIT');
    if (outcome.status >= 500) return fail('TEMP_SERVER_ERROR', true);
    if (/invalid.*(number|jid)|(number|jid).*invalid/i.test(text)) return fail('RECIP_INVALID');
    return fail('UNKNOWN');
  }

  /**
   * A resend after a crash: Evolution does not hand our id to WhatsApp (its send body's `messageId` is
   * not used by the Baileys integration), so the earlier attempt is looked for among the messages this
   * number sent to the chat since `since` (`POST /chat/findMessages/{instance}`, by `key.remoteJid` and
   * `fromMe`, within a timestamp window), matched by content. Found: its result, nothing is sent. Not
   * found, or the lookup is not available (404): null, the caller sends. The lookup failing otherwise
   * (5xx, timeout, network) is a temporary failure, so the message is retried later instead of risking
   * a second copy.
   */
  private async findEarlierSend(name: string, number: string, content: OutboundContent, since: Date): Promise<SendResult | null> {
    const now = this.clock.now();
    const fromSeconds = Math.floor(since.getTime() / 1000);
    for (const remoteJid of chatJids(number)) {
      const outcome = await this.http.call({
        method: 'POST',
        path: `/chat/findMessages/${encodeURIComponent(name)}`,
        body: {
          where: {
            key: { remoteJid, fromMe: true },
            messageTimestamp: { gte: new Date(fromSeconds * 1000).toISOString(), lte: new Date(now.getTime() + 60_000).toISOString() },
          },
          page: 1,
          offset: 100,
        },
        timeoutMs: this.timeoutMs,
        idempotent: true,
      });
      if (outcome.kind === 'response' && outcome.status === 404) return null;
      if (!outcome.ok || outcome.kind !== 'response') {
        const failure = await this.classify(outcome, name);
        return { ...failure, error: `looking up an earlier attempt before resending: ${failure.error}` };
      }
      const body = asRecord(outcome.body);
      const records: unknown[] = Array.isArray(outcome.body) ? outcome.body : Array.isArray(asRecord(body.messages).records) ? (asRecord(body.messages).records as unknown[]) : [];
      for (const raw of records) {
        const record = asRecord(raw);
        const key = asRecord(record.key);
        const timestamp = Number(record.messageTimestamp);
        if (key.fromMe !== true || typeof key.id !== 'string' || !key.id) continue;
        if (!Number.isFinite(timestamp) || timestamp < fromSeconds) continue;
        if (!sameContent(asRecord(record.message), content)) continue;
        return {
          ok: true,
          providerMessageId: key.id,
          sentAt: new Date(timestamp * 1000),
          ...(typeof key.remoteJid === 'string' && key.remoteJid ? { providerChatId: key.remoteJid } : {}),
        };
      }
    }
    return null;
  }

  private connectionState(name: string, timeoutMs: number): Promise<HttpOutcome> {
    return this.http.call({ method: 'GET', path: `/instance/connectionState/${encodeURIComponent(name)}`, timeoutMs, idempotent: true });
  }

  /** The instance as `fetchInstances` lists it (v2 shape; v1's nested `instance` is read too). */
  private async details(name: string, strict = false): Promise<EvolutionInstanceDetails | null> {
    const outcome = await this.http.call({
      method: 'GET',
      path: '/instance/fetchInstances',
      query: { instanceName: name },
      timeoutMs: this.timeoutMs,
      idempotent: true,
    });
    if (!outcome.ok) {
      if (strict) throw providerError('read the profile of', outcome);
      return null;
    }
    const body = outcome.kind === 'response' ? outcome.body : null;
    const list: unknown[] = Array.isArray(body) ? body : [];
    const raw = list.map(asRecord).find((item) => (item.name ?? asRecord(item.instance).instanceName) === name) ?? asRecord(list[0]);
    const v1 = asRecord(raw.instance);
    return {
      name: (raw.name ?? v1.instanceName) as string | undefined,
      connectionStatus: (raw.connectionStatus ?? v1.status) as string | undefined,
      ownerJid: (raw.ownerJid ?? v1.owner ?? null) as string | null,
      profileName: (raw.profileName ?? v1.profileName ?? null) as string | null,
      profilePicUrl: (raw.profilePicUrl ?? v1.profilePictureUrl ?? null) as string | null,
      disconnectionReasonCode: (raw.disconnectionReasonCode ?? null) as number | null,
    };
  }
}

/** The JIDs a chat with `digits` may have: a Brazilian mobile may be known with or without its ninth digit. */
function chatJids(digits: string): string[] {
  const withNinth = /^55(\d\d)9(\d{8})$/.exec(digits);
  const withoutNinth = /^55(\d\d)([6-9]\d{7})$/.exec(digits);
  const numbers = withNinth ? [digits, `55${withNinth[1]}${withNinth[2]}`] : withoutNinth ? [digits, `55${withoutNinth[1]}9${withoutNinth[2]}`] : [digits];
  return numbers.map((n) => `${n}@s.whatsapp.net`);
}

/** Whether a stored WhatsApp message (Baileys' `message` object) is the content about to be sent. */
function sameContent(message: Record<string, unknown>, content: OutboundContent): boolean {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  switch (content.kind) {
    case 'text':
      return text(message.conversation) === content.text || text(asRecord(message.extendedTextMessage).text) === content.text;
    case 'media': {
      const stored = asRecord(message[`${content.mediaType}Message`]);
      if (Object.keys(stored).length === 0) return false;
      // Audio carries no caption; the others match on theirs (absent on both sides counts as the same).
      return content.mediaType === 'audio' || (text(stored.caption) ?? '') === (content.caption ?? '');
    }
    case 'poll': {
      const poll = asRecord(message.pollCreationMessageV3 ?? message.pollCreationMessageV2 ?? message.pollCreationMessage);
      return text(poll.name) === content.name;
    }
    default:
      // Buttons and lists are stored in shapes that differ between versions: not matched, so sent again.
      return false;
  }
}

const MIME_BY_TYPE: Record<string, string> = { image: 'image/jpeg', video: 'video/mp4', audio: 'audio/ogg', document: 'application/pdf' };

/** The Evolution route and body of one channel message (content already adapted to the channel). */
export function evolutionMessage(content: OutboundContent, number: string): { route: string; body: Record<string, unknown> } {
  switch (content.kind) {
    case 'media':
      if (content.mediaType === 'audio') return { route: 'sendWhatsAppAudio', body: { number, audio: content.url } };
      return {
        route: 'sendMedia',
        body: {
          number,
          mediatype: content.mediaType,
          mimetype: MIME_BY_TYPE[content.mediaType],
          media: content.url,
          ...(content.caption ? { caption: content.caption } : {}),
          ...(content.filename ? { fileName: content.filename } : {}),
        },
      };
    case 'document':
      // Evolution takes inline media as base64 in the same field as a URL.
      return {
        route: 'sendMedia',
        body: {
          number,
          mediatype: 'document',
          mimetype: content.mimeType,
          media: Buffer.from(content.data).toString('base64'),
          fileName: content.filename,
          ...(content.caption ? { caption: content.caption } : {}),
        },
      };
    case 'poll':
      return {
        route: 'sendPoll',
        body: { number, name: content.name, selectableCount: content.multipleAnswers ? content.options.length : 1, values: content.options },
      };
    case 'interactive':
      if (content.interactiveType === 'button') {
        return {
          route: 'sendButtons',
          body: {
            number,
            title: content.bodyText,
            description: content.bodyText,
            buttons: (content.buttons ?? []).map((b) => ({ type: 'reply', displayText: b.title, id: b.id })),
          },
        };
      }
      return {
        route: 'sendList',
        body: {
          number,
          title: content.bodyText,
          description: content.bodyText,
          buttonText: content.buttonText ?? 'Opções',
          footerText: '',
          sections: (content.sections ?? []).map((s) => ({
            title: s.title ?? '',
            rows: s.rows.map((r) => ({ title: r.title, description: r.description ?? '', rowId: r.id })),
          })),
        },
      };
    case 'text':
      return { route: 'sendText', body: { number, text: content.text } };
    default:
      // Templates and event cards never reach here: `adaptToCapabilities` turned them into text.
      return { route: 'sendText', body: { number, text: JSON.stringify(content) } };
  }
}

function providerError(action: string, outcome: HttpOutcome): DomainError {
  return new DomainError('PROVIDER_ERROR', `The QR provider failed to ${action} the session: ${describeOutcome(outcome)}`);
}
