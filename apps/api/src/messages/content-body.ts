import type { StandardContentInput } from '@carteiro/core';

/** The content fields of a message body as the specification names them (single sends, first contacts, campaigns). */
export interface ContentBody {
  media_url?: string | null;
  media_type?: string | null;
  media_delivery?: string | null;
  media_filename?: string | null;
  template_name?: string | null;
  template_language?: string | null;
  template_components?: unknown[] | null;
}

/** Those fields and `text` under the core's names; absent and null stay absent and null (the core tells "missing" from "sent empty"). */
export function contentInput(body: ContentBody, text: string | null | undefined): StandardContentInput {
  return {
    text,
    mediaUrl: body.media_url,
    mediaType: body.media_type,
    mediaDelivery: body.media_delivery,
    mediaFilename: body.media_filename,
    templateName: body.template_name,
    templateLanguage: body.template_language,
    templateComponents: body.template_components,
  };
}
