import { describe, expect, it } from '@jest/globals';
import { adaptToCapabilities, fallbackText, needsConversationWindow, planMediaDelivery, type ChannelCapabilities } from './outbound-content.js';

const qrCaps: ChannelCapabilities = { text: true, media: true, templates: false, interactive: false, polls: true, events: true, conversationWindow: false, editMessages: true, deleteMessages: true, reactions: true };
const officialCaps: ChannelCapabilities = { text: true, media: true, templates: true, interactive: true, polls: false, events: false, conversationWindow: true, editMessages: false, deleteMessages: false, reactions: true };

describe('outbound content', () => {
  it('puts the text in the caption inline, and splits after_text, media_first and audio', () => {
    const image = { mediaType: 'image' as const, url: 'https://x/a.png' };
    expect(planMediaDelivery({ text: 'Oi', media: image })).toEqual([{ kind: 'media', mediaType: 'image', url: 'https://x/a.png', caption: 'Oi' }]);
    expect(planMediaDelivery({ text: 'Oi', media: image, delivery: 'after_text' })).toEqual([
      { kind: 'text', text: 'Oi' },
      { kind: 'media', mediaType: 'image', url: 'https://x/a.png' },
    ]);
    expect(planMediaDelivery({ text: 'Oi', media: image, delivery: 'media_first' }).map((c) => c.kind)).toEqual(['media', 'text']);
    expect(planMediaDelivery({ text: 'Oi', media: { mediaType: 'audio', url: 'https://x/a.ogg' } })).toEqual([
      { kind: 'text', text: 'Oi' },
      { kind: 'media', mediaType: 'audio', url: 'https://x/a.ogg' },
    ]);
    expect(planMediaDelivery({ media: { ...image, filename: 'a.png' } })).toEqual([{ kind: 'media', mediaType: 'image', url: 'https://x/a.png', filename: 'a.png' }]);
    expect(planMediaDelivery({ text: 'Só texto' })).toEqual([{ kind: 'text', text: 'Só texto' }]);
  });

  it('turns interactive messages into a title line and numbered options on a qr channel', () => {
    const buttons = { kind: 'interactive' as const, interactiveType: 'button' as const, bodyText: 'Escolha', buttons: [{ id: 'a', title: 'Sim' }, { id: 'b', title: 'Não' }] };
    expect(adaptToCapabilities(buttons, qrCaps)).toEqual({ kind: 'text', text: 'Escolha\n\n1. Sim\n2. Não' });
    expect(adaptToCapabilities(buttons, officialCaps)).toBe(buttons);
    const list = {
      kind: 'interactive' as const,
      interactiveType: 'list' as const,
      bodyText: 'Menu',
      sections: [{ title: 'A', rows: [{ id: '1', title: 'Um', description: 'primeiro' }] }, { rows: [{ id: '2', title: 'Dois' }] }],
    };
    expect(fallbackText(list)).toBe('Menu\n\n1. Um - primeiro\n2. Dois');
  });

  it('sends polls and events as text on the official channel, with Brasília times', () => {
    const poll = { kind: 'poll' as const, name: 'Dia?', options: ['Seg', 'Ter'], multipleAnswers: false };
    expect(adaptToCapabilities(poll, officialCaps)).toEqual({ kind: 'text', text: 'Dia?\n\n1. Seg\n2. Ter' });
    const event = {
      kind: 'event' as const,
      name: 'Reunião',
      startTime: Date.UTC(2026, 0, 20, 13, 0) / 1000,
      endTime: Date.UTC(2026, 0, 20, 14, 30) / 1000,
      location: 'Sala 1',
      description: 'Pauta',
    };
    expect(fallbackText(event)).toBe('📅 Reunião\nInício: 20/01/2026 10:00\nFim: 20/01/2026 11:30\nLocal: Sala 1\n\nPauta');
    expect(adaptToCapabilities(event, qrCaps)).toBe(event);
  });

  it('never captions audio and needs the window for everything but templates', () => {
    expect(adaptToCapabilities({ kind: 'media', mediaType: 'audio', url: 'https://x/a.ogg', caption: 'x' }, qrCaps)).toEqual({
      kind: 'media',
      mediaType: 'audio',
      url: 'https://x/a.ogg',
    });
    expect(needsConversationWindow({ kind: 'template', name: 't', language: 'pt_BR', components: [] })).toBe(false);
    expect(needsConversationWindow({ kind: 'text', text: 'x' })).toBe(true);
  });
});
