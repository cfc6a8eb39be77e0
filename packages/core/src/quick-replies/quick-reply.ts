import { MediaTypes, type MediaType } from '../channel/index.js';
import { ValidationError } from '../shared/errors.js';

/** The placeholders a quick reply or a closing message may hold (conversations.md §3, §9). */
export const QuickReplyPlaceholders = ['nome', 'primeiro_nome', 'protocolo', 'atendente'] as const;
export type QuickReplyPlaceholder = (typeof QuickReplyPlaceholders)[number];

/** A canned answer agents pick by `shortcut`; `setorId` null is company-wide. */
export interface QuickReply {
  id: string;
  companyId: string;
  setorId: string | null;
  shortcut: string;
  title: string;
  text: string | null;
  mediaUrl: string | null;
  mediaType: MediaType | null;
  /** The placeholders `text` uses, in order of first use. */
  placeholders: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** Quick replies per company (conversations.md §11). */
export const MAX_QUICK_REPLIES = 1000;
export const MAX_QUICK_REPLY_TEXT_LENGTH = 4096;
export const MAX_QUICK_REPLY_TITLE_LENGTH = 100;
export const QUICK_REPLY_SHORTCUT = /^[a-z0-9_-]{1,32}$/;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The placeholder names `text` uses, in order of first use (known or not). */
export function placeholdersOf(text: string | null): string[] {
  if (!text) return [];
  const names: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) if (!names.includes(match[1]!)) names.push(match[1]!);
  return names;
}

/** Refuses a text with a placeholder other than {@link QuickReplyPlaceholders} (400 naming `field`). */
export function checkPlaceholders(text: string | null | undefined, field: string): string[] {
  const names = placeholdersOf(text ?? null);
  const unknown = names.filter((name) => !(QuickReplyPlaceholders as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new ValidationError(`Unknown placeholder {{${unknown[0]}}}; allowed: ${QuickReplyPlaceholders.map((p) => `{{${p}}}`).join(' ')}`, {
      field,
      placeholders: unknown,
      allowed: QuickReplyPlaceholders,
    });
  }
  return names;
}

/** The writable fields of a quick reply; omitted fields keep theirs. */
export interface QuickReplyInput {
  shortcut?: string;
  title?: string;
  text?: string | null;
  mediaUrl?: string | null;
  mediaType?: string | null;
  setorId?: string | null;
}

/**
 * The reply with `input` applied and every rule checked: shortcut 1-32 of `[a-z0-9_-]`, title
 * 1-100, text ≤ 4096 with known placeholders, media URL (HTTPS) and type together, text or media.
 */
export function applyQuickReplyInput(reply: QuickReply, input: QuickReplyInput, now: Date): QuickReply {
  if (input.shortcut !== undefined && !QUICK_REPLY_SHORTCUT.test(input.shortcut)) {
    throw new ValidationError('shortcut must have 1-32 characters of a-z, 0-9, _ and -', { field: 'shortcut' });
  }
  if (input.title !== undefined && (input.title.trim().length < 1 || input.title.length > MAX_QUICK_REPLY_TITLE_LENGTH)) {
    throw new ValidationError(`title must have 1-${MAX_QUICK_REPLY_TITLE_LENGTH} characters`, { field: 'title' });
  }
  const text = input.text !== undefined ? (input.text === null || input.text.trim() === '' ? null : input.text) : reply.text;
  if (text !== null && text.length > MAX_QUICK_REPLY_TEXT_LENGTH) {
    throw new ValidationError(`text must be at most ${MAX_QUICK_REPLY_TEXT_LENGTH} characters`, { field: 'text', max: MAX_QUICK_REPLY_TEXT_LENGTH });
  }
  const placeholders = checkPlaceholders(text, 'text');
  const mediaUrl = input.mediaUrl !== undefined ? input.mediaUrl || null : reply.mediaUrl;
  const mediaType = input.mediaType !== undefined ? input.mediaType || null : reply.mediaType;
  if (mediaUrl !== null) {
    let https = false;
    try {
      https = new URL(mediaUrl).protocol === 'https:';
    } catch {
      https = false;
    }
    if (!https) throw new ValidationError('media_url must be an HTTPS URL', { field: 'media_url' });
    if (mediaType === null) throw new ValidationError('media_type is required with media_url', { field: 'media_type' });
  }
  if (mediaType !== null && !(MediaTypes as readonly string[]).includes(mediaType)) {
    throw new ValidationError(`media_type must be one of ${MediaTypes.join(', ')}`, { field: 'media_type', allowed: MediaTypes });
  }
  if (mediaType !== null && mediaUrl === null) throw new ValidationError('media_url is required with media_type', { field: 'media_url' });
  if (text === null && mediaUrl === null) throw new ValidationError('A quick reply needs text or media', { field: 'text' });
  return {
    ...reply,
    shortcut: input.shortcut ?? reply.shortcut,
    title: input.title !== undefined ? input.title.trim() : reply.title,
    text,
    mediaUrl,
    mediaType: mediaType as MediaType | null,
    setorId: input.setorId !== undefined ? input.setorId : reply.setorId,
    placeholders,
    updatedAt: now,
  };
}

/** A new quick reply from `input` (shortcut and title required). */
export function createQuickReply(id: string, companyId: string, now: Date, input: QuickReplyInput & { shortcut: string; title: string }): QuickReply {
  const blank: QuickReply = {
    id,
    companyId,
    setorId: null,
    shortcut: input.shortcut,
    title: input.title,
    text: null,
    mediaUrl: null,
    mediaType: null,
    placeholders: [],
    createdAt: now,
    updatedAt: now,
  };
  return applyQuickReplyInput(blank, input, now);
}
