import { describe, expect, it } from '@jest/globals';
import { mediaAttachment, standardContent, validateEvent, validateInteractive, validatePoll } from './message-content.js';

const fails = (fn: () => unknown, field: string) => expect(fn).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', details: expect.objectContaining({ field }) }));

describe('standardContent', () => {
  it('accepts text, media with text, media alone and templates', () => {
    expect(standardContent({ text: 'Oi' })).toEqual({ type: 'text', text: 'Oi' });
    expect(standardContent({ text: 'Oi', mediaUrl: 'https://x.test/a.png', mediaType: 'image', mediaDelivery: 'after_text', mediaFilename: 'a.png' })).toEqual({
      type: 'media',
      text: 'Oi',
      media: { mediaType: 'image', url: 'https://x.test/a.png', delivery: 'after_text', filename: 'a.png' },
    });
    expect(standardContent({ mediaUrl: 'https://x.test/a.ogg', mediaType: 'audio' })).toEqual({ type: 'media', media: { mediaType: 'audio', url: 'https://x.test/a.ogg' } });
    expect(standardContent({ templateName: 'promo', templateLanguage: 'pt_BR', templateComponents: [{ type: 'body' }] })).toEqual({
      type: 'template',
      template: { name: 'promo', language: 'pt_BR', components: [{ type: 'body' }] },
    });
  });

  it('requires text unless media or a template is sent', () => {
    fails(() => standardContent({}, 'message.'), 'message.text');
    fails(() => standardContent({ text: '   ' }), 'text');
  });

  it('requires media_type with media_url, one of the four kinds, and an HTTPS URL', () => {
    fails(() => standardContent({ mediaUrl: 'https://x.test/a.png' }), 'media_type');
    fails(() => standardContent({ mediaUrl: 'https://x.test/a.png', mediaType: 'sticker' }), 'media_type');
    fails(() => standardContent({ mediaUrl: 'http://x.test/a.png', mediaType: 'image' }), 'media_url');
    fails(() => standardContent({ mediaUrl: 'not a url', mediaType: 'image' }), 'media_url');
    fails(() => standardContent({ text: 'a', mediaType: 'image' }), 'media_url');
    fails(() => standardContent({ text: 'a', mediaUrl: 'https://x.test/a.png', mediaType: 'image', mediaDelivery: 'sideways' }), 'media_delivery');
  });

  it('keeps template fields to template sends, with a language', () => {
    fails(() => standardContent({ text: 'Oi', templateName: 'promo', templateLanguage: 'pt_BR' }), 'template_name');
    fails(() => standardContent({ mediaUrl: 'https://x.test/a.png', mediaType: 'image', templateName: 'promo', templateLanguage: 'pt_BR' }), 'template_name');
    fails(() => standardContent({ templateName: 'promo' }), 'template_language');
    fails(() => standardContent({ templateLanguage: 'pt_BR' }), 'template_name');
  });

  it('limits text to 4096 characters', () => {
    fails(() => standardContent({ text: 'x'.repeat(4097) }), 'text');
  });
});

describe('mediaAttachment', () => {
  it('answers the attachment of a media_url, or null without one', () => {
    expect(mediaAttachment({ mediaUrl: 'https://x.test/a.pdf', mediaType: 'document', mediaFilename: ' a.pdf ', mediaDelivery: 'media_first' }, 'message.')).toEqual({
      mediaType: 'document',
      url: 'https://x.test/a.pdf',
      filename: 'a.pdf',
      delivery: 'media_first',
    });
    expect(mediaAttachment({})).toBeNull();
  });

  it('by default needs media_url for media_type, media_delivery and media_filename, as a single send does', () => {
    fails(() => mediaAttachment({ mediaType: 'image' }, 'message.'), 'message.media_url');
    fails(() => mediaAttachment({ mediaDelivery: 'inline' }, 'message.'), 'message.media_url');
    fails(() => mediaAttachment({ mediaFilename: 'a.png' }, 'message.'), 'message.media_url');
  });

  it('with optionsWithoutUrl, accepts media_delivery and media_filename alone but still checks the delivery and needs media_url for media_type', () => {
    const lenient = { optionsWithoutUrl: true };
    expect(mediaAttachment({ mediaDelivery: 'after_text', mediaFilename: 'a.png' }, 'message.', lenient)).toBeNull();
    fails(() => mediaAttachment({ mediaDelivery: 'sideways' }, 'message.', lenient), 'message.media_delivery');
    fails(() => mediaAttachment({ mediaType: 'image' }, 'recipients[0].', lenient), 'recipients[0].media_url');
    fails(() => mediaAttachment({ mediaUrl: 'http://x.test/a.png', mediaType: 'image' }, 'recipients[0].', lenient), 'recipients[0].media_url');
    fails(() => mediaAttachment({ mediaUrl: 'https://x.test/a.png' }, 'recipients[0].', lenient), 'recipients[0].media_type');
  });
});

describe('validateInteractive', () => {
  const button = (title: string, id = title) => ({ id, title });
  it('accepts up to 3 buttons with titles up to 20 characters', () => {
    const ok = validateInteractive({ type: 'button', bodyText: 'Confirma?', buttons: [button('Sim'), button('Não'), button('x'.repeat(20))] });
    expect(ok.buttons).toHaveLength(3);
    fails(() => validateInteractive({ type: 'button', bodyText: 'a', buttons: [button('1'), button('2'), button('3'), button('4')] }), 'interactive.action.buttons');
    fails(() => validateInteractive({ type: 'button', bodyText: 'a', buttons: [] }), 'interactive.action.buttons');
    fails(() => validateInteractive({ type: 'button', bodyText: 'a', buttons: [button('x'.repeat(21))] }), 'interactive.action.buttons[0].reply.title');
    fails(() => validateInteractive({ type: 'button', bodyText: '', buttons: [button('a')] }), 'interactive.body.text');
    fails(() => validateInteractive({ type: 'button', bodyText: 'a', buttons: [button('a', 'same'), button('b', 'same')] }), 'interactive.action.buttons');
  });

  it('accepts lists of up to 10 rows with titles up to 24 characters', () => {
    const rows = (n: number, title = 'Linha') => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, title }));
    expect(validateInteractive({ type: 'list', bodyText: 'Menu', sections: [{ title: 'A', rows: rows(10, 'x'.repeat(24)) }] }).sections?.[0]?.rows).toHaveLength(10);
    fails(() => validateInteractive({ type: 'list', bodyText: 'Menu', sections: [{ rows: rows(6) }, { rows: rows(5).map((r) => ({ ...r, id: `s${r.id}` })) }] }), 'interactive.action.sections');
    fails(() => validateInteractive({ type: 'list', bodyText: 'Menu', sections: [{ rows: rows(1, 'x'.repeat(25)) }] }), 'interactive.action.sections[0].rows[0].title');
    fails(() => validateInteractive({ type: 'list', bodyText: 'Menu', sections: [] }), 'interactive.action.sections');
  });
});

describe('validatePoll', () => {
  it('needs a name and 2 to 12 distinct options', () => {
    expect(validatePoll({ name: 'Dia?', options: ['Seg', 'Ter'], multipleAnswers: true })).toEqual({ name: 'Dia?', options: ['Seg', 'Ter'], multipleAnswers: true });
    fails(() => validatePoll({ name: 'Dia?', options: ['Seg'], multipleAnswers: false }), 'poll.options');
    fails(() => validatePoll({ name: 'Dia?', options: Array.from({ length: 13 }, (_, i) => `o${i}`), multipleAnswers: false }), 'poll.options');
    fails(() => validatePoll({ name: 'Dia?', options: ['Seg', 'Seg'], multipleAnswers: false }), 'poll.options');
    fails(() => validatePoll({ name: '', options: ['Seg', 'Ter'], multipleAnswers: false }), 'poll.name');
  });
});

describe('validateEvent', () => {
  const now = new Date('2026-01-15T12:00:00.000Z');
  const inOneHour = now.getTime() / 1000 + 3600;
  it('needs a name and a start in the future, and an end after the start', () => {
    expect(validateEvent({ name: 'Reunião', startTime: inOneHour, endTime: inOneHour + 1800 }, now)).toEqual({ name: 'Reunião', startTime: inOneHour, endTime: inOneHour + 1800 });
    fails(() => validateEvent({ name: 'Reunião', startTime: now.getTime() / 1000 - 1 }, now), 'event.startTime');
    fails(() => validateEvent({ name: 'Reunião', startTime: inOneHour, endTime: inOneHour }, now), 'event.endTime');
    fails(() => validateEvent({ name: '', startTime: inOneHour }, now), 'event.name');
  });
});
