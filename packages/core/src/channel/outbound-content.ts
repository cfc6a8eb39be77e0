export type MediaType = 'image' | 'video' | 'audio' | 'document';
export const MediaTypes: readonly MediaType[] = ['image', 'video', 'audio', 'document'];

/** One message as the channel receives it. A send may need several (text, then media). */
export type OutboundContent =
  | { kind: 'text'; text: string }
  | { kind: 'media'; mediaType: MediaType; url: string; caption?: string; filename?: string }
  /** A file sent from memory (a contract's PDF): the simulator records its size and SHA-256, Evolution gets base64, the Cloud API an upload. */
  | { kind: 'document'; filename: string; mimeType: string; data: Uint8Array; caption?: string }
  | { kind: 'template'; name: string; language: string; components: unknown[] }
  | {
      kind: 'interactive';
      interactiveType: 'button' | 'list';
      bodyText: string;
      buttons?: { id: string; title: string }[];
      sections?: { title?: string; rows: { id: string; title: string; description?: string }[] }[];
      buttonText?: string;
    }
  | ({ kind: 'poll' } & PollContent)
  | ({ kind: 'event' } & EventContent);

/** A poll: a question and its options, one answer or several. */
export interface PollContent {
  name: string;
  options: string[];
  multipleAnswers: boolean;
}

/** An event card. */
export interface EventContent {
  name: string;
  /** Unix seconds. */
  startTime: number;
  endTime?: number;
  description?: string;
  location?: string;
  extraGuestsAllowed?: boolean;
}

/** What a setor's channel can carry natively; the rest is sent as text. */
export interface ChannelCapabilities {
  text: boolean;
  media: boolean;
  templates: boolean;
  interactive: boolean;
  polls: boolean;
  events: boolean;
  /** Free text and media need a customer message within the last 24 hours (official channel). */
  conversationWindow: boolean;
  /** A sent message's text or caption can be replaced (`ChannelGateway.editMessage`). */
  editMessages: boolean;
  /** A sent message can be deleted for everyone (`ChannelGateway.deleteMessage`). */
  deleteMessages: boolean;
  /** The number can react to a sent message with an emoji (`ChannelGateway.react`). */
  reactions: boolean;
}

/** An operation on an already-sent message. */
export type SentMessageOperation = 'edit' | 'delete' | 'reaction';

/** The capability each operation on a sent message needs. */
const OPERATION_CAPABILITY: Readonly<Record<SentMessageOperation, keyof ChannelCapabilities>> = { edit: 'editMessages', delete: 'deleteMessages', reaction: 'reactions' };

/** Whether the channel can do `operation` on a sent message. */
export function supportsOperation(operation: SentMessageOperation, capabilities: ChannelCapabilities): boolean {
  return capabilities[OPERATION_CAPABILITY[operation]];
}

/** How a media send with text is split (the specification's `media_delivery`). */
export type MediaDelivery = 'inline' | 'after_text' | 'media_first';

/**
 * The channel messages of one send with text and/or media, with the specification's caption rules:
 * `inline` puts the text in the caption (image, video, document); audio never carries a caption, so
 * inline audio is sent as the text then the audio; `after_text` sends the text then the media;
 * `media_first` the media then the text.
 */
export function planMediaDelivery(input: {
  text?: string | null;
  media?: { mediaType: MediaType; url: string; filename?: string } | null;
  delivery?: MediaDelivery;
}): OutboundContent[] {
  const text = input.text?.trim() ? input.text : null;
  if (!input.media) return text ? [{ kind: 'text', text }] : [];
  const media: OutboundContent = {
    kind: 'media',
    mediaType: input.media.mediaType,
    url: input.media.url,
    ...(input.media.filename ? { filename: input.media.filename } : {}),
  };
  if (!text) return [media];
  const delivery = input.delivery ?? 'inline';
  if (delivery === 'media_first') return [media, { kind: 'text', text }];
  if (delivery === 'after_text' || input.media.mediaType === 'audio') return [{ kind: 'text', text }, media];
  return [{ ...media, caption: text }];
}

const numbered = (items: string[]) => items.map((item, i) => `${i + 1}. ${item}`).join('\n');

function formatInstant(unixSeconds: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('pt-BR', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(unixSeconds * 1000));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('day')}/${get('month')}/${get('year')} ${get('hour')}:${get('minute')}`;
}

/**
 * The plain text a channel without native support receives instead: interactive messages and polls
 * as a title line then `1. option` lines; event cards as a formatted text (times in `timeZone`,
 * Brasília by default); media as its caption and link; templates as their name.
 */
export function fallbackText(content: OutboundContent, options: { timeZone?: string } = {}): string {
  const timeZone = options.timeZone ?? 'America/Sao_Paulo';
  switch (content.kind) {
    case 'text':
      return content.text;
    case 'media':
      return [content.caption, content.url].filter(Boolean).join('\n');
    case 'document':
      return [content.caption, content.filename].filter(Boolean).join('\n');
    case 'template':
      return content.name;
    case 'interactive': {
      const options =
        content.interactiveType === 'button'
          ? (content.buttons ?? []).map((b) => b.title)
          : (content.sections ?? []).flatMap((s) => s.rows.map((r) => (r.description ? `${r.title} - ${r.description}` : r.title)));
      return `${content.bodyText}\n\n${numbered(options)}`;
    }
    case 'poll':
      return `${content.name}\n\n${numbered(content.options)}`;
    case 'event': {
      const lines = [`📅 ${content.name}`, `Início: ${formatInstant(content.startTime, timeZone)}`];
      if (content.endTime !== undefined) lines.push(`Fim: ${formatInstant(content.endTime, timeZone)}`);
      if (content.location) lines.push(`Local: ${content.location}`);
      if (content.description) lines.push('', content.description);
      return lines.join('\n');
    }
  }
}

/** The capability each kind of content needs (a document is media). */
const CONTENT_CAPABILITY: Readonly<Record<OutboundContent['kind'], keyof ChannelCapabilities>> = {
  text: 'text',
  media: 'media',
  document: 'media',
  template: 'templates',
  interactive: 'interactive',
  poll: 'polls',
  event: 'events',
};

/** Whether the channel carries `content` natively. */
export function supportsContent(content: OutboundContent, capabilities: ChannelCapabilities): boolean {
  return capabilities[CONTENT_CAPABILITY[content.kind]];
}

/**
 * What is actually sent for `content` on a channel with `capabilities`: the content itself when
 * supported (audio loses any caption), otherwise its `fallbackText`. Idempotent.
 */
export function adaptToCapabilities(
  content: OutboundContent,
  capabilities: ChannelCapabilities,
  options: { timeZone?: string } = {},
): OutboundContent {
  if (!supportsContent(content, capabilities)) return { kind: 'text', text: fallbackText(content, options) };
  if (content.kind === 'media' && content.mediaType === 'audio' && content.caption !== undefined) {
    const { caption: _caption, ...rest } = content;
    return rest;
  }
  return content;
}

/**
 * Whether the official channel needs an open 24-hour window for this content: everything but an
 * approved template (free text, media, and interactive messages are session messages).
 */
export function needsConversationWindow(content: OutboundContent): boolean {
  return content.kind !== 'template';
}
