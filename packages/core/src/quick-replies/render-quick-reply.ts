import type { MediaType } from '../channel/index.js';
import { placeholdersOf, type QuickReply } from './quick-reply.js';

/** What fills the placeholders of a quick reply or a closing message. */
export interface PlaceholderValues {
  /** The contact's name: `{{nome}}`, and its first word `{{primeiro_nome}}`. */
  contactName?: string | null;
  /** The ticket's number: `{{protocolo}}`. */
  protocol?: number | string | null;
  /** The answering agent's name: `{{atendente}}`. */
  agentName?: string | null;
}

/** Text with its placeholders filled; a missing value is an empty string, unknown placeholders stay as written. */
export function renderPlaceholders(text: string, values: PlaceholderValues): string {
  const name = values.contactName?.trim() ?? '';
  const filled: Record<string, string> = {
    nome: name,
    primeiro_nome: name.split(/\s+/)[0] ?? '',
    protocolo: values.protocol == null ? '' : String(values.protocol),
    atendente: values.agentName?.trim() ?? '',
  };
  return text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (whole, key: string) => (key in filled ? filled[key]! : whole));
}

/** A quick reply ready to send: its text with placeholders filled, and its media. */
export interface RenderedQuickReply {
  text: string | null;
  mediaUrl: string | null;
  mediaType: MediaType | null;
}

/** Fills a quick reply's placeholders (pure: `quick_reply_id` on ticket replies uses it). */
export function renderQuickReply(reply: Pick<QuickReply, 'text' | 'mediaUrl' | 'mediaType'>, values: PlaceholderValues): RenderedQuickReply {
  return {
    text: reply.text === null ? null : placeholdersOf(reply.text).length === 0 ? reply.text : renderPlaceholders(reply.text, values),
    mediaUrl: reply.mediaUrl,
    mediaType: reply.mediaType,
  };
}
