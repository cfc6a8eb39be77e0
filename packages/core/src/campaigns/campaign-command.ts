import type { KeyMode } from '../api-keys/index.js';
import type { MediaDelivery, MediaType } from '../channel/index.js';
import { MAX_RECIPIENTS_PER_CAMPAIGN } from '../companies/index.js';
import { mediaAttachment, type StandardContentInput } from '../messages/index.js';
import type { SenderSelection } from '../routing/index.js';
import { ValidationError } from '../shared/errors.js';
import { parseAntiBanLevel } from './anti-ban.js';
import type { Campaign, CampaignContent } from './campaign.js';
import { Distributions, type Distribution, type DistributionMode } from './distribution.js';

/** One recipient of a campaign: a phone or a known contact, with what is personal to them. */
export interface CampaignRecipientCommand {
  phone?: string | null;
  /** A contact of the company; wins over `phone`. */
  clientId?: string | null;
  name?: string | null;
  /** Replaces the campaign's text for this recipient. */
  text?: string | null;
  mediaUrl?: string | null;
  mediaType?: string | null;
  /** Values of `{{placeholders}}`. */
  variables?: Record<string, string> | null;
}

/** The message every recipient receives, personalised when it is sent: a send body's standard content, and more. */
export interface CampaignContentCommand extends StandardContentInput {
  /** Alternative texts that take turns with `text`. */
  variants?: string[] | null;
  /** Components with `{{placeholders}}`, filled per recipient. */
  templateRaw?: unknown[] | null;
  /** Recipient variables that become the body parameters, in order. */
  templateVars?: string[] | null;
}

/**
 * What creating a campaign takes. Fields are as loose as a request may send them: the rules of
 * the specification are applied by {@link validateCreateCampaign}, whose errors name the fields
 * in the API's spelling (`message.media_url`, `options.schedule_at`).
 */
export interface CreateCampaignCommand {
  name?: string | null;
  title?: string | null;
  description?: string | null;
  /** The sender pool: one setor, several, a team, or every connected setor (`multiNumber`). */
  setorId?: string | null;
  setorIds?: string[] | null;
  teamId?: string | null;
  multiNumber?: boolean | null;
  /** 'single' or 'multi_number'. */
  distributionMode?: string | null;
  recipients?: CampaignRecipientCommand[] | null;
  message?: CampaignContentCommand | null;
  /** When to start, an ISO 8601 date-time in the future; absent starts at once. */
  scheduledFor?: string | null;
  antiBanLevel?: string | null;
  /** 'interleaved' or 'sequential'. */
  distribution?: string | null;
  /** Where this campaign's events are also posted. */
  callbackUrl?: string | null;
}

/** Who asks: the authenticated key's company, id and mode. */
export interface CampaignCaller {
  companyId: string;
  apiKeyId: string | null;
  mode: KeyMode;
}

export const CAMPAIGN_LIMITS = {
  title: 120,
  description: 500,
  variants: 4,
  variantLength: 1024,
  recipientText: 1024,
  activeCampaignsInError: 10,
} as const;

/** A command that passed every rule needing no database. */
export interface ValidCampaignCommand {
  name: string;
  title: string | null;
  description: string | null;
  content: CampaignContent;
  recipients: CampaignRecipientCommand[];
  selection: SenderSelection;
  requestedMode: DistributionMode | null;
  scheduleAt: Date | null;
  antiBanLevel: Campaign['antiBanLevel'];
  distribution: Distribution;
  callbackUrl: string | null;
}

const present = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';

const isHttpUrl = (v: string) => {
  try {
    return ['https:', 'http:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

const invalid = (field: string, message: string, extra: Record<string, unknown> = {}): never => {
  throw new ValidationError(message, { field, ...extra });
};

/** Every rule of the specification's body table that needs no database, in the order they are checked. */
export function validateCreateCampaign(command: CreateCampaignCommand, now: Date): ValidCampaignCommand {
  const recipients = requiredParts(command);
  const message = command.message!;
  const content = validMessage(message);
  recipients.forEach(validRecipient);

  let scheduleAt: Date | null = null;
  if (command.scheduledFor != null) {
    scheduleAt = new Date(command.scheduledFor);
    if (!present(command.scheduledFor) || Number.isNaN(scheduleAt.getTime())) invalid('options.schedule_at', 'options.schedule_at must be an ISO 8601 date-time');
    if (scheduleAt.getTime() <= now.getTime()) invalid('options.schedule_at', 'options.schedule_at must be in the future', { now: now.toISOString() });
  }
  const distribution = command.distribution ?? 'interleaved';
  if (!(Distributions as readonly string[]).includes(distribution)) invalid('options.distribution', "options.distribution must be 'interleaved' or 'sequential'", { allowed: Distributions });
  if (command.callbackUrl != null && !isHttpUrl(command.callbackUrl)) invalid('options.callback_url', 'options.callback_url must be an absolute URL');
  const requestedMode = command.distributionMode ?? null;
  if (requestedMode !== null && requestedMode !== 'single' && requestedMode !== 'multi_number') {
    invalid('distribution_mode', "distribution_mode must be 'single' or 'multi_number'", { allowed: ['single', 'multi_number'] });
  }

  return {
    name: command.name!.trim(),
    title: command.title ?? null,
    description: command.description ?? null,
    content,
    recipients,
    selection: { setorId: command.setorId ?? null, setorIds: command.setorIds ?? null, teamId: command.teamId ?? null, multiNumber: command.multiNumber ?? null },
    requestedMode: requestedMode as DistributionMode | null,
    scheduleAt,
    antiBanLevel: parseAntiBanLevel(command.antiBanLevel ?? undefined),
    distribution: distribution as Distribution,
    callbackUrl: command.callbackUrl ?? null,
  };
}

/** name, recipients (1 to 10,000) and message are required (400 BAD_REQUEST); title and description have a length. */
function requiredParts(command: CreateCampaignCommand): CampaignRecipientCommand[] {
  if (!present(command.name)) throw new ValidationError('name is required', { field: 'name' }, 'BAD_REQUEST');
  const recipients = command.recipients;
  if (!Array.isArray(recipients) || recipients.length === 0) {
    throw new ValidationError('recipients is required (1 to 10000 items)', { field: 'recipients' }, 'BAD_REQUEST');
  }
  if (recipients.length > MAX_RECIPIENTS_PER_CAMPAIGN) {
    throw new ValidationError(`Maximum ${MAX_RECIPIENTS_PER_CAMPAIGN} recipients`, { field: 'recipients', max: MAX_RECIPIENTS_PER_CAMPAIGN, count: recipients.length }, 'BAD_REQUEST');
  }
  if (!command.message || typeof command.message !== 'object') throw new ValidationError('message is required', { field: 'message' }, 'BAD_REQUEST');
  if (command.title != null && command.title.length > CAMPAIGN_LIMITS.title) invalid('title', `title is longer than ${CAMPAIGN_LIMITS.title} characters`, { max: CAMPAIGN_LIMITS.title });
  if (command.description != null && command.description.length > CAMPAIGN_LIMITS.description) {
    invalid('description', `description is longer than ${CAMPAIGN_LIMITS.description} characters`, { max: CAMPAIGN_LIMITS.description });
  }
  return recipients;
}

/** Text or a template; variants only with text; the media rules of every send (message-content.ts). */
function validMessage(m: CampaignContentCommand): CampaignContent {
  const template = present(m.templateName);
  if (!template && !present(m.text)) invalid('message.text', 'message.text is required unless message.template_name is sent');
  if (template && !present(m.templateLanguage)) invalid('message.template_language', 'message.template_language is required with message.template_name');
  if (!template && (m.templateLanguage != null || m.templateComponents != null || m.templateRaw != null || m.templateVars != null)) {
    invalid('message.template_name', 'template fields need message.template_name');
  }
  const variants = m.variants ?? [];
  if (variants.length > 0 && template) invalid('message.variants', 'message.variants cannot be used with message.template_name');
  if (variants.length > CAMPAIGN_LIMITS.variants) invalid('message.variants', `message.variants takes at most ${CAMPAIGN_LIMITS.variants} items`, { max: CAMPAIGN_LIMITS.variants });
  variants.forEach((v, i) => {
    if (typeof v !== 'string' || v.trim() === '') invalid(`message.variants[${i}]`, `message.variants[${i}] must be a non-empty string`);
    if (v.length > CAMPAIGN_LIMITS.variantLength) invalid(`message.variants[${i}]`, `message.variants[${i}] is longer than ${CAMPAIGN_LIMITS.variantLength} characters`, { max: CAMPAIGN_LIMITS.variantLength });
  });
  // The message's delivery and file name also apply to the recipients' own media, so they may come without a media_url.
  const media = mediaAttachment(m, 'message.', { optionsWithoutUrl: true });
  if (template && media) invalid('message.media_url', 'media cannot be sent with a template');
  if (m.templateVars != null && (!Array.isArray(m.templateVars) || m.templateVars.some((v) => !present(v)))) {
    invalid('message.template_vars', 'message.template_vars must be a list of variable names');
  }
  return {
    text: present(m.text) ? m.text : null,
    variants: [...variants],
    mediaUrl: media?.url ?? null,
    mediaType: media?.mediaType ?? null,
    mediaDelivery: present(m.mediaDelivery) ? (m.mediaDelivery as MediaDelivery) : null,
    mediaFilename: present(m.mediaFilename) ? m.mediaFilename : null,
    templateName: template ? m.templateName! : null,
    templateLanguage: template ? m.templateLanguage! : null,
    templateComponents: m.templateComponents ?? null,
    templateRaw: m.templateRaw ?? null,
    templateVars: m.templateVars ?? null,
  };
}

function validRecipient(r: CampaignRecipientCommand, i: number): void {
  const field = `recipients[${i}]`;
  if (!r || typeof r !== 'object') invalid(field, `${field} must be an object`);
  if (!present(r.phone) && !present(r.clientId)) invalid(`${field}.phone`, `${field} needs phone or client_id`);
  if (r.text != null && r.text.length > CAMPAIGN_LIMITS.recipientText) {
    invalid(`${field}.text`, `${field}.text is longer than ${CAMPAIGN_LIMITS.recipientText} characters`, { max: CAMPAIGN_LIMITS.recipientText });
  }
  mediaAttachment({ mediaUrl: r.mediaUrl, mediaType: r.mediaType }, `${field}.`);
  if (r.variables != null) {
    if (typeof r.variables !== 'object' || Array.isArray(r.variables)) invalid(`${field}.variables`, `${field}.variables must be an object of strings`);
    for (const [k, v] of Object.entries(r.variables)) if (typeof v !== 'string') invalid(`${field}.variables.${k}`, `${field}.variables values must be strings`);
  }
}

/** A recipient's own media type, when it sends its own media (checked by {@link validateCreateCampaign}). */
export function recipientMediaType(r: CampaignRecipientCommand): MediaType | null {
  return present(r.mediaUrl) ? (r.mediaType as MediaType) : null;
}
