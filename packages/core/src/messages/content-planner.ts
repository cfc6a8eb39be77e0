import type { ChannelCapabilities, OutboundContent } from '../channel/outbound-content.js';
import { ValidationError } from '../shared/errors.js';
import type { EventContent, InteractiveContent, MediaAttachment, MessageContent, PollContent } from './message-content.js';

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

/** The numbered-text version of interactive buttons or a list: the body line, then `1. option` lines. */
export function interactiveAsText(interactive: InteractiveContent): string {
  const options =
    interactive.type === 'button'
      ? (interactive.buttons ?? []).map((b) => b.title)
      : (interactive.sections ?? []).flatMap((s) => s.rows.map((r) => (r.description ? `${r.title} - ${r.description}` : r.title)));
  return [interactive.bodyText, ...options.map((o, i) => `${i + 1}. ${o}`)].join('\n');
}

/** The numbered-text version of a poll. */
export function pollAsText(poll: PollContent): string {
  const hint = poll.multipleAnswers ? '(responda com um ou mais números)' : '(responda com o número da opção)';
  return [`📊 ${poll.name}`, ...poll.options.map((o, i) => `${i + 1}. ${o}`), hint].join('\n');
}

const dateTimeFormatters = new Map<string, Intl.DateTimeFormat>();
function formatLocal(unixSeconds: number, timeZone: string): string {
  let f = dateTimeFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
    dateTimeFormatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(unixSeconds * 1000)).map((x) => [x.type, x.value]));
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** The formatted-text version of an event card, times in the company's zone (DD/MM/YYYY HH:MM). */
export function eventAsText(event: EventContent, timeZone: string): string {
  const start = formatLocal(event.startTime, timeZone);
  let when = start;
  if (event.endTime !== undefined) {
    const end = formatLocal(event.endTime, timeZone);
    // Same day: only the end's hour.
    when = end.slice(0, 10) === start.slice(0, 10) ? `${start} - ${end.slice(11)}` : `${start} - ${end}`;
  }
  const lines = [`📅 ${event.name}`, `🕒 ${when}`];
  if (event.location) lines.push(`📍 ${event.location}`);
  if (event.description) lines.push('', event.description);
  return lines.join('\n');
}

/**
 * Plans what the channel receives for one message on a box with the given capabilities:
 * - text: one text;
 * - media: inline puts the text in the caption (image, video, document); `after_text` sends the
 *   text then the media; `media_first` the media then the text; audio is never captioned
 *   (inline means text then audio);
 * - template: the template (400 on boxes without templates);
 * - interactive: native where supported, else the numbered text;
 * - poll: native where supported, else a numbered text;
 * - event: native where supported, else a formatted text.
 * Campaigns reuse it per recipient and box.
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
      if (!capabilities.interactive) return [{ kind: 'text', text: interactiveAsText(i) }];
      const out: OutboundContent = { kind: 'interactive', interactiveType: i.type, bodyText: i.bodyText };
      if (i.buttons) out.buttons = i.buttons;
      if (i.sections) out.sections = i.sections;
      if (i.type === 'list') out.buttonText = i.buttonText ?? 'Ver opções';
      return [out];
    }
    case 'poll':
      if (!capabilities.polls) return [{ kind: 'text', text: pollAsText(content.poll) }];
      return [{ kind: 'poll', name: content.poll.name, options: content.poll.options, multipleAnswers: content.poll.multipleAnswers }];
    case 'event': {
      if (!capabilities.events) return [{ kind: 'text', text: eventAsText(content.event, options.timeZone) }];
      return [{ kind: 'event', ...content.event }];
    }
  }
  throw new Error('unreachable');
}
