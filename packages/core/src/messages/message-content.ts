import { MediaTypes, type EventContent, type MediaType, type PollContent } from '../channel/index.js';
import { ValidationError } from '../shared/errors.js';

/** Order of text and media: the caption inline, text then media, or media then text (the spec's `media_delivery`). */
type Delivery = 'inline' | 'after_text' | 'media_first';
export const MEDIA_DELIVERIES: readonly Delivery[] = ['inline', 'after_text', 'media_first'];
/** Alias of {@link MEDIA_DELIVERIES}. */
export const MediaDeliveries = MEDIA_DELIVERIES;

export interface MediaAttachment {
  mediaType: MediaType;
  /** Public HTTPS URL. */
  url: string;
  filename?: string;
  /** Omitted: inline for image, video and document; text then audio for audio. */
  delivery?: Delivery;
}

export interface TemplateContent {
  name: string;
  language: string;
  /** Header, body and button components in the official Cloud-API shape. */
  components: unknown[];
}

export interface InteractiveButton {
  id: string;
  title: string;
}
export interface InteractiveRow {
  id: string;
  title: string;
  description?: string;
}
export interface InteractiveSection {
  title?: string;
  rows: InteractiveRow[];
}
export interface InteractiveContent {
  type: 'button' | 'list';
  bodyText: string;
  buttons?: InteractiveButton[];
  sections?: InteractiveSection[];
  /** Label of the button that opens a list. */
  buttonText?: string;
}

/** What the API was asked to send, before it is planned into channel messages. */
export type MessageContent =
  | { type: 'text'; text: string }
  | { type: 'media'; media: MediaAttachment; text?: string }
  | { type: 'template'; template: TemplateContent }
  | { type: 'interactive'; interactive: InteractiveContent }
  | { type: 'poll'; poll: PollContent }
  | { type: 'event'; event: EventContent };

export const MAX_TEXT_LENGTH = 4096;
export const MAX_BUTTONS = 3;
export const MAX_BUTTON_TITLE = 20;
export const MAX_LIST_ROWS = 10;
export const MAX_ROW_TITLE = 24;
export const MIN_POLL_OPTIONS = 2;
export const MAX_POLL_OPTIONS = 12;

const invalid = (field: string, message: string, extra: Record<string, unknown> = {}): never => {
  throw new ValidationError(message, { field, ...extra });
};

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

/** Whether a URL is an absolute `https:` URL. */
export function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/** The standard content fields of the send bodies (`message` of POST /v1/messages, first-contact's top level). */
export interface StandardContentInput {
  text?: string | null;
  mediaUrl?: string | null;
  mediaType?: string | null;
  mediaDelivery?: string | null;
  mediaFilename?: string | null;
  templateName?: string | null;
  templateLanguage?: string | null;
  templateComponents?: unknown[] | null;
}

/**
 * Applies the content rules of the specification to text, media and template sends:
 * text is required unless media or a template is sent; `media_type` (image, video, audio,
 * document) with `media_url`, which must be HTTPS; template fields only for template sends,
 * `template_language` with `template_name`. Field names in errors use the API's spelling
 * under `prefix` (e.g. `message.`); `textField` is the body's name of the text (`message` in
 * first-contact, whose text is a top-level string).
 */
export function standardContent(input: StandardContentInput, prefix = '', textField = 'text'): MessageContent {
  const f = (name: string) => `${prefix}${name}`;
  const textName = f(textField);
  const hasTemplateFields = present(input.templateName) || present(input.templateLanguage) || input.templateComponents != null;
  const hasMedia = present(input.mediaUrl);
  const hasText = present(input.text);

  if (hasTemplateFields) {
    if (hasText || hasMedia || present(input.mediaType)) {
      invalid(f('template_name'), 'Template fields are only for template sends: omit text and media, or the template fields');
    }
    if (!present(input.templateName)) invalid(f('template_name'), `${f('template_name')} is required with template fields`);
    if (!present(input.templateLanguage)) invalid(f('template_language'), `${f('template_language')} is required with template_name`);
    if (input.templateComponents != null && !Array.isArray(input.templateComponents)) {
      invalid(f('template_components'), `${f('template_components')} must be an array`);
    }
    return {
      type: 'template',
      template: { name: input.templateName!.trim(), language: input.templateLanguage!.trim(), components: input.templateComponents ?? [] },
    };
  }

  if (hasText && input.text!.length > MAX_TEXT_LENGTH) {
    invalid(textName, `${textName} is longer than ${MAX_TEXT_LENGTH} characters`, { max: MAX_TEXT_LENGTH });
  }

  const media = mediaAttachment(input, prefix);
  if (!media) {
    if (!hasText) invalid(textName, `${textName} is required when neither media nor a template is sent`);
    return { type: 'text', text: input.text! };
  }
  return hasText ? { type: 'media', media, text: input.text! } : { type: 'media', media };
}

/** The media fields of a send body (`media_url`, `media_type`, `media_delivery`, `media_filename`). */
export interface MediaFieldsInput {
  mediaUrl?: string | null;
  mediaType?: string | null;
  mediaDelivery?: string | null;
  mediaFilename?: string | null;
}

/** How {@link mediaAttachment} treats media options sent without a `media_url`. */
export interface MediaRuleOptions {
  /**
   * Accept `media_delivery` and `media_filename` without `media_url` (still checking the delivery
   * against the list): a campaign's message carries them for the media of its recipients. By
   * default they need `media_url`, as in a single send.
   */
  optionsWithoutUrl?: boolean;
}

/**
 * The media rules of every send: `media_url` an HTTPS URL, `media_type` (image, video, audio,
 * document) required with it, `media_delivery` one of inline, after_text, media_first; the media
 * fields other than `media_url` need it (see {@link MediaRuleOptions}). Answers the attachment,
 * or null when no `media_url` is sent. Field names in errors use the API's spelling under `prefix`.
 */
export function mediaAttachment(input: MediaFieldsInput, prefix = '', options: MediaRuleOptions = {}): MediaAttachment | null {
  const f = (name: string) => `${prefix}${name}`;
  const checkDelivery = () => {
    if (present(input.mediaDelivery) && !(MEDIA_DELIVERIES as readonly string[]).includes(input.mediaDelivery!)) {
      invalid(f('media_delivery'), `${f('media_delivery')} must be one of ${MEDIA_DELIVERIES.join(', ')}`, { allowed: MEDIA_DELIVERIES });
    }
  };

  if (!present(input.mediaUrl)) {
    const stray = options.optionsWithoutUrl ? present(input.mediaType) : present(input.mediaType) || present(input.mediaDelivery) || present(input.mediaFilename);
    if (stray) invalid(f('media_url'), `${f('media_url')} is required with media_type, media_delivery or media_filename`);
    checkDelivery();
    return null;
  }

  if (!isHttpsUrl(input.mediaUrl!)) invalid(f('media_url'), `${f('media_url')} must be a public HTTPS URL`);
  if (!present(input.mediaType)) invalid(f('media_type'), `${f('media_type')} is required with media_url`);
  if (!(MediaTypes as readonly string[]).includes(input.mediaType!)) {
    invalid(f('media_type'), `${f('media_type')} must be one of ${MediaTypes.join(', ')}`, { allowed: MediaTypes });
  }
  checkDelivery();
  const media: MediaAttachment = { mediaType: input.mediaType as MediaType, url: input.mediaUrl! };
  if (present(input.mediaFilename)) media.filename = input.mediaFilename!.trim();
  if (present(input.mediaDelivery)) media.delivery = input.mediaDelivery as Delivery;
  return media;
}

/** Interactive buttons (up to 3, titles up to 20) or a list (up to 10 rows, titles up to 24). */
export function validateInteractive(interactive: InteractiveContent): InteractiveContent {
  if (!present(interactive.bodyText)) invalid('interactive.body.text', 'interactive.body.text is required');
  if (interactive.bodyText.length > MAX_TEXT_LENGTH) invalid('interactive.body.text', `interactive.body.text is longer than ${MAX_TEXT_LENGTH} characters`);
  if (interactive.type === 'button') {
    const buttons = interactive.buttons ?? [];
    if (buttons.length < 1 || buttons.length > MAX_BUTTONS) {
      invalid('interactive.action.buttons', `interactive.action.buttons needs 1 to ${MAX_BUTTONS} items`, { max: MAX_BUTTONS, count: buttons.length });
    }
    buttons.forEach((b, i) => {
      const field = `interactive.action.buttons[${i}].reply`;
      if (!present(b.id)) invalid(`${field}.id`, `${field}.id is required`);
      if (!present(b.title)) invalid(`${field}.title`, `${field}.title is required`);
      if ([...b.title].length > MAX_BUTTON_TITLE) invalid(`${field}.title`, `${field}.title is longer than ${MAX_BUTTON_TITLE} characters`, { max: MAX_BUTTON_TITLE });
    });
    if (new Set(buttons.map((b) => b.id)).size !== buttons.length) invalid('interactive.action.buttons', 'button ids must be unique');
    return { type: 'button', bodyText: interactive.bodyText, buttons: buttons.map((b) => ({ id: b.id, title: b.title })) };
  }
  if (interactive.type !== 'list') invalid('interactive.type', "interactive.type must be 'button' or 'list'", { allowed: ['button', 'list'] });
  const sections = interactive.sections ?? [];
  const rows = sections.flatMap((s) => s.rows ?? []);
  if (sections.length < 1 || rows.length < 1 || rows.length > MAX_LIST_ROWS) {
    invalid('interactive.action.sections', `a list needs 1 to ${MAX_LIST_ROWS} rows in its sections`, { max: MAX_LIST_ROWS, count: rows.length });
  }
  sections.forEach((s, si) =>
    (s.rows ?? []).forEach((r, ri) => {
      const field = `interactive.action.sections[${si}].rows[${ri}]`;
      if (!present(r.id)) invalid(`${field}.id`, `${field}.id is required`);
      if (!present(r.title)) invalid(`${field}.title`, `${field}.title is required`);
      if ([...r.title].length > MAX_ROW_TITLE) invalid(`${field}.title`, `${field}.title is longer than ${MAX_ROW_TITLE} characters`, { max: MAX_ROW_TITLE });
    }),
  );
  if (new Set(rows.map((r) => r.id)).size !== rows.length) invalid('interactive.action.sections', 'row ids must be unique');
  const list: InteractiveContent = {
    type: 'list',
    bodyText: interactive.bodyText,
    sections: sections.map((s) => ({
      ...(present(s.title) ? { title: s.title } : {}),
      rows: s.rows.map((r) => ({ id: r.id, title: r.title, ...(present(r.description) ? { description: r.description } : {}) })),
    })),
  };
  if (present(interactive.buttonText)) list.buttonText = interactive.buttonText;
  return list;
}

/** A poll: a name and 2 to 12 distinct options. */
export function validatePoll(poll: PollContent): PollContent {
  if (!present(poll.name)) invalid('poll.name', 'poll.name is required');
  const options = poll.options ?? [];
  if (options.length < MIN_POLL_OPTIONS || options.length > MAX_POLL_OPTIONS) {
    invalid('poll.options', `poll.options needs ${MIN_POLL_OPTIONS} to ${MAX_POLL_OPTIONS} items`, { min: MIN_POLL_OPTIONS, max: MAX_POLL_OPTIONS, count: options.length });
  }
  options.forEach((o, i) => {
    if (!present(o)) invalid(`poll.options[${i}]`, `poll.options[${i}] must not be empty`);
  });
  if (new Set(options.map((o) => o.trim())).size !== options.length) invalid('poll.options', 'poll.options must be distinct');
  return { name: poll.name, options: [...options], multipleAnswers: poll.multipleAnswers ?? false };
}

/** An event card: a name, a start in the future (Unix seconds), an end after the start. */
export function validateEvent(event: EventContent, now: Date): EventContent {
  if (!present(event.name)) invalid('event.name', 'event.name is required');
  if (!Number.isFinite(event.startTime)) invalid('event.startTime', 'event.startTime must be a Unix timestamp in seconds');
  if (event.startTime * 1000 <= now.getTime()) invalid('event.startTime', 'event.startTime must be in the future', { now: Math.floor(now.getTime() / 1000) });
  if (event.endTime !== undefined && event.endTime !== null) {
    if (!Number.isFinite(event.endTime)) invalid('event.endTime', 'event.endTime must be a Unix timestamp in seconds');
    if (event.endTime <= event.startTime) invalid('event.endTime', 'event.endTime must be after event.startTime');
  }
  const out: EventContent = { name: event.name, startTime: event.startTime };
  if (event.endTime != null) out.endTime = event.endTime;
  if (present(event.description)) out.description = event.description;
  if (present(event.location)) out.location = event.location;
  if (event.extraGuestsAllowed !== undefined) out.extraGuestsAllowed = event.extraGuestsAllowed;
  return out;
}

/** The text a message carries, for records, edits and search (null when it has none). */
export function contentText(content: MessageContent): string | null {
  switch (content.type) {
    case 'text':
      return content.text;
    case 'media':
      return content.text ?? null;
    case 'template':
      return null;
    case 'interactive':
      return content.interactive.bodyText;
    case 'poll':
      return content.poll.name;
    case 'event':
      return content.event.name;
  }
}
