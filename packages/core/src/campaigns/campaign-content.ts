import type { MessageContent } from '../messages/index.js';
import type { Campaign } from './campaign.js';
import type { CampaignMessage } from './campaign-message.js';
import { personalise, personaliseDeep, placeholderValues, rotatedText } from './personalisation.js';

/**
 * Components of a raw template for one recipient: placeholders inside `template_raw` are
 * filled, and the body's parameters are the recipient's values of `template_vars`, in order.
 */
export function templateComponentsFor(raw: unknown[], templateVars: readonly string[] | null, values: Record<string, string>): unknown[] {
  const components = personaliseDeep(raw, values) as Record<string, unknown>[];
  if (!templateVars || templateVars.length === 0) return components;
  const parameters = templateVars.map((name) => ({ type: 'text', text: values[name] ?? '' }));
  const body = components.find((c) => typeof c?.type === 'string' && c.type.toLowerCase() === 'body');
  if (body) body.parameters = parameters;
  else components.push({ type: 'body', parameters });
  return components;
}

/**
 * What one recipient receives, personalised at the moment of sending (so {{hora}}, {{data}} and
 * {{saudacao}} read the send time): the per-recipient text or media when given, else the base
 * text and the variants in turn; templates get their components built per recipient.
 */
export function recipientContent(campaign: Campaign, message: CampaignMessage, now: Date, timeZone: string): MessageContent {
  const values = placeholderValues({ phone: message.phone, name: message.name, variables: message.variables, now, timeZone });
  const c = campaign.content;
  if (c.templateName) {
    const components = c.templateRaw ? templateComponentsFor(c.templateRaw, c.templateVars, values) : ((personaliseDeep(c.templateComponents ?? [], values) as unknown[]) ?? []);
    return { type: 'template', template: { name: c.templateName, language: c.templateLanguage ?? 'pt_BR', components } };
  }
  const raw = message.text ?? rotatedText(c.text, c.variants, message.seq);
  const text = raw === null ? undefined : personalise(raw, { phone: message.phone, name: message.name, variables: message.variables, now, timeZone }, values);
  const mediaUrl = message.mediaUrl ?? c.mediaUrl;
  const mediaType = message.mediaUrl ? message.mediaType : c.mediaType;
  if (mediaUrl && mediaType) {
    const media: { mediaType: typeof mediaType; url: string; filename?: string; delivery?: NonNullable<typeof c.mediaDelivery> } = { mediaType, url: mediaUrl };
    if (c.mediaFilename && !message.mediaUrl) media.filename = c.mediaFilename;
    if (c.mediaDelivery) media.delivery = c.mediaDelivery;
    return text === undefined || text === '' ? { type: 'media', media } : { type: 'media', media, text };
  }
  return { type: 'text', text: text ?? '' };
}
