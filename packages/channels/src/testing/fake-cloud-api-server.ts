import { createHmac, randomBytes } from 'node:crypto';
import { FakeProviderServer, lastFour, type FakeReply, type RecordedRequest } from './fake-server.js';

interface FakeNumber {
  phoneNumberId: string;
  accessToken: string;
  displayPhoneNumber: string;
  verifiedName: string;
  locked: boolean;
  /** Recipients (digits) who wrote within the last 24 hours. */
  windows: Set<string>;
  /** Ids of the messages this number sent, by recipient (digits), and the number's reaction to each ('' once removed). */
  sent: Map<string, { to: string; reaction: string | null }>;
}

export interface FakeCloudApiOptions {
  hangMs?: number;
}

const graphError = (status: number, code: number, message: string, details?: string, type = 'OAuthException'): FakeReply => ({
  status,
  body: {
    error: {
      message,
      type,
      code,
      ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
      fbtrace_id: randomBytes(9).toString('base64url'),
    },
  },
});

/**
 * A local stand-in for the Cloud API: `GET /{version}/{phone_number_id}`, the business profile and
 * `POST /{version}/{phone_number_id}/messages` (reaction messages included, to messages the number sent),
 * with Graph error bodies (`{ error: { message, type,
 * code, error_data, fbtrace_id } }`). It enforces bearer tokens and the 24-hour window; recipients
 * ending in 0001-0005 fail as the simulator's do.
 */
export class FakeCloudApiServer extends FakeProviderServer {
  readonly numbers = new Map<string, FakeNumber>();

  constructor(private readonly options: FakeCloudApiOptions = {}) {
    super();
  }

  /** Registers a business number the fake knows. */
  addNumber(phoneNumberId: string, accessToken: string, displayPhoneNumber = '+55 11 98888-7777', verifiedName = 'Carteiro Loja'): void {
    this.numbers.set(phoneNumberId, { phoneNumberId, accessToken, displayPhoneNumber, verifiedName, locked: false, windows: new Set(), sent: new Map() });
  }

  /** Where the fake posts its webhooks, and the app secret that signs them (`X-Hub-Signature-256`). */
  webhook: { url: string; appSecret: string } | null = null;

  /**
   * The customer writes to the number: its window opens and the fake posts the notification the
   * Cloud API sends (a text, an image by media id, or an interactive list reply). Answers the
   * receiver's status and body with the message id (`wamid.…`, random when omitted).
   */
  async customerWrites(
    phoneNumberId: string,
    input: { from: string; name?: string; text?: string; id?: string; image?: { id: string; caption?: string }; listReply?: { id: string; title: string } },
  ): Promise<{ id: string; status: number; body: unknown }> {
    const from = input.from.replace(/\D/g, '');
    this.openWindow(phoneNumberId, from);
    const id = input.id ?? `wamid.${randomBytes(24).toString('base64url')}`;
    const base = { from, id, timestamp: String(Math.floor(Date.now() / 1000)) };
    const message = input.listReply
      ? { ...base, type: 'interactive', interactive: { type: 'list_reply', list_reply: input.listReply } }
      : input.image
        ? { ...base, type: 'image', image: { id: input.image.id, mime_type: 'image/jpeg', sha256: 'x', ...(input.image.caption ? { caption: input.image.caption } : {}) } }
        : { ...base, type: 'text', text: { body: input.text ?? '' } };
    const value = {
      messaging_product: 'whatsapp',
      metadata: this.metadata(phoneNumberId),
      contacts: [{ profile: { name: input.name ?? 'Cliente' }, wa_id: from }],
      messages: [message],
    };
    return { id, ...(await this.postWebhook(value)) };
  }

  /** A status of a message the number sent (`delivered`, `read`, `failed`), as the Cloud API notifies it. */
  async messageStatus(phoneNumberId: string, messageId: string, status: 'delivered' | 'read' | 'failed'): Promise<{ status: number; body: unknown }> {
    const sent = this.numbers.get(phoneNumberId)?.sent.get(messageId);
    const value = {
      messaging_product: 'whatsapp',
      metadata: this.metadata(phoneNumberId),
      statuses: [{ id: messageId, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: sent?.to ?? '' }],
    };
    return this.postWebhook(value);
  }

  private metadata(phoneNumberId: string) {
    return { display_phone_number: (this.numbers.get(phoneNumberId)?.displayPhoneNumber ?? '').replace(/\D/g, ''), phone_number_id: phoneNumberId };
  }

  /** Posts a `whatsapp_business_account` notification of one change, signed with the app secret. */
  private async postWebhook(value: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
    if (!this.webhook) throw new Error('fake cloud api: no webhook configured');
    const raw = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: 'WABA', changes: [{ value, field: 'messages' }] }] });
    const signature = `sha256=${createHmac('sha256', this.webhook.appSecret).update(raw).digest('hex')}`;
    return this.postJson(this.webhook.url, { 'x-hub-signature-256': signature }, raw);
  }

  /** The customer `phone` writes to the number: its 24-hour window opens. */
  openWindow(phoneNumberId: string, phone: string): void {
    this.numbers.get(phoneNumberId)?.windows.add(phone.replace(/\D/g, ''));
  }

  protected handle(request: RecordedRequest): FakeReply {
    const [, version, id, edge] = request.path.split('/');
    if (!version || !/^v\d+\.\d+$/.test(version)) return graphError(400, 2500, 'Unknown path components');
    const number = this.numbers.get(id ?? '');
    if (!number) return graphError(400, 100, `Unsupported get request. Object with ID '${id}' does not exist`, undefined, 'GraphMethodException');
    if (request.headers.authorization !== `Bearer ${number.accessToken}`) {
      return graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token');
    }
    if (number.locked) return graphError(400, 131031, 'Business Account locked', 'Your account has been locked');
    if (request.method === 'GET' && edge === undefined) {
      return {
        status: 200,
        body: { verified_name: number.verifiedName, display_phone_number: number.displayPhoneNumber, id: number.phoneNumberId, quality_rating: 'GREEN' },
      };
    }
    if (request.method === 'GET' && edge === 'whatsapp_business_profile') {
      return { status: 200, body: { data: [{ about: 'Atendimento', profile_picture_url: 'https://pps.example.com/logo.jpg', messaging_product: 'whatsapp' }] } };
    }
    if (request.method === 'POST' && edge === 'messages') return this.message(number, (request.body ?? {}) as Record<string, unknown>);
    if (request.method === 'POST' && edge === 'media') return this.upload(request);
    return graphError(400, 100, 'Unsupported request', undefined, 'GraphMethodException');
  }

  /** Media ids the fake handed out, with the size of what was uploaded. */
  readonly media = new Map<string, { bytes: number; type: string }>();

  /** POST /{phone_number_id}/media: multipart with messaging_product, type and file (read as text: enough to check the parts). */
  private upload(request: RecordedRequest): FakeReply {
    const raw = typeof request.body === 'string' ? request.body : '';
    const contentType = String(request.headers['content-type'] ?? '');
    if (!contentType.startsWith('multipart/form-data') || !raw.includes('name="messaging_product"') || !raw.includes('name="file"')) {
      return graphError(400, 100, '(#100) The parameter file is required.');
    }
    const type = /name="type"\r\n\r\n([^\r]*)/.exec(raw)?.[1] ?? '';
    const id = `${this.media.size + 1}${randomBytes(6).toString('hex')}`.replace(/\D/g, '').slice(0, 15) || '1';
    this.media.set(id, { bytes: raw.length, type });
    return { status: 200, body: { id } };
  }

  private message(number: FakeNumber, body: Record<string, unknown>): FakeReply {
    if (body.messaging_product !== 'whatsapp') return graphError(400, 100, '(#100) The parameter messaging_product is required.');
    const to = String(body.to ?? '');
    const type = String(body.type ?? 'text');
    if (!['text', 'image', 'video', 'audio', 'document', 'template', 'interactive', 'reaction'].includes(type) || !body[type]) {
      return graphError(400, 131009, '(#131009) Parameter value is not valid', `${type} is not a valid message type`);
    }
    const id = `wamid.${randomBytes(24).toString('base64url')}`;
    const ok: FakeReply = {
      status: 200,
      body: { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id }] },
    };
    const reaction = type === 'reaction' ? (body.reaction as { message_id?: unknown; emoji?: unknown }) : null;
    if (reaction) {
      const target = typeof reaction.message_id === 'string' ? number.sent.get(reaction.message_id) : undefined;
      if (!target || target.to !== to || typeof reaction.emoji !== 'string') {
        return graphError(400, 131009, '(#131009) Parameter value is not valid', 'reaction.message_id does not name a message of this conversation');
      }
    }
    switch (lastFour(to)) {
      case '0001':
        return graphError(400, 131026, 'Message undeliverable', 'Message Undeliverable.');
      case '0003':
        return { ...ok, delayMs: this.options.hangMs ?? 3000 };
      case '0004':
        return graphError(500, 131000, 'Something went wrong', 'Something went wrong');
      case '0005':
        number.locked = true;
        return graphError(400, 131031, 'Business Account locked', 'Your account has been locked');
    }
    if (type !== 'template' && !number.windows.has(to)) {
      return graphError(
        400,
        131047,
        'Re-engagement message',
        'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
      );
    }
    if (reaction) number.sent.get(reaction.message_id as string)!.reaction = reaction.emoji as string;
    else number.sent.set(id, { to, reaction: null });
    return ok;
  }
}
