import { fallbackText, type ChannelCapabilities, type OutboundContent } from '../channel/index.js';
import { ValidationError } from '../shared/errors.js';
import type { MediaAttachment, MessageContent } from './message-content.js';

export interface PlanOptions {
  /** IANA zone in which event times are written when the card falls back to text. */
  timeZone: string;
}

/** The default `media_delivery`: inline (captioned) except audio, which is never captioned and goes after the text. */
export function effectiveDelivery(media: MediaAttachment) {
  const delivery = media.delivery ?? 'inline';
  if (media.mediaType === 'audio' && delivery === 'inline') return 'after_text' as const;
  return delivery;
}

function mediaMessage(media: MediaAttachment, caption?: string): OutboundContent {
  const out: OutboundContent = { kind: 'media', mediaType: media.mediaType, url: media.url };
  if (caption !== undefined) out.caption = caption;
  if (media.filename !== undefined) out.filename = media.filename;
  return out;
}

/** The text version of content the setor cannot carry (the same rendering the gateways fall back to). */
function asText(content: OutboundContent, options: PlanOptions): OutboundContent {
  return { kind: 'text', text: fallbackText(content, { timeZone: options.timeZone }) };
}

/**
 * Plans what the channel receives for one message on a setor with the given capabilities:
 * - text: one text;
 * - media: inline puts the text in the caption (image, video, document); `after_text` sends the
 *   text then the media; `media_first` the media then the text; audio is never captioned
 *   (inline means text then audio);
 * - template: the template (400 on setores without templates);
 * - interactive: native where supported, else the numbered text;
 * - poll: native where supported, else a numbered text;
 * - event: native where supported, else a formatted text.
 * Campaigns reuse it per recipient and setor.
 */
export function planOutboundContent(content: MessageContent, capabilities: ChannelCapabilities, options: PlanOptions): OutboundContent[] {
  switch (content.type) {
    case 'text':
      return [{ kind: 'text', text: content.text }];
    case 'media': {
      if (!capabilities.media) throw new ValidationError('This box cannot send media', { field: 'media_url' });
      const { media, text } = content;
      if (text === undefined || text === '') return [mediaMessage(media)];
      switch (effectiveDelivery(media)) {
        case 'inline':
          return [mediaMessage(media, text)];
        case 'after_text':
          return [{ kind: 'text', text }, mediaMessage(media)];
        case 'media_first':
          return [mediaMessage(media), { kind: 'text', text }];
      }
      break;
    }
    case 'template':
      if (!capabilities.templates) {
        throw new ValidationError('Templates are only sent from official-channel boxes', { field: 'template_name' });
      }
      return [{ kind: 'template', name: content.template.name, language: content.template.language, components: content.template.components }];
    case 'interactive': {
      const i = content.interactive;
      const out: OutboundContent = { kind: 'interactive', interactiveType: i.type, bodyText: i.bodyText };
      if (i.buttons) out.buttons = i.buttons;
      if (i.sections) out.sections = i.sections;
      if (i.type === 'list') out.buttonText = i.buttonText ?? 'Ver opções';
      return [capabilities.interactive ? out : asText(out, options)];
    }
    case 'poll': {
      const out: OutboundContent = { kind: 'poll', name: content.poll.name, options: content.poll.options, multipleAnswers: content.poll.multipleAnswers };
      return [capabilities.polls ? out : asText(out, options)];
    }
    case 'event': {
      const out: OutboundContent = { kind: 'event', ...content.event };
      return [capabilities.events ? out : asText(out, options)];
    }
  }
  throw new Error('unreachable');
}
