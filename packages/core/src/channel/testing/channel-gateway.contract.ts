import { afterAll, describe, expect, it } from '@jest/globals';
import type { ChannelGateway, SendRequest, SessionTarget } from '../index.js';
import type { ChannelInstance } from '../index.js';
import type { OutboundContent } from '../index.js';
import type { Setor } from '../../setores/index.js';
import { readUntil } from '../../shared/testing/read-until.js';

/** A setor and its instance, as the use cases hand them to a gateway. */
export interface GatewaySetor {
  setor: Setor;
  instance: ChannelInstance;
}

/** What the gateway contract needs from an adapter under test. */
export interface ChannelGatewayUnderTest {
  gateway: ChannelGateway;
  /** The adapter's notion of now (a manual clock for the simulator, the real one for HTTP adapters). */
  now(): Date;
  /** A `qr` setor with a fresh, disconnected instance; absent for adapters that only serve official setores. */
  qrBox?: () => Promise<GatewaySetor>;
  /** An `official` setor with a fresh instance; absent for adapters that only serve `qr` setores. */
  officialBox?: () => Promise<GatewaySetor>;
  /** The phone scans the QR code of the setor (the simulator: time passes; a fake server: it is marked scanned). */
  scan(box: GatewaySetor): Promise<void>;
  /** The contact `phone` writes to the setor, opening the official 24-hour window. */
  openWindow(box: GatewaySetor, phone: string): Promise<void>;
  teardown?(): Promise<void>;
}

/** What an adapter serves, known when the suite is declared. */
export interface GatewayContractOptions {
  /** Setor types the adapter serves (the simulator: both). */
  boxTypes: readonly ('qr' | 'official')[];
  /** A send retried with the same client message id returns the original result without sending again. */
  idempotentSends: boolean;
  /**
   * A resend marked `earlierAttemptSince` (after a crash) finds the earlier attempt that reached the provider and
   * answers it without sending again (by its client id, or by looking at what the number sent).
   */
  findsEarlierAttempts?: boolean;
}

/** Recipients by their last four digits, as the simulator (and the fake provider servers) treat them. */
export const ContractRecipients = {
  ok: '+5511955551234',
  /** Another recipient that always succeeds (one whose official window stays closed). */
  other: '+5511955554321',
  notOnChannel: '+5511955550001',
  blocked: '+5511955550002',
  timeout: '+5511955550003',
  providerDown: '+5511955550004',
  bansSender: '+5511955550005',
} as const;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A tiny PDF held in memory, as a rendered contract is sent. */
const inlinePdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** How long the suite waits for a scanned session to connect, and how often it looks. */
const SESSION_WAIT = { timeoutMs: 5000, intervalMs: 20 };

/**
 * The behaviour every channel gateway shows, run against the simulator and the two HTTP adapters
 * (with their fake provider servers): QR connection, sessions, classified failures, the official
 * window and fallbacks, probes, profiles, and edits, deletes and reactions of sent messages.
 */
export function describeChannelGatewayContract(
  name: string,
  options: GatewayContractOptions,
  setup: () => Promise<ChannelGatewayUnderTest>,
): void {
  describe(`channel gateway contract: ${name}`, () => {
    let sutPromise: Promise<ChannelGatewayUnderTest> | null = null;
    const sut = () => (sutPromise ??= setup());
    afterAll(async () => {
      if (sutPromise) await (await sutPromise).teardown?.();
    });
    let sequence = 0;
    const send = async (box: GatewaySetor, to: string, content: OutboundContent, clientMessageId?: string) => {
      sequence += 1;
      const request: SendRequest = {
        setor: box.setor,
        instance: box.instance,
        mode: 'live',
        to,
        content,
        clientMessageId: clientMessageId ?? `contract-${name}-${Date.now()}-${sequence}`,
      };
      return (await sut()).gateway.send(request);
    };
    const target = (box: GatewaySetor): SessionTarget => ({ setor: box.setor, instance: box.instance, mode: 'live' });

    /** Walks a setor to connected as the use cases do, and returns it with the stored instance. */
    const connected = async (make: () => Promise<GatewaySetor>): Promise<GatewaySetor> => {
      const s = await sut();
      const box = await make();
      let instance: ChannelInstance = { ...box.instance, qrRequestedAt: s.now() };
      const qr = await s.gateway.connect({ setor: box.setor, instance, mode: 'live' });
      if (qr.providerRef) instance = { ...instance, providerRef: qr.providerRef };
      if (qr.qrCode !== null) await s.scan({ setor: box.setor, instance });
      const state = await readUntil(
        () => s.gateway.sessionState({ setor: box.setor, instance, mode: 'live' }),
        (st) => st.status === 'connected',
        SESSION_WAIT,
      );
      expect(state.status).toBe('connected');
      const now = s.now();
      instance = { ...instance, status: 'connected', phoneNumber: state.phoneNumber, qrRequestedAt: null, connectedAt: now, updatedAt: now };
      return { setor: box.setor, instance };
    };

    const boxMaker = async (type: 'qr' | 'official') => {
      const s = await sut();
      const make = type === 'qr' ? s.qrBox : s.officialBox;
      if (!make) throw new Error(`${name} declares ${type} boxes but its setup gives no ${type}Box`);
      return make;
    };

    if (options.boxTypes.includes('qr')) describe('qr boxes', () => {
      const ifQr = (title: string, fn: (make: () => Promise<GatewaySetor>) => Promise<void>) =>
        it(title, async () => fn(await boxMaker('qr')));

      ifQr('send an inline document (a PDF from memory) and classify a recipient not on the channel', async (make) => {
        const box = await connected(make);
        const pdf: OutboundContent = { kind: 'document', filename: 'contrato.pdf', mimeType: 'application/pdf', data: inlinePdf, caption: 'Contrato de serviço' };
        const sent = await send(box, ContractRecipients.ok, pdf);
        expect(sent).toMatchObject({ ok: true, providerMessageId: expect.any(String) });
        expect(await send(box, ContractRecipients.notOnChannel, pdf)).toMatchObject({ ok: false, code: 'RECIP_NOT_WHATSAPP', providerFailure: false });
      });

      ifQr('check which numbers have an account on the channel, in the order asked', async (make) => {
        const box = await connected(make);
        const phones = [ContractRecipients.ok, ContractRecipients.notOnChannel, ContractRecipients.other];
        expect(await (await sut()).gateway.checkNumbers(target(box), phones)).toEqual([
          { phone: ContractRecipients.ok, hasChannel: true },
          { phone: ContractRecipients.notOnChannel, hasChannel: false },
          { phone: ContractRecipients.other, hasChannel: true },
        ]);
      });

      ifQr('report what a qr channel carries: text, media and polls, no templates and no 24-hour window', async (make) => {
        const box = await make();
        const caps = (await sut()).gateway.capabilities(box.setor, 'live');
        expect(caps).toMatchObject({
          text: true,
          media: true,
          templates: false,
          polls: true,
          conversationWindow: false,
          editMessages: true,
          deleteMessages: true,
          reactions: true,
        });
      });

      ifQr('edit, react to, remove the reaction from and delete for everyone a sent message', async (make) => {
        const s = await sut();
        const box = await connected(make);
        const sentText = await send(box, ContractRecipients.ok, { kind: 'text', text: 'Olá' });
        const sentMedia = await send(box, ContractRecipients.ok, { kind: 'media', mediaType: 'image', url: 'https://example.com/a.png', caption: 'foto' });
        if (!sentText.ok || !sentMedia.ok) throw new Error(`${name}: the sends failed`);
        const ref = (sent: typeof sentText & { ok: true }) => ({
          to: ContractRecipients.ok,
          providerMessageId: sent.providerMessageId,
          providerChatId: sent.providerChatId ?? null,
        });
        const done = { ok: true, at: expect.anything() };
        expect(await s.gateway.editMessage(target(box), { ...ref(sentText), text: 'Olá, tudo bem?' })).toEqual(done);
        expect(await s.gateway.editMessage(target(box), { ...ref(sentMedia), text: 'nova legenda' })).toEqual(done);
        expect(await s.gateway.react(target(box), { ...ref(sentText), emoji: '👍' })).toEqual(done);
        expect(await s.gateway.react(target(box), { ...ref(sentText), emoji: '' })).toEqual(done);
        const deleted = await s.gateway.deleteMessage(target(box), ref(sentMedia));
        expect(deleted).toEqual(done);
        expect(Number.isNaN(new Date((deleted as { at: Date }).at).getTime())).toBe(false);
      });

      ifQr('refuse operations on a sent message once the session ended, with a sender code', async (make) => {
        const s = await sut();
        const box = await connected(make);
        const sent = await send(box, ContractRecipients.ok, { kind: 'text', text: 'Oi' });
        if (!sent.ok) throw new Error(`${name}: the send failed`);
        await s.gateway.disconnect(target(box));
        const ref = { to: ContractRecipients.ok, providerMessageId: sent.providerMessageId, providerChatId: sent.providerChatId ?? null };
        const senderFailure = { ok: false, code: expect.stringMatching(/^SENDER_/), providerFailure: false };
        expect(await s.gateway.editMessage(target(box), { ...ref, text: 'x' })).toMatchObject(senderFailure);
        expect(await s.gateway.react(target(box), { ...ref, emoji: '👍' })).toMatchObject(senderFailure);
        expect(await s.gateway.deleteMessage(target(box), ref)).toMatchObject(senderFailure);
      });

      ifQr('give a real PNG QR code, then a connected session with a phone number once the phone scans it', async (make) => {
        const s = await sut();
        const box = await make();
        const instance = { ...box.instance, qrRequestedAt: s.now() };
        const qr = await s.gateway.connect({ setor: box.setor, instance, mode: 'live' });
        expect(qr.qrCode).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
        const png = Buffer.from((qr.qrCode ?? '').split(',')[1] ?? '', 'base64');
        expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
        expect(qr.expiresInSeconds).toBeGreaterThan(0);
        expect(qr.expiresInSeconds).toBeLessThanOrEqual(60);
        const withRef = { ...instance, providerRef: qr.providerRef ?? instance.providerRef };
        const before = await s.gateway.sessionState({ setor: box.setor, instance: withRef, mode: 'live' });
        expect(before.status).not.toBe('connected');
        await s.scan({ setor: box.setor, instance: withRef });
        const after = await readUntil(
          () => s.gateway.sessionState({ setor: box.setor, instance: withRef, mode: 'live' }),
          (st) => st.status === 'connected',
          SESSION_WAIT,
        );
        expect(after).toEqual({ status: 'connected', phoneNumber: expect.stringMatching(/^\+\d{10,15}$/) });
      });

      ifQr('send text, media and polls natively, and interactive messages as numbered text', async (make) => {
        const box = await connected(make);
        const results = [
          await send(box, ContractRecipients.ok, { kind: 'text', text: 'Olá' }),
          await send(box, ContractRecipients.ok, { kind: 'media', mediaType: 'image', url: 'https://example.com/a.png', caption: 'foto' }),
          await send(box, ContractRecipients.ok, { kind: 'media', mediaType: 'audio', url: 'https://example.com/a.ogg' }),
          await send(box, ContractRecipients.ok, { kind: 'media', mediaType: 'document', url: 'https://example.com/a.pdf', filename: 'a.pdf' }),
          await send(box, ContractRecipients.ok, { kind: 'poll', name: 'Melhor dia?', options: ['Seg', 'Ter'], multipleAnswers: false }),
          await send(box, ContractRecipients.ok, {
            kind: 'interactive',
            interactiveType: 'button',
            bodyText: 'Escolha',
            buttons: [{ id: 'a', title: 'A' }, { id: 'b', title: 'B' }],
          }),
        ];
        for (const result of results) {
          expect(result).toMatchObject({ ok: true, providerMessageId: expect.any(String) });
          // Compared by value: an in-memory store's structuredClone may hand back a Date of another realm.
          expect(Number.isNaN(new Date((result as { sentAt: Date }).sentAt).getTime())).toBe(false);
        }
        const ids = results.map((r) => (r.ok ? r.providerMessageId : ''));
        expect(new Set(ids).size).toBe(ids.length);
      });

      ifQr('classify recipient, temporary and provider failures', async (make) => {
        const box = await connected(make);
        const text = { kind: 'text', text: 'Oi' } as const;
        expect(await send(box, ContractRecipients.notOnChannel, text)).toMatchObject({ ok: false, code: 'RECIP_NOT_WHATSAPP', providerFailure: false });
        expect(await send(box, ContractRecipients.blocked, text)).toMatchObject({ ok: false, code: 'RECIP_BLOCKED', providerFailure: false });
        expect(await send(box, ContractRecipients.timeout, text)).toMatchObject({ ok: false, code: 'TEMP_TIMEOUT' });
        expect(await send(box, ContractRecipients.providerDown, text)).toMatchObject({ ok: false, code: 'TEMP_SERVER_ERROR', providerFailure: true });
        const failed = await send(box, ContractRecipients.notOnChannel, text);
        expect(failed.ok === false && failed.error.length > 0).toBe(true);
        // The number still works after recipient failures.
        expect((await send(box, ContractRecipients.ok, text)).ok).toBe(true);
      });

      ifQr('report a banned sender, whose session is then disconnected', async (make) => {
        const s = await sut();
        const box = await connected(make);
        expect(await send(box, ContractRecipients.bansSender, { kind: 'text', text: 'Oi' })).toMatchObject({ ok: false, code: 'SENDER_BANNED' });
        expect((await s.gateway.sessionState(target(box))).status).toBe('disconnected');
        expect(await s.gateway.probe(target(box))).toMatchObject({ responding: true, connected: false });
        expect(await send(box, ContractRecipients.ok, { kind: 'text', text: 'Oi' })).toMatchObject({ ok: false, code: expect.stringMatching(/^SENDER_/) });
      });

      ifQr('probe a connected session as healthy and end it on disconnect', async (make) => {
        const s = await sut();
        const box = await connected(make);
        expect(await s.gateway.probe(target(box))).toEqual({ responding: true, connected: true, error: null });
        await s.gateway.disconnect(target(box));
        expect((await s.gateway.sessionState(target(box))).status).toBe('disconnected');
        expect((await s.gateway.probe(target(box))).connected).toBe(false);
      });

      ifQr('read and change the profile of the connected number', async (make) => {
        const s = await sut();
        const box = await connected(make);
        const profile = await s.gateway.fetchProfile(target(box));
        expect(Object.keys(profile).sort()).toEqual(['name', 'pictureUrl']);
        expect(typeof profile.name === 'string' || profile.name === null).toBe(true);
        const updated = await s.gateway.updateProfile(target(box), { name: 'Loja Centro', pictureUrl: 'https://example.com/logo.png' });
        expect(updated).toEqual({ name: 'Loja Centro', pictureUrl: 'https://example.com/logo.png' });
        const partial = await s.gateway.updateProfile(target(box), { name: 'Loja Sul' });
        expect(partial.name).toBe('Loja Sul');
      });

      if (options.findsEarlierAttempts) {
        ifQr('answer the earlier attempt of a resend marked earlierAttemptSince instead of sending it again', async (make) => {
          const box = await connected(make);
          const since = new Date((await sut()).now().getTime() - 1000);
          const id = `resend-${name}-${Date.now()}`;
          const first = await send(box, ContractRecipients.other, { kind: 'text', text: 'depois da queda' }, id);
          const s = await sut();
          const again = await s.gateway.send({ ...target(box), to: ContractRecipients.other, content: { kind: 'text', text: 'depois da queda' }, clientMessageId: id, earlierAttemptSince: since });
          expect(first.ok && again.ok && again.providerMessageId === first.providerMessageId).toBe(true);
          const fresh = await s.gateway.send({ ...target(box), to: ContractRecipients.other, content: { kind: 'text', text: 'outra coisa' }, clientMessageId: `${id}-2`, earlierAttemptSince: since });
          expect(fresh.ok && first.ok && fresh.providerMessageId !== first.providerMessageId).toBe(true);
        });
      }

      if (options.idempotentSends) {
        ifQr('return the original result for a retried send with the same client message id', async (make) => {
          const box = await connected(make);
          const id = `retry-${name}-${Date.now()}`;
          const once = await send(box, ContractRecipients.ok, { kind: 'text', text: 'uma vez' }, id);
          const twice = await send(box, ContractRecipients.ok, { kind: 'text', text: 'uma vez' }, id);
          expect(once.ok).toBe(true);
          expect(twice).toEqual(once);
          const other = await send(box, ContractRecipients.ok, { kind: 'text', text: 'outra' });
          expect(other.ok && once.ok && other.providerMessageId !== once.providerMessageId).toBe(true);
        });
      }
    });

    if (options.boxTypes.includes('official')) describe('official boxes', () => {
      const ifOfficial = (title: string, fn: (make: () => Promise<GatewaySetor>) => Promise<void>) =>
        it(title, async () => fn(await boxMaker('official')));

      ifOfficial('send an inline document (a PDF from memory) inside the 24-hour window', async (make) => {
        const s = await sut();
        const box = await connected(make);
        await s.openWindow(box, ContractRecipients.ok);
        const pdf: OutboundContent = { kind: 'document', filename: 'contrato.pdf', mimeType: 'application/pdf', data: inlinePdf };
        expect(await send(box, ContractRecipients.ok, pdf)).toMatchObject({ ok: true, providerMessageId: expect.any(String) });
      });

      ifOfficial('answer a number check with null where the provider cannot tell, never claiming a number it knows has no account', async (make) => {
        const box = await connected(make);
        const checks = await (await sut()).gateway.checkNumbers(target(box), [ContractRecipients.ok, ContractRecipients.notOnChannel]);
        expect(checks.map((c) => c.phone)).toEqual([ContractRecipients.ok, ContractRecipients.notOnChannel]);
        expect([true, null]).toContain(checks[0]!.hasChannel);
        expect([false, null]).toContain(checks[1]!.hasChannel);
      });

      ifOfficial('report what the official channel carries: templates and interactive, no polls or events, a 24-hour window', async (make) => {
        const box = await make();
        expect((await sut()).gateway.capabilities(box.setor, 'live')).toEqual({
          text: true,
          media: true,
          templates: true,
          interactive: true,
          polls: false,
          events: false,
          conversationWindow: true,
          editMessages: false,
          deleteMessages: false,
          reactions: true,
        });
      });

      ifOfficial('react to a sent message inside the 24-hour window, refuse it outside, and refuse edits and deletes', async (make) => {
        const s = await sut();
        const box = await connected(make);
        await s.openWindow(box, ContractRecipients.ok);
        const text = await send(box, ContractRecipients.ok, { kind: 'text', text: 'Oi' });
        const template = await send(box, ContractRecipients.other, { kind: 'template', name: 'boas_vindas', language: 'pt_BR', components: [] });
        if (!text.ok || !template.ok) throw new Error(`${name}: the sends failed`);
        const ref = { to: ContractRecipients.ok, providerMessageId: text.providerMessageId, providerChatId: text.providerChatId ?? null };
        expect(await s.gateway.react(target(box), { ...ref, emoji: '❤️' })).toEqual({ ok: true, at: expect.anything() });
        expect(await s.gateway.react(target(box), { ...ref, emoji: '' })).toEqual({ ok: true, at: expect.anything() });
        const closed = await s.gateway.react(target(box), { to: ContractRecipients.other, providerMessageId: template.providerMessageId, emoji: '👍' });
        expect(closed).toMatchObject({ ok: false, code: 'OFFICIAL_WINDOW_EXPIRED', providerFailure: false });
        await expect(s.gateway.editMessage(target(box), { ...ref, text: 'x' })).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
        await expect(s.gateway.deleteMessage(target(box), ref)).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
      });

      ifOfficial('connect with the Cloud API credentials, without a QR code', async (make) => {
        const s = await sut();
        const box = await make();
        const qr = await s.gateway.connect({ setor: box.setor, instance: { ...box.instance, qrRequestedAt: s.now() }, mode: 'live' });
        expect(qr.qrCode).toBeNull();
        expect(qr.state).toEqual({ status: 'connected', phoneNumber: expect.stringMatching(/^\+\d{10,15}$/) });
      });

      ifOfficial('refuse free text outside the 24-hour window, but deliver templates and text inside it', async (make) => {
        const s = await sut();
        const box = await connected(make);
        const closed = await send(box, ContractRecipients.ok, { kind: 'text', text: 'Oi' });
        expect(closed).toMatchObject({ ok: false, code: 'OFFICIAL_WINDOW_EXPIRED', providerFailure: false });
        const template = await send(box, ContractRecipients.ok, { kind: 'template', name: 'boas_vindas', language: 'pt_BR', components: [] });
        expect(template.ok).toBe(true);
        await s.openWindow(box, ContractRecipients.ok);
        expect((await send(box, ContractRecipients.ok, { kind: 'text', text: 'Oi' })).ok).toBe(true);
        expect((await send(box, ContractRecipients.ok, { kind: 'media', mediaType: 'image', url: 'https://example.com/a.png', caption: 'x' })).ok).toBe(true);
        const list = await send(box, ContractRecipients.ok, {
          kind: 'interactive',
          interactiveType: 'list',
          bodyText: 'Escolha',
          buttonText: 'Opções',
          sections: [{ title: 'S', rows: [{ id: '1', title: 'Um' }] }],
        });
        expect(list.ok).toBe(true);
        const poll = await send(box, ContractRecipients.ok, { kind: 'poll', name: 'Dia?', options: ['Seg', 'Ter'], multipleAnswers: false });
        expect(poll.ok).toBe(true);
      });

      ifOfficial('classify official failures', async (make) => {
        const s = await sut();
        const box = await connected(make);
        for (const phone of Object.values(ContractRecipients)) await s.openWindow(box, phone);
        const text = { kind: 'text', text: 'Oi' } as const;
        expect(await send(box, ContractRecipients.notOnChannel, text)).toMatchObject({ ok: false, code: 'RECIP_NOT_WHATSAPP', providerFailure: false });
        expect(await send(box, ContractRecipients.timeout, text)).toMatchObject({ ok: false, code: 'TEMP_TIMEOUT' });
        expect(await send(box, ContractRecipients.providerDown, text)).toMatchObject({ ok: false, code: 'TEMP_SERVER_ERROR', providerFailure: true });
        expect(await send(box, ContractRecipients.bansSender, text)).toMatchObject({ ok: false, code: 'SENDER_BANNED' });
        expect((await s.gateway.sessionState(target(box))).status).toBe('disconnected');
      });

      ifOfficial('probe a connected official number', async (make) => {
        const s = await sut();
        const box = await connected(make);
        expect(await s.gateway.probe(target(box))).toEqual({ responding: true, connected: true, error: null });
        const profile = await s.gateway.fetchProfile(target(box));
        expect(typeof profile.name === 'string' || profile.name === null).toBe(true);
      });
    });
  });
}
