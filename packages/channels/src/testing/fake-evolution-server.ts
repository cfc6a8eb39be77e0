import { randomBytes, randomUUID } from 'node:crypto';
import { qrPngDataUrl } from '../qr-image.js';
import { FakeProviderServer, lastFour, type FakeReply, type RecordedRequest } from './fake-server.js';

interface FakeEvolutionInstance {
  id: string;
  name: string;
  state: 'close' | 'connecting' | 'open';
  ownerJid: string | null;
  profileName: string | null;
  profilePicUrl: string | null;
  disconnectionReasonCode: number | null;
  qrCount: number;
  /** The proxy set at creation or through `/proxy/set` (Evolution's `ProxyDto`); null: direct. */
  proxy: FakeEvolutionProxy | null;
}

/** A proxy as Evolution stores it. */
export interface FakeEvolutionProxy {
  enabled: boolean;
  host: string;
  port: string;
  protocol: string;
  username?: string;
  password?: string;
}

/** A message the fake sent, as later edits, deletes and reactions find it by its key. */
export interface FakeEvolutionMessage {
  instance: string;
  remoteJid: string;
  text: string | null;
  edited: boolean;
  revoked: boolean;
  /** The owner's reaction ('' or null: none). */
  reaction: string | null;
  /** The key id, the WhatsApp message (Baileys' `message` object) and its type, as `findMessages` lists them. */
  id: string;
  message: Record<string, unknown>;
  messageType: string;
  /** Unix seconds. */
  messageTimestamp: number;
}

export interface FakeEvolutionOptions {
  apiKey?: string;
  /** How long the scripted timeout recipient (…0003) is kept waiting. */
  hangMs?: number;
  /** Proxies whose host is listed here fail Evolution's proxy test (400 "Invalid proxy"). */
  deadProxyHosts?: string[];
}

const err = (status: number, message: unknown): FakeReply => ({
  status,
  body: { status, error: { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error' }[status] ?? 'Error', response: { message } },
});

/**
 * A local stand-in for an Evolution API v2 server: instance create/connect/connectionState/
 * fetchInstances/logout, profile name and picture, and sendText/sendMedia/sendWhatsAppAudio/
 * sendButtons/sendList/sendPoll, chat/updateMessage, chat/deleteMessageForEveryone and
 * message/sendReaction (by the key `{ remoteJid, fromMe, id }` of a message it sent), proxies (create's
 * `proxyHost`/`proxyPort`/`proxyProtocol`/`proxyUsername`/`proxyPassword`, `POST /proxy/set/{instance}`,
 * `GET /proxy/find/{instance}`) and `POST /chat/findMessages/{instance}` (by key and timestamp window,
 * newest first, paged), with Evolution's response and error bodies. Recipients ending in 0001-0005 fail as the simulator's do. As WhatsApp does,
 * a Brazilian mobile outside the 11-28 area codes is answered with a JID without its ninth digit.
 * `scan` plays the phone.
 */
export class FakeEvolutionServer extends FakeProviderServer {
  readonly instances = new Map<string, FakeEvolutionInstance>();
  /** Messages sent, by their key id. */
  readonly messages = new Map<string, FakeEvolutionMessage>();

  constructor(private readonly options: FakeEvolutionOptions = {}) {
    super();
  }

  /**
   * Where the fake posts its webhooks (Evolution's `webhook.url`), and the `headers` it adds to them
   * (Evolution v2 sends the webhook's configured headers with every call).
   */
  webhook: { url: string; headers?: Record<string, string> } | null = null;

  /**
   * A contact writes to the instance: posts `messages.upsert` as Evolution does (text, a media with
   * its caption, or a list reply), with the WhatsApp key id (`id`, random when omitted). Answers the
   * receiver's status and body.
   */
  async contactWrites(
    instance: string,
    input: { from: string; text?: string; pushName?: string; id?: string; media?: { type: 'image' | 'video' | 'audio' | 'document'; url: string; caption?: string }; listRowId?: string },
  ): Promise<{ id: string; status: number; body: unknown }> {
    const id = input.id ?? `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
    let message: Record<string, unknown>;
    let messageType: string;
    if (input.listRowId) {
      messageType = 'listResponseMessage';
      message = { listResponseMessage: { title: input.text ?? input.listRowId, listType: 1, singleSelectReply: { selectedRowId: input.listRowId } } };
    } else if (input.media) {
      messageType = `${input.media.type}Message`;
      message = { [messageType]: { url: input.media.url, mimetype: 'application/octet-stream', ...(input.media.caption ? { caption: input.media.caption } : {}) } };
    } else {
      messageType = 'conversation';
      message = { conversation: input.text ?? '' };
    }
    const data = {
      key: { remoteJid: `${input.from.replace(/\D/g, '')}@s.whatsapp.net`, fromMe: false, id },
      pushName: input.pushName ?? null,
      message,
      messageType,
      messageTimestamp: Math.floor(Date.now() / 1000),
      instanceId: this.instances.get(instance)?.id ?? null,
      source: 'android',
    };
    return { id, ...(await this.postWebhook({ event: 'messages.upsert', instance, data })) };
  }

  /** The contact's phone acknowledges a message the instance sent: posts `messages.update` (DELIVERY_ACK or READ). */
  async ack(instance: string, keyId: string, status: 'DELIVERY_ACK' | 'READ'): Promise<{ status: number; body: unknown }> {
    const sent = this.messages.get(keyId);
    return this.postWebhook({
      event: 'messages.update',
      instance,
      data: { keyId, remoteJid: sent?.remoteJid ?? null, fromMe: true, participant: null, status, instanceId: this.instances.get(instance)?.id ?? null, messageId: keyId },
    });
  }

  private async postWebhook(payload: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
    if (!this.webhook) throw new Error('fake evolution: no webhook configured');
    const raw = JSON.stringify({ ...payload, destination: this.webhook.url, date_time: new Date().toISOString(), sender: null, server_url: this.url, apikey: this.options.apiKey ?? null });
    return this.postJson(this.webhook.url, this.webhook.headers ?? {}, raw);
  }

  /** The phone scans the code: the instance opens with `phone` as its owner. */
  scan(name: string, phone = `55119${(Math.floor(Math.random() * 9e7) + 1e7).toString()}`): void {
    const instance = this.instances.get(name);
    if (!instance) throw new Error(`fake evolution: no instance ${name}`);
    Object.assign(instance, { state: 'open', ownerJid: `${phone.replace(/\D/g, '')}@s.whatsapp.net`, disconnectionReasonCode: null });
  }

  protected async handle(request: RecordedRequest): Promise<FakeReply> {
    if (this.options.apiKey && request.headers.apikey !== this.options.apiKey) return err(401, 'Unauthorized');
    const [, group, action, rawName] = request.path.split('/');
    const name = rawName ?? '';
    const instance = this.instances.get(name);
    const notFound = () => err(404, [`The "${name}" instance does not exist`]);

    if (group === 'instance' && action === 'create' && request.method === 'POST') {
      const body = request.body as { instanceName?: string; proxyHost?: string; proxyPort?: string; proxyProtocol?: string; proxyUsername?: string; proxyPassword?: string };
      const newName = body?.instanceName ?? '';
      if (!newName) return err(400, ['instanceName is required']);
      if (this.instances.has(newName)) return err(403, [`This name "${newName}" is already in use.`]);
      let proxy: FakeEvolutionProxy | null = null;
      if (body.proxyHost && body.proxyPort && body.proxyProtocol) {
        if (this.options.deadProxyHosts?.includes(body.proxyHost)) return err(400, ['Invalid proxy']);
        proxy = {
          enabled: true,
          host: body.proxyHost,
          port: body.proxyPort,
          protocol: body.proxyProtocol,
          ...(body.proxyUsername ? { username: body.proxyUsername } : {}),
          ...(body.proxyPassword ? { password: body.proxyPassword } : {}),
        };
      }
      const created: FakeEvolutionInstance = {
        id: randomUUID(),
        name: newName,
        state: 'connecting',
        ownerJid: null,
        profileName: null,
        profilePicUrl: null,
        disconnectionReasonCode: null,
        qrCount: 1,
        proxy,
      };
      this.instances.set(newName, created);
      const code = `2@${randomBytes(24).toString('base64')},fake-evolution,${created.qrCount}`;
      return {
        status: 201,
        body: {
          instance: { instanceName: newName, instanceId: created.id, integration: 'WHATSAPP-BAILEYS', status: 'connecting' },
          hash: randomBytes(16).toString('hex').toUpperCase(),
          webhook: {},
          settings: {},
          qrcode: { pairingCode: null, code, base64: await qrPngDataUrl(code), count: created.qrCount },
        },
      };
    }
    if (group === 'instance' && action === 'fetchInstances') {
      const wanted = request.query.get('instanceName');
      const list = [...this.instances.values()].filter((i) => !wanted || i.name === wanted);
      if (wanted && list.length === 0) return err(404, [`The "${wanted}" instance does not exist`]);
      return {
        status: 200,
        body: list.map((i) => ({
          id: i.id,
          name: i.name,
          connectionStatus: i.state,
          ownerJid: i.ownerJid,
          profileName: i.profileName,
          profilePicUrl: i.profilePicUrl,
          integration: 'WHATSAPP-BAILEYS',
          number: null,
          disconnectionReasonCode: i.disconnectionReasonCode,
          disconnectionAt: i.disconnectionReasonCode ? new Date().toISOString() : null,
        })),
      };
    }
    if (group === 'instance' && action === 'connect') {
      if (!instance) return notFound();
      if (instance.state === 'open') return { status: 200, body: { instance: { instanceName: name, state: 'open' } } };
      instance.state = 'connecting';
      instance.qrCount += 1;
      return { status: 200, body: { pairingCode: null, code: `2@${randomBytes(24).toString('base64')},fake-evolution,${instance.qrCount}`, count: instance.qrCount } };
    }
    if (group === 'instance' && action === 'connectionState') {
      if (!instance) return notFound();
      return { status: 200, body: { instance: { instanceName: name, state: instance.state } } };
    }
    if (group === 'instance' && action === 'logout' && request.method === 'DELETE') {
      if (!instance) return notFound();
      if (instance.state !== 'open') return err(400, [`The "${name}" instance is not connected`]);
      Object.assign(instance, { state: 'close', disconnectionReasonCode: 401 });
      return { status: 200, body: { status: 'SUCCESS', error: false, response: { message: 'Instance logged out' } } };
    }
    if (group === 'chat' && (action === 'updateProfileName' || action === 'updateProfilePicture')) {
      if (!instance) return notFound();
      if (instance.state !== 'open') return err(400, ['Connection Closed']);
      const body = request.body as { name?: string; picture?: string };
      if (action === 'updateProfileName') instance.profileName = body.name ?? instance.profileName;
      else instance.profilePicUrl = body.picture ?? instance.profilePicUrl;
      return { status: 201, body: { update: 'success' } };
    }
    if (group === 'proxy' && action === 'set' && request.method === 'POST') {
      if (!instance) return notFound();
      const body = (request.body ?? {}) as Partial<FakeEvolutionProxy>;
      if (typeof body.enabled !== 'boolean' || typeof body.host !== 'string' || typeof body.port !== 'string' || typeof body.protocol !== 'string') {
        return err(400, ['enabled, host, port and protocol are required; port is a string']);
      }
      if (body.enabled && this.options.deadProxyHosts?.includes(body.host)) return err(400, ['Invalid proxy']);
      instance.proxy = body.enabled ? (body as FakeEvolutionProxy) : null;
      return { status: 201, body: { proxy: { instanceName: name, proxy: body } } };
    }
    if (group === 'proxy' && action === 'find') {
      if (!instance) return notFound();
      return { status: 200, body: instance.proxy ?? {} };
    }
    if (group === 'chat' && action === 'findMessages' && request.method === 'POST') return this.findMessages(instance, request, notFound);
    if (group === 'chat' && action === 'whatsappNumbers' && request.method === 'POST') {
      // Evolution answers every number: …0001 has no account; more than 50 numbers a call is refused here.
      if (!instance) return notFound();
      if (instance.state !== 'open') return err(400, ['Connection Closed']);
      const numbers = ((request.body as { numbers?: unknown } | null)?.numbers ?? []) as string[];
      if (!Array.isArray(numbers) || numbers.length > 50) return err(400, ['numbers must be an array of at most 50']);
      return { status: 201, body: numbers.map((n) => ({ exists: lastFour(n) !== '0001', jid: `${String(n).replace(/\D/g, '')}@s.whatsapp.net`, number: String(n) })) };
    }
    if (group === 'chat' && action === 'updateMessage' && request.method === 'POST') return this.operate('edit', instance, request, notFound);
    if (group === 'chat' && action === 'deleteMessageForEveryone' && request.method === 'DELETE') return this.operate('delete', instance, request, notFound);
    if (group === 'message' && action === 'sendReaction' && request.method === 'POST') return this.operate('reaction', instance, request, notFound);
    if (group === 'message') return this.send(action ?? '', instance, request, notFound);
    return err(404, [`Cannot ${request.method} ${request.path}`]);
  }

  private send(route: string, instance: FakeEvolutionInstance | undefined, request: RecordedRequest, notFound: () => FakeReply): FakeReply {
    const routes = ['sendText', 'sendMedia', 'sendWhatsAppAudio', 'sendButtons', 'sendList', 'sendPoll'];
    if (!routes.includes(route)) return err(404, [`Cannot POST ${request.path}`]);
    if (!instance) return notFound();
    const body = (request.body ?? {}) as Record<string, unknown>;
    const number = String(body.number ?? '');
    if (!/^\d{8,15}$/.test(number)) return err(400, [{ jid: `${number}@s.whatsapp.net`, exists: false, number }]);
    if (instance.state !== 'open') return err(400, ['Connection Closed']);
    switch (lastFour(number)) {
      case '0001':
        return err(400, [{ jid: `${number}@s.whatsapp.net`, exists: false, number }]);
      case '0002':
        return err(400, ['The recipient has blocked this number']);
      case '0003':
        return { status: 201, body: this.sent(number, instance, route, body), delayMs: this.options.hangMs ?? 3000 };
      case '0004':
        return err(500, 'Internal server error');
      case '0005':
        Object.assign(instance, { state: 'close', disconnectionReasonCode: 403 });
        return err(400, ['Connection Closed']);
      default:
        return { status: 201, body: this.sent(number, instance, route, body) };
    }
  }

  /** Evolution's `fetchMessages`: the instance's stored messages by key fields and a timestamp window (both ends needed), newest first. */
  private findMessages(instance: FakeEvolutionInstance | undefined, request: RecordedRequest, notFound: () => FakeReply): FakeReply {
    if (!instance) return notFound();
    const body = (request.body ?? {}) as { where?: { key?: Record<string, unknown>; messageTimestamp?: { gte?: string; lte?: string } }; page?: number; offset?: number };
    const key = body.where?.key ?? {};
    const window = body.where?.messageTimestamp;
    const seconds = (iso: string | undefined) => (iso ? Math.floor(new Date(iso).getTime() / 1000) : NaN);
    const [from, to] = window?.gte && window.lte ? [seconds(window.gte), seconds(window.lte)] : [-Infinity, Infinity];
    const all = [...this.messages.values()]
      .filter((m) => m.instance === instance.name)
      .filter((m) => (key.id === undefined || m.id === key.id) && (key.remoteJid === undefined || m.remoteJid === key.remoteJid) && key.fromMe !== false)
      .filter((m) => m.messageTimestamp >= from && m.messageTimestamp <= to)
      .sort((a, b) => b.messageTimestamp - a.messageTimestamp);
    const offset = body.offset ?? 50;
    const page = body.page ?? 1;
    const records = all.slice((page - 1) * offset, page * offset).map((m) => ({
      id: randomUUID(),
      key: { id: m.id, fromMe: true, remoteJid: m.remoteJid },
      pushName: 'Você',
      messageType: m.messageType,
      message: m.message,
      messageTimestamp: m.messageTimestamp,
      instanceId: instance.id,
      source: 'unknown',
      contextInfo: null,
      MessageUpdate: [],
    }));
    return { status: 200, body: { messages: { total: all.length, pages: Math.ceil(all.length / offset), currentPage: page, records } } };
  }

  /** Edit, delete for everyone or reaction of a message this instance sent, found by its key. */
  private operate(operation: 'edit' | 'delete' | 'reaction', instance: FakeEvolutionInstance | undefined, request: RecordedRequest, notFound: () => FakeReply): FakeReply {
    if (!instance) return notFound();
    if (instance.state !== 'open') return err(400, ['Connection Closed']);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const key = asKey(operation === 'delete' ? body : body.key);
    if (!key) return err(400, ['key is required: remoteJid, fromMe and id']);
    if (operation === 'edit' && (typeof body.text !== 'string' || typeof body.number !== 'string')) return err(400, ['number and text are required']);
    if (operation === 'reaction' && typeof body.reaction !== 'string') return err(400, ['reaction is required']);
    const message = this.messages.get(key.id);
    if (!message || message.instance !== instance.name || message.remoteJid !== key.remoteJid || !key.fromMe || message.revoked) {
      return err(400, ['Message not found']);
    }
    if (operation === 'edit') Object.assign(message, { text: body.text, edited: true });
    else if (operation === 'delete') message.revoked = true;
    else message.reaction = body.reaction as string;
    const protocol =
      operation === 'reaction'
        ? { reactionMessage: { key, text: body.reaction } }
        : { protocolMessage: { key, type: operation === 'edit' ? 'MESSAGE_EDIT' : 'REVOKE', ...(operation === 'edit' ? { editedMessage: { conversation: body.text } } : {}) } };
    return {
      status: 201,
      body: {
        key: { remoteJid: key.remoteJid, fromMe: true, id: `BAE5${randomBytes(6).toString('hex').toUpperCase()}` },
        message: protocol,
        messageTimestamp: Math.floor(Date.now() / 1000),
        status: 'PENDING',
      },
    };
  }

  private sent(number: string, instance: FakeEvolutionInstance, route: string, body: Record<string, unknown>) {
    const id = `BAE5${randomBytes(6).toString('hex').toUpperCase()}`;
    const remoteJid = `${whatsappNumber(number)}@s.whatsapp.net`;
    const { message, messageType } = waMessage(route, body);
    const messageTimestamp = Math.floor(Date.now() / 1000);
    this.messages.set(id, {
      instance: instance.name,
      remoteJid,
      text: typeof body.text === 'string' ? body.text : null,
      edited: false,
      revoked: false,
      reaction: null,
      id,
      message,
      messageType,
      messageTimestamp,
    });
    return {
      key: { remoteJid, fromMe: true, id },
      pushName: '',
      status: 'PENDING',
      message,
      messageType,
      messageTimestamp,
      instanceId: instance.id,
      source: 'unknown',
    };
  }
}

/** The WhatsApp message (Baileys' proto as JSON) a send route produces, as Evolution stores it. */
function waMessage(route: string, body: Record<string, unknown>): { message: Record<string, unknown>; messageType: string } {
  switch (route) {
    case 'sendText':
      return { message: { conversation: body.text }, messageType: 'conversation' };
    case 'sendMedia': {
      const type = `${String(body.mediatype)}Message`;
      return { message: { [type]: { url: body.media, mimetype: body.mimetype, ...(body.caption ? { caption: body.caption } : {}) } }, messageType: type };
    }
    case 'sendWhatsAppAudio':
      return { message: { audioMessage: { url: body.audio, ptt: true } }, messageType: 'audioMessage' };
    case 'sendPoll':
      return {
        message: { pollCreationMessageV3: { name: body.name, options: ((body.values as string[]) ?? []).map((optionName) => ({ optionName })), selectableOptionsCount: body.selectableCount } },
        messageType: 'pollCreationMessageV3',
      };
    default:
      return { message: { [route]: body }, messageType: route };
  }
}

function asKey(value: unknown): { remoteJid: string; fromMe: boolean; id: string } | null {
  const key = (value ?? {}) as Record<string, unknown>;
  if (typeof key.remoteJid !== 'string' || typeof key.id !== 'string' || typeof key.fromMe !== 'boolean') return null;
  return { remoteJid: key.remoteJid, fromMe: key.fromMe, id: key.id };
}

/** WhatsApp's own number for a Brazilian mobile: without the ninth digit outside area codes 11-28. */
function whatsappNumber(digits: string): string {
  const match = /^55(\d\d)9(\d{8})$/.exec(digits);
  return match && Number(match[1]) > 28 ? `55${match[1]}${match[2]}` : digits;
}
