import { describe, expect, it } from '@jest/globals';
import type { ChannelCapabilities } from '../channel/index.js';
import { planOutboundContent } from './content-planner.js';
import type { MessageContent } from './message-content.js';

const qr: ChannelCapabilities = { text: true, media: true, templates: false, interactive: false, polls: true, events: true, conversationWindow: false, editMessages: true, deleteMessages: true, reactions: true };
const official: ChannelCapabilities = { text: true, media: true, templates: true, interactive: true, polls: false, events: false, conversationWindow: true, editMessages: false, deleteMessages: false, reactions: true };
const plan = (content: MessageContent, caps = qr) => planOutboundContent(content, caps, { timeZone: 'America/Sao_Paulo' });
const image = { mediaType: 'image' as const, url: 'https://cdn.test/a.png' };

describe('planOutboundContent', () => {
  it('sends a text as one text', () => {
    expect(plan({ type: 'text', text: 'Oi' })).toEqual([{ kind: 'text', text: 'Oi' }]);
  });

  it('puts the text in the caption by default (inline) and keeps the file name', () => {
    expect(plan({ type: 'media', media: { ...image, mediaType: 'document', filename: 'boleto.pdf' }, text: 'Segue' })).toEqual([
      { kind: 'media', mediaType: 'document', url: image.url, caption: 'Segue', filename: 'boleto.pdf' },
    ]);
  });

  it('sends text then media for after_text, media then text for media_first', () => {
    expect(plan({ type: 'media', media: { ...image, delivery: 'after_text' }, text: 'Oi' })).toEqual([
      { kind: 'text', text: 'Oi' },
      { kind: 'media', mediaType: 'image', url: image.url },
    ]);
    expect(plan({ type: 'media', media: { ...image, delivery: 'media_first' }, text: 'Oi' })).toEqual([
      { kind: 'media', mediaType: 'image', url: image.url },
      { kind: 'text', text: 'Oi' },
    ]);
  });

  it('never captions audio: inline means text then audio; media_first keeps the order', () => {
    const audio = { mediaType: 'audio' as const, url: 'https://cdn.test/a.ogg' };
    expect(plan({ type: 'media', media: audio, text: 'Ouça' })).toEqual([
      { kind: 'text', text: 'Ouça' },
      { kind: 'media', mediaType: 'audio', url: audio.url },
    ]);
    expect(plan({ type: 'media', media: { ...audio, delivery: 'media_first' }, text: 'Ouça' })).toEqual([
      { kind: 'media', mediaType: 'audio', url: audio.url },
      { kind: 'text', text: 'Ouça' },
    ]);
  });

  it('sends media alone without a caption when there is no text', () => {
    expect(plan({ type: 'media', media: image })).toEqual([{ kind: 'media', mediaType: 'image', url: image.url }]);
  });

  it('sends templates only from boxes that have them', () => {
    const template: MessageContent = { type: 'template', template: { name: 'boas_vindas', language: 'pt_BR', components: [] } };
    expect(plan(template, official)).toEqual([{ kind: 'template', name: 'boas_vindas', language: 'pt_BR', components: [] }]);
    expect(() => plan(template, qr)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });

  it('sends interactive natively where supported and as numbered text elsewhere', () => {
    const list: MessageContent = {
      type: 'interactive',
      interactive: { type: 'list', bodyText: 'Escolha', sections: [{ rows: [{ id: 'a', title: 'Alfa' }, { id: 'b', title: 'Beta', description: 'segunda' }] }] },
    };
    expect(plan(list, official)[0]).toMatchObject({ kind: 'interactive', interactiveType: 'list', buttonText: 'Ver opções' });
    const [fallback] = plan(list, qr);
    expect(fallback?.kind).toBe('text');
    const text = (fallback as { text: string }).text;
    expect(text.startsWith('Escolha')).toBe(true);
    expect(text).toContain('1. Alfa');
    expect(text).toContain('2. Beta - segunda');
  });

  it('sends polls and events natively on QR boxes and as text on official boxes', () => {
    const poll: MessageContent = { type: 'poll', poll: { name: 'Melhor dia?', options: ['Seg', 'Ter'], multipleAnswers: false } };
    expect(plan(poll)).toEqual([{ kind: 'poll', name: 'Melhor dia?', options: ['Seg', 'Ter'], multipleAnswers: false }]);
    const [pollText] = plan(poll, official);
    expect((pollText as { text: string }).text).toContain('1. Seg');

    // 2026-01-20 17:00 UTC is 14:00 in Brasília.
    const event: MessageContent = { type: 'event', event: { name: 'Consulta', startTime: Date.UTC(2026, 0, 20, 17) / 1000, location: 'Sala 2' } };
    expect(plan(event)[0]).toMatchObject({ kind: 'event', name: 'Consulta' });
    const [eventText] = plan(event, official);
    expect(eventText?.kind).toBe('text');
    expect((eventText as { text: string }).text).toContain('20/01/2026 14:00');
    expect((eventText as { text: string }).text).toContain('Sala 2');
  });
});
