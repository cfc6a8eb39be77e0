import { adaptToCapabilities, DomainError, type ChannelCapabilities, type ChannelGateway, type Clock, type HealthProbe, type KeyMode, type MessageOperationResult, type OfficialConfig, type OutboundContent, type Profile, type ProfileUpdate, type QrCode, type SendFailure, type SendFailureCode, type SendRequest, type SendResult, type SentMessageRef, type SessionState, type SessionTarget, type Setor, type NumberCheck } from '@carteiro/core';
import { OFFICIAL_CAPABILITIES } from '../channel-capabilities.js';
import { describeOutcome, JsonHttpClient, responseOutcome, type HttpOutcome } from '../http/json-http-client.js';

export interface CloudApiGatewayOptions {
  /** `OFFICIAL_API_URL` (the Graph API host). */
  baseUrl: string;
  /** Graph API version in paths. */
  version?: string;
  timeoutMs?: number;
  probeTimeoutMs?: number;
  retries?: number;
  retryBackoffMs?: (attempt: number) => number;
  fetch?: typeof fetch;
}

/** Cloud API error codes (`error.code`) and what they mean for a send. */
const ERROR_CODES: Record<number, { code: SendFailureCode; providerFailure?: boolean }> = {
  131047: { code: 'OFFICIAL_WINDOW_EXPIRED' }, // re-engagement: more than 24 hours since the customer wrote
  131026: { code: 'RECIP_NOT_WHATSAPP' }, // message undeliverable (no account, old app, terms not accepted)
  131050: { code: 'RECIP_BLOCKED' }, // the user stopped business messages
  131049: { code: 'OFFICIAL_NOT_ELIGIBLE' }, // not delivered to keep a healthy ecosystem engagement
  131030: { code: 'OFFICIAL_NOT_ELIGIBLE' }, // recipient not in the allowed list (test numbers)
  131021: { code: 'RECIP_INVALID' }, // recipient cannot be the sender
  131031: { code: 'SENDER_BANNED' }, // business account locked
  368: { code: 'SENDER_RESTRICTED' }, // temporarily blocked for policy violations
  131042: { code: 'SENDER_RESTRICTED' }, // payment issue
  190: { code: 'SENDER_AUTH' }, // access token expired or invalid
  10: { code: 'SENDER_AUTH' }, // permission denied
  200: { code: 'SENDER_AUTH' }, // permission error
  3: { code: 'SENDER_AUTH' }, // capability
  131045: { code: 'SENDER_AUTH' }, // incorrect certificate
  133010: { code: 'SENDER_DISCONNECTED' }, // phone number not registered
  133000: { code: 'SENDER_DISCONNECTED' }, // incomplete deregistration
  4: { code: 'TEMP_RATE_LIMIT' }, // API calls rate limit
  80007: { code: 'TEMP_RATE_LIMIT' }, // WABA rate limit
  130429: { code: 'TEMP_RATE_LIMIT' }, // throughput reached
  131048: { code: 'TEMP_RATE_LIMIT' }, // spam rate limit
  131056: { code: 'TEMP_RATE_LIMIT' }, // pair rate limit
  1: { code: 'TEMP_SERVER_ERROR', providerFailure: true }, // API unknown
  2: { code: 'TEMP_SERVER_ERROR', providerFailure: true }, // API service
  131000: { code: 'TEMP_SERVER_ERROR', providerFailure: true }, // something went wrong
  131016: { code: 'TEMP_SERVER_ERROR', providerFailure: true }, // service unavailable
  133004: { code: 'TEMP_SERVER_ERROR', providerFailure: true }, // server temporarily unavailable
};

/** Errors of a phone-number read that mean the number cannot send at all (not a provider outage). */
const NUMBER_UNUSABLE = new Set([190, 10, 200, 3, 100, 131031, 133010, 133000, 368]);

const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

function graphError(outcome: HttpOutcome): { code: number | null; message: string } {
  if (outcome.kind !== 'response') return { code: null, message: describeOutcome(outcome) };
  const error = asRecord(asRecord(outcome.body).error);
  const code = typeof error.code === 'number' ? error.code : null;
  const details = asRecord(error.error_data).details;
  const message = [error.message, details].filter((p) => typeof p === 'string' && p).join(': ');
  return { code, message: message || describeOutcome(outcome) };
}

/** `+55 11 99999-9999` → `+5511999999999`. */
function e164(display: unknown): string | null {
  const digits = typeof display === 'string' ? display.replace(/\D/g, '') : '';
  return digits ? `+${digits}` : null;
}

/**
 * The official channel: the Cloud API at `OFFICIAL_API_URL`, with each setor's phone number id and
 * access token. There is no QR code: a setor is connected while its number answers with its
 * credentials. The 24-hour window is enforced by the API (error 131047) and classified.
 * Reactions are reaction messages (`type: 'reaction'`, an empty emoji removes); the Cloud API cannot
 * edit or delete a sent message, so those operations are refused (`UNPROCESSABLE`) without a call.
 */
export class CloudApiGateway implements ChannelGateway {
  private readonly http: JsonHttpClient;
  private readonly version: string;
  private readonly timeoutMs: number;
  private readonly probeTimeoutMs: number;
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(
    options: CloudApiGatewayOptions,
    private readonly clock: Clock,
  ) {
    this.http = new JsonHttpClient({ baseUrl: options.baseUrl, retries: options.retries, backoffMs: options.retryBackoffMs, fetch: options.fetch });
    this.version = options.version ?? 'v21.0';
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 5_000;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? fetch;
  }

  capabilities(_setor: Setor, _mode: KeyMode): ChannelCapabilities {
    return OFFICIAL_CAPABILITIES;
  }

  async connect(target: SessionTarget): Promise<QrCode> {
    const state = await this.sessionState(target);
    if (state.status !== 'connected') {
      throw new DomainError('UNPROCESSABLE', 'The Cloud API refused the credentials of this official box; check its phone_number_id and access_token');
    }
    return { qrCode: null, expiresInSeconds: 0, state, providerRef: this.credentials(target.setor).phoneNumberId };
  }

  async sessionState(target: SessionTarget): Promise<SessionState> {
    const outcome = await this.readNumber(target.setor, this.timeoutMs);
    if (outcome.ok && outcome.kind === 'response') {
      return { status: 'connected', phoneNumber: e164(asRecord(outcome.body).display_phone_number) ?? target.instance.phoneNumber };
    }
    const { code, message } = graphError(outcome);
    if (code !== null && NUMBER_UNUSABLE.has(code)) return { status: 'disconnected', phoneNumber: null };
    throw new DomainError('PROVIDER_ERROR', `The Cloud API failed to read the phone number: ${message}`);
  }

  /** Nothing to end at the provider: the number stays registered; the setor simply stops using it. */
  async disconnect(_target: SessionTarget): Promise<void> {}

  async probe(target: SessionTarget): Promise<HealthProbe> {
    const outcome = await this.readNumber(target.setor, this.probeTimeoutMs);
    if (outcome.ok) return { responding: true, connected: true, error: null };
    const { code, message } = graphError(outcome);
    const responding = outcome.kind === 'response' && outcome.status < 500 && code !== null && NUMBER_UNUSABLE.has(code);
    return { responding, connected: false, error: message };
  }

  async fetchProfile(target: SessionTarget): Promise<Profile> {
    const { phoneNumberId } = this.credentials(target.setor);
    const [number, profile] = await Promise.all([
      this.readNumber(target.setor, this.timeoutMs),
      this.http.call({
        method: 'GET',
        path: `/${this.version}/${encodeURIComponent(phoneNumberId)}/whatsapp_business_profile`,
        query: { fields: 'about,profile_picture_url' },
        headers: this.auth(target.setor),
        timeoutMs: this.timeoutMs,
        idempotent: true,
      }),
    ]);
    if (!number.ok) throw new DomainError('PROVIDER_ERROR', `The Cloud API failed to read the profile: ${graphError(number).message}`);
    const name = asRecord(number.kind === 'response' ? number.body : null).verified_name;
    const profileBody = profile.ok && profile.kind === 'response' ? asRecord(profile.body) : {};
    const data = Array.isArray(profileBody.data) ? asRecord(profileBody.data[0]) : {};
    return { name: typeof name === 'string' ? name : null, pictureUrl: typeof data.profile_picture_url === 'string' ? data.profile_picture_url : null };
  }

  async updateProfile(_target: SessionTarget, _update: ProfileUpdate): Promise<Profile> {
    throw new DomainError(
      'UNPROCESSABLE',
      'Official numbers change their display name through Meta review and their photo through the Business Manager; not through this API',
    );
  }

  async send(request: SendRequest): Promise<SendResult> {
    const content = adaptToCapabilities(request.content, OFFICIAL_CAPABILITIES);
    // Inline documents are uploaded first (POST /{phone_number_id}/media) and sent by their media id.
    let mediaId: string | undefined;
    if (content.kind === 'document') {
      const uploaded = await this.uploadMedia(request.setor, content);
      if (typeof uploaded !== 'string') return uploaded;
      mediaId = uploaded;
    }
    const http = await this.postMessage(request.setor, cloudMessage(content, request.to.replace(/\D/g, ''), mediaId), false);
    if (!('kind' in http)) return http;
    if (http.ok && http.kind === 'response') {
      const id = asRecord((asRecord(http.body).messages as unknown[] | undefined)?.[0]).id;
      return { ok: true, providerMessageId: typeof id === 'string' ? id : request.clientMessageId, sentAt: this.clock.now() };
    }
    return classify(http);
  }

  async editMessage(target: SessionTarget, _message: SentMessageRef & { text: string }): Promise<MessageOperationResult> {
    throw unsupported(target, 'edit');
  }

  async deleteMessage(target: SessionTarget, _message: SentMessageRef): Promise<MessageOperationResult> {
    throw unsupported(target, 'delete');
  }

  async react(target: SessionTarget, message: SentMessageRef & { emoji: string }): Promise<MessageOperationResult> {
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: message.to.replace(/\D/g, ''),
      type: 'reaction',
      reaction: { message_id: message.providerMessageId, emoji: message.emoji },
    };
    // A reaction sets a state: repeating it after a lost answer changes nothing, so it is retried like a read.
    const http = await this.postMessage(target.setor, body, true);
    if (!('kind' in http)) return http;
    return http.ok ? { ok: true, at: this.clock.now() } : classify(http);
  }

  /** The Cloud API has no lookup of whether a number has an account (only a send tells): null for each. */
  async checkNumbers(_target: SessionTarget, phones: readonly string[]): Promise<NumberCheck[]> {
    return phones.map((phone) => ({ phone, hasChannel: null }));
  }

  /** Uploads an inline document (multipart, as the Cloud API's media endpoint takes it); its media id, or a classified failure. */
  private async uploadMedia(setor: Setor, content: Extract<OutboundContent, { kind: 'document' }>): Promise<string | SendFailure> {
    const credentials = this.sendCredentials(setor);
    if ('ok' in credentials) return credentials;
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', content.mimeType);
    form.set('file', new Blob([content.data], { type: content.mimeType }), content.filename);
    let outcome: HttpOutcome;
    try {
      const response = await this.fetchImpl(`${this.baseUrl}/${this.version}/${encodeURIComponent(credentials.phoneNumberId)}/media`, {
        method: 'POST',
        headers: this.auth(setor),
        body: form,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      outcome = await responseOutcome(response);
    } catch (error) {
      const name = (error as { name?: unknown }).name;
      outcome = name === 'TimeoutError' || name === 'AbortError' ? { kind: 'timeout', ok: false } : { kind: 'network', ok: false, error: String(error) };
    }
    const id = outcome.kind === 'response' && outcome.ok ? asRecord(outcome.body).id : null;
    return typeof id === 'string' ? id : classify(outcome);
  }

  /** POST /{version}/{phone_number_id}/messages; a setor without credentials fails (a `SendFailure`, no `kind`) as SENDER_AUTH without a call. */
  private async postMessage(setor: Setor, body: Record<string, unknown>, idempotent: boolean): Promise<HttpOutcome | SendFailure> {
    const credentials = this.sendCredentials(setor);
    if ('ok' in credentials) return credentials;
    return this.http.call({
      method: 'POST',
      path: `/${this.version}/${encodeURIComponent(credentials.phoneNumberId)}/messages`,
      body,
      headers: this.auth(setor),
      timeoutMs: this.timeoutMs,
      idempotent,
    });
  }

  private credentials(setor: Setor): OfficialConfig {
    if (!setor.official) throw new DomainError('UNPROCESSABLE', 'This box has no official credentials (phone_number_id, access_token)');
    return setor.official;
  }

  /** The credentials a send uses; a setor without them fails the send as SENDER_AUTH (a `SendFailure`, no call made). */
  private sendCredentials(setor: Setor): OfficialConfig | SendFailure {
    try {
      return this.credentials(setor);
    } catch (error) {
      return { ok: false, code: 'SENDER_AUTH', error: (error as Error).message, providerFailure: false };
    }
  }

  private auth(setor: Setor): Record<string, string> {
    return { authorization: `Bearer ${this.credentials(setor).accessToken}` };
  }

  private readNumber(setor: Setor, timeoutMs: number): Promise<HttpOutcome> {
    return this.http.call({
      method: 'GET',
      path: `/${this.version}/${encodeURIComponent(this.credentials(setor).phoneNumberId)}`,
      query: { fields: 'display_phone_number,verified_name,quality_rating' },
      headers: this.auth(setor),
      timeoutMs,
      idempotent: true,
    });
  }
}

/** A failed message call, classified by the Graph error code. */
function classify(outcome: HttpOutcome): SendFailure {
  const error = describeOutcome(outcome);
  if (outcome.kind === 'timeout') return { ok: false, code: 'TEMP_TIMEOUT', error, providerFailure: true };
  if (outcome.kind === 'network') return { ok: false, code: 'TEMP_NETWORK', error, providerFailure: true };
  const { code, message } = graphError(outcome);
  const known = code !== null ? ERROR_CODES[code] : undefined;
  if (known) return { ok: false, code: known.code, error: message, providerFailure: known.providerFailure ?? false };
  if (outcome.status === 429) return { ok: false, code: 'TEMP_RATE_LIMIT', error: message, providerFailure: false };
  if (outcome.status >= 500) return { ok: false, code: 'TEMP_SERVER_ERROR', error: message, providerFailure: true };
  if (outcome.status === 401 || outcome.status === 403) return { ok: false, code: 'SENDER_AUTH', error: message, providerFailure: false };
  return { ok: false, code: 'UNKNOWN', error: message, providerFailure: false };
}

function unsupported(target: SessionTarget, operation: 'edit' | 'delete'): DomainError {
  return new DomainError('UNPROCESSABLE', `The Cloud API cannot ${operation} a sent message (official box ${target.setor.id})`);
}

/** The Cloud API body of one message (content already adapted: no polls or events reach here). */
export function cloudMessage(content: OutboundContent, to: string, mediaId?: string): Record<string, unknown> {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to };
  switch (content.kind) {
    case 'document':
      return { ...base, type: 'document', document: { id: mediaId, filename: content.filename, ...(content.caption ? { caption: content.caption } : {}) } };
    case 'media':
      return {
        ...base,
        type: content.mediaType,
        [content.mediaType]: {
          link: content.url,
          ...(content.caption && content.mediaType !== 'audio' ? { caption: content.caption } : {}),
          ...(content.filename && content.mediaType === 'document' ? { filename: content.filename } : {}),
        },
      };
    case 'template':
      return { ...base, type: 'template', template: { name: content.name, language: { code: content.language }, components: content.components } };
    case 'interactive':
      if (content.interactiveType === 'button') {
        return {
          ...base,
          type: 'interactive',
          interactive: {
            type: 'button',
            body: { text: content.bodyText },
            action: { buttons: (content.buttons ?? []).map((b) => ({ type: 'reply', reply: { id: b.id, title: b.title } })) },
          },
        };
      }
      return {
        ...base,
        type: 'interactive',
        interactive: {
          type: 'list',
          body: { text: content.bodyText },
          action: {
            button: content.buttonText ?? 'Opções',
            sections: (content.sections ?? []).map((s) => ({
              ...(s.title ? { title: s.title } : {}),
              rows: s.rows.map((r) => ({ id: r.id, title: r.title, ...(r.description ? { description: r.description } : {}) })),
            })),
          },
        },
      };
    case 'text':
      return { ...base, type: 'text', text: { preview_url: false, body: content.text } };
    default:
      return { ...base, type: 'text', text: { preview_url: false, body: JSON.stringify(content) } };
  }
}
