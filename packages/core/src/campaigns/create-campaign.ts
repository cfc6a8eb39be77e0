import type { KeyMode } from '../api-keys/api-key.js';
import { MediaTypes, type MediaDelivery, type MediaType } from '../channel/outbound-content.js';
import { effectiveSettings, isExpired, MAX_RECIPIENTS_PER_CAMPAIGN, paysPerMessage, type Company } from '../companies/company.js';
import { MediaDeliveries } from '../messages/message-content.js';
import { normalizePhone } from '../phone/phone-number.js';
import { resolveSenderPool, type SenderSelection } from '../routing/sender-pool.js';
import type { Clock } from '../shared/clock.js';
import { DomainError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { WebhookUrlPolicy } from '../webhooks/webhook-sender.js';
import { parseAntiBanLevel } from './anti-ban.js';
import { unsettledCount, type Campaign, type CampaignContent, type ExecutionMode } from './campaign.js';
import type { CampaignMessage } from './campaign-message.js';
import { CampaignQueues, type CampaignEngineSettings } from './campaign-queues.js';
import { assignSenders, Distributions, type Distribution, type DistributionMode } from './distribution.js';
import { IdempotentRequests, type IdempotencyInput } from './idempotency.js';
import { meanGapMs } from './pacing.js';
import { isWithinSafeHours, nextSafeInstant, safeHourViolation } from './safe-hours.js';
import { warmingRemaining, warmingStatus } from './warming.js';
import { zonedDay } from '../shared/zoned-time.js';

/** One item of `recipients[]`, as the API receives it. */
export interface CampaignRecipientInput {
  phone?: string | null;
  client_id?: string | null;
  name?: string | null;
  text?: string | null;
  media_url?: string | null;
  media_type?: string | null;
  variables?: Record<string, string> | null;
}

/** The body of POST /v1/campaigns (field names as in the specification). */
export interface CreateCampaignInput {
  name?: string | null;
  title?: string | null;
  description?: string | null;
  setor_id?: string | null;
  setor_ids?: string[] | null;
  distribution_mode?: string | null;
  multi_number?: boolean | null;
  team_id?: string | null;
  recipients?: CampaignRecipientInput[] | null;
  message?: {
    text?: string | null;
    variants?: string[] | null;
    media_url?: string | null;
    media_type?: string | null;
    media_delivery?: string | null;
    media_filename?: string | null;
    template_name?: string | null;
    template_language?: string | null;
    template_components?: unknown[] | null;
    template_raw?: unknown[] | null;
    template_vars?: string[] | null;
  } | null;
  options?: {
    schedule_at?: string | null;
    anti_ban_level?: string | null;
    distribution?: string | null;
    callback_url?: string | null;
  } | null;
}

/** Who asks: the authenticated key's company, id and mode. */
export interface CampaignCaller {
  companyId: string;
  apiKeyId: string | null;
  mode: KeyMode;
}

/** The 202 response of the specification. */
export interface CampaignCreated {
  id: string;
  status: 'queued';
  total_recipients: number;
  credits_reserved: number;
  created_at: string;
  execution_mode: ExecutionMode;
  scheduled_for: string | null;
  waiting_reason: string | null;
  distribution_mode: DistributionMode;
  number_pool_size: number;
}

export const CAMPAIGN_LIMITS = {
  title: 120,
  description: 500,
  variants: 4,
  variantLength: 1024,
  recipientText: 1024,
  activeCampaignsInError: 10,
} as const;

export const CONCURRENCY_DOCS_URL = 'https://github.com/carteiro/carteiro/blob/main/docs/campaigns.md#concurrency';

const present = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';
const isHttps = (v: string) => {
  try {
    return new URL(v).protocol === 'https:';
  } catch {
    return false;
  }
};
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

interface ValidatedRequest {
  name: string;
  title: string | null;
  description: string | null;
  content: CampaignContent;
  recipients: CampaignRecipientInput[];
  selection: SenderSelection;
  requestedMode: DistributionMode | null;
  scheduleAt: Date | null;
  antiBanLevel: Campaign['antiBanLevel'];
  distribution: Distribution;
  callbackUrl: string | null;
}

/** Every rule of the specification's body table that needs no database. */
export function validateCreateCampaign(input: CreateCampaignInput, now: Date): ValidatedRequest {
  if (!present(input.name)) throw new ValidationError('name is required', { field: 'name' }, 'BAD_REQUEST');
  if (!Array.isArray(input.recipients) || input.recipients.length === 0) {
    throw new ValidationError('recipients is required (1 to 10000 items)', { field: 'recipients' }, 'BAD_REQUEST');
  }
  if (input.recipients.length > MAX_RECIPIENTS_PER_CAMPAIGN) {
    throw new ValidationError(`Maximum ${MAX_RECIPIENTS_PER_CAMPAIGN} recipients`, { field: 'recipients', max: MAX_RECIPIENTS_PER_CAMPAIGN, count: input.recipients.length }, 'BAD_REQUEST');
  }
  if (!input.message || typeof input.message !== 'object') throw new ValidationError('message is required', { field: 'message' }, 'BAD_REQUEST');
  if (input.title != null && input.title.length > CAMPAIGN_LIMITS.title) invalid('title', `title is longer than ${CAMPAIGN_LIMITS.title} characters`, { max: CAMPAIGN_LIMITS.title });
  if (input.description != null && input.description.length > CAMPAIGN_LIMITS.description) {
    invalid('description', `description is longer than ${CAMPAIGN_LIMITS.description} characters`, { max: CAMPAIGN_LIMITS.description });
  }

  const m = input.message;
  const template = present(m.template_name);
  if (!template && !present(m.text)) invalid('message.text', 'message.text is required unless message.template_name is sent');
  if (template && !present(m.template_language)) invalid('message.template_language', 'message.template_language is required with message.template_name');
  if (!template && (m.template_language != null || m.template_components != null || m.template_raw != null || m.template_vars != null)) {
    invalid('message.template_name', 'template fields need message.template_name');
  }
  const variants = m.variants ?? [];
  if (variants.length > 0 && template) invalid('message.variants', 'message.variants cannot be used with message.template_name');
  if (variants.length > CAMPAIGN_LIMITS.variants) invalid('message.variants', `message.variants takes at most ${CAMPAIGN_LIMITS.variants} items`, { max: CAMPAIGN_LIMITS.variants });
  variants.forEach((v, i) => {
    if (typeof v !== 'string' || v.trim() === '') invalid(`message.variants[${i}]`, `message.variants[${i}] must be a non-empty string`);
    if (v.length > CAMPAIGN_LIMITS.variantLength) invalid(`message.variants[${i}]`, `message.variants[${i}] is longer than ${CAMPAIGN_LIMITS.variantLength} characters`, { max: CAMPAIGN_LIMITS.variantLength });
  });
  checkMedia('message.', m.media_url, m.media_type);
  if (present(m.media_delivery) && !(MediaDeliveries as readonly string[]).includes(m.media_delivery)) {
    invalid('message.media_delivery', `message.media_delivery must be one of ${MediaDeliveries.join(', ')}`, { allowed: MediaDeliveries });
  }
  if (template && present(m.media_url)) invalid('message.media_url', 'media cannot be sent with a template');
  if (m.template_vars != null && (!Array.isArray(m.template_vars) || m.template_vars.some((v) => !present(v)))) {
    invalid('message.template_vars', 'message.template_vars must be a list of variable names');
  }

  input.recipients.forEach((r, i) => {
    const field = `recipients[${i}]`;
    if (!r || typeof r !== 'object') invalid(field, `${field} must be an object`);
    if (!present(r.phone) && !present(r.client_id)) invalid(`${field}.phone`, `${field} needs phone or client_id`);
    if (r.text != null && r.text.length > CAMPAIGN_LIMITS.recipientText) {
      invalid(`${field}.text`, `${field}.text is longer than ${CAMPAIGN_LIMITS.recipientText} characters`, { max: CAMPAIGN_LIMITS.recipientText });
    }
    checkMedia(`${field}.`, r.media_url, r.media_type);
    if (r.variables != null) {
      if (typeof r.variables !== 'object' || Array.isArray(r.variables)) invalid(`${field}.variables`, `${field}.variables must be an object of strings`);
      for (const [k, v] of Object.entries(r.variables)) if (typeof v !== 'string') invalid(`${field}.variables.${k}`, `${field}.variables values must be strings`);
    }
  });

  const options = input.options ?? {};
  let scheduleAt: Date | null = null;
  if (options.schedule_at != null) {
    scheduleAt = new Date(options.schedule_at);
    if (!present(options.schedule_at) || Number.isNaN(scheduleAt.getTime())) invalid('options.schedule_at', 'options.schedule_at must be an ISO 8601 date-time');
    if (scheduleAt.getTime() <= now.getTime()) invalid('options.schedule_at', 'options.schedule_at must be in the future', { now: now.toISOString() });
  }
  const distribution = options.distribution ?? 'interleaved';
  if (!(Distributions as readonly string[]).includes(distribution)) invalid('options.distribution', "options.distribution must be 'interleaved' or 'sequential'", { allowed: Distributions });
  if (options.callback_url != null && !isHttpUrl(options.callback_url)) invalid('options.callback_url', 'options.callback_url must be an absolute URL');
  const requestedMode = input.distribution_mode ?? null;
  if (requestedMode !== null && requestedMode !== 'single' && requestedMode !== 'multi_number') {
    invalid('distribution_mode', "distribution_mode must be 'single' or 'multi_number'", { allowed: ['single', 'multi_number'] });
  }

  return {
    name: input.name.trim(),
    title: input.title ?? null,
    description: input.description ?? null,
    content: {
      text: present(m.text) ? m.text : null,
      variants: [...variants],
      mediaUrl: present(m.media_url) ? m.media_url : null,
      mediaType: present(m.media_url) ? (m.media_type as MediaType) : null,
      mediaDelivery: present(m.media_delivery) ? (m.media_delivery as MediaDelivery) : null,
      mediaFilename: present(m.media_filename) ? m.media_filename : null,
      templateName: template ? m.template_name! : null,
      templateLanguage: template ? m.template_language! : null,
      templateComponents: m.template_components ?? null,
      templateRaw: m.template_raw ?? null,
      templateVars: m.template_vars ?? null,
    },
    recipients: input.recipients,
    selection: { setorId: input.setor_id ?? null, setorIds: input.setor_ids ?? null, teamId: input.team_id ?? null, multiNumber: input.multi_number ?? null },
    requestedMode: requestedMode as DistributionMode | null,
    scheduleAt,
    antiBanLevel: parseAntiBanLevel(options.anti_ban_level ?? undefined),
    distribution: distribution as Distribution,
    callbackUrl: options.callback_url ?? null,
  };
}

function checkMedia(prefix: string, url: string | null | undefined, type: string | null | undefined): void {
  if (present(url)) {
    if (!isHttps(url)) invalid(`${prefix}media_url`, `${prefix}media_url must be a public HTTPS URL`);
    if (!present(type)) invalid(`${prefix}media_type`, `${prefix}media_type is required with ${prefix}media_url`);
    if (!(MediaTypes as readonly string[]).includes(type!)) invalid(`${prefix}media_type`, `${prefix}media_type must be one of ${MediaTypes.join(', ')}`, { allowed: MediaTypes });
  } else if (present(type)) {
    invalid(`${prefix}media_url`, `${prefix}media_url is required with ${prefix}media_type`);
  }
}

/**
 * POST /v1/campaigns: validates the body, resolves the pool and the recipients, then, in one
 * transaction holding the company's row lock (so that concurrent creations see each other),
 * checks in the order — modality, daily limit, concurrency, safe hours, balance —
 * and stores the campaign, its messages and its start job.
 */
export class CreateCampaign {
  private readonly idempotent: IdempotentRequests;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly settings: CampaignEngineSettings,
    /** Checks `options.callback_url` as a webhook URL (https, public address); absent in core tests. */
    private readonly callbackUrlPolicy?: WebhookUrlPolicy,
  ) {
    this.idempotent = new IdempotentRequests(uow, clock);
  }

  private async checkCallbackUrl(url: string | null): Promise<void> {
    if (!url || !this.callbackUrlPolicy) return;
    try {
      await this.callbackUrlPolicy.check(url);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw new ValidationError(`options.callback_url: ${error.message}`, { ...error.details, field: 'options.callback_url' });
    }
  }

  /** Answers the response body and whether it is a replay of an earlier request with the same key. */
  async execute(caller: CampaignCaller, input: CreateCampaignInput, idempotency?: IdempotencyInput): Promise<{ data: CampaignCreated; replay: boolean }> {
    const now = this.clock.now();
    const request = validateCreateCampaign(input, now);
    await this.checkCallbackUrl(request.callbackUrl);
    if (!idempotency) return { data: await this.uow.transaction((repos) => this.create(repos, caller, request)), replay: false };
    const outcome = await this.idempotent.run(caller.companyId, idempotency, (repos) => this.create(repos, caller, request).then((data) => ({ status: 202, body: data })));
    return { data: outcome.body as CampaignCreated, replay: outcome.replay };
  }

  private async create(repos: Repositories, caller: CampaignCaller, request: ValidatedRequest): Promise<CampaignCreated> {
    const now = this.clock.now();
    const phones = request.recipients.map((r, i) => (present(r.client_id) ? null : normalizePhone(r.phone, `recipients[${i}].phone`)));

    const company = await repos.companies.findByIdForUpdate(caller.companyId);
    if (!company) throw new DomainError('NOT_FOUND', 'Company not found');
    const pool = await this.resolvePool(repos, company, request);

    this.checkModality(company, now);
    const total = request.recipients.length;
    await this.checkDailyLimit(repos, company, total, now);
    await this.checkConcurrency(repos, company, now);
    const { executionMode, scheduledFor, waitingReason } = this.checkSchedule(company, request.scheduleAt, now);
    const credits = caller.mode === 'live' && paysPerMessage(company) ? total : 0;
    if (credits > 0 && (await repos.companies.adjustBalance(company.id, -credits)) === null) {
      throw new DomainError('BULK_DISABLED', 'Insufficient balance for this campaign: recharge or send to fewer recipients', {
        avulso_balance: company.avulsoBalance,
        required: credits,
      });
    }

    const contacts = await this.recipientContacts(repos, company.id, request.recipients, phones);
    const capacities = new Map<string, number>();
    if (request.distribution === 'sequential' && pool.length > 1) {
      const day = zonedDay(now, company.timezone);
      for (const box of pool) {
        const history = await repos.usage.setorHistory(box.id, day);
        capacities.set(box.id, warmingRemaining(warmingStatus(box, history), await repos.usage.sentBySetor(box.id, day)));
      }
    }
    const poolIds = pool.map((b) => b.id);
    const senders = assignSenders(total, poolIds, request.distribution, capacities);

    const campaign: Campaign = {
      id: this.ids.newId(),
      companyId: company.id,
      apiKeyId: caller.apiKeyId,
      mode: caller.mode,
      name: request.name,
      title: request.title,
      description: request.description,
      status: 'pendente',
      content: request.content,
      antiBanLevel: request.antiBanLevel,
      distribution: request.distribution,
      distributionMode: poolIds.length > 1 ? 'multi_number' : 'single',
      setorIds: poolIds,
      executionMode,
      scheduledFor,
      waitingReason,
      callbackUrl: request.callbackUrl,
      creditsReserved: credits,
      totals: { total, enviados: 0, falhas: 0, pulados: 0 },
      error: null,
      cancelledByUser: false,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      finishedAt: null,
    };
    const messages: CampaignMessage[] = request.recipients.map((r, i) => {
      const contact = contacts[i]!;
      const setorId = senders[i]!;
      return {
        id: this.ids.newId(),
        campaignId: campaign.id,
        companyId: company.id,
        seq: i,
        contactId: contact.contactId,
        phone: contact.phone,
        name: contact.name,
        text: present(r.text) ? r.text : null,
        mediaUrl: present(r.media_url) ? r.media_url : null,
        mediaType: present(r.media_url) ? (r.media_type as MediaType) : null,
        variables: r.variables && Object.keys(r.variables).length > 0 ? r.variables : null,
        status: 'pendente',
        assignedSetorId: setorId,
        setorId,
        actualSetorId: null,
        wasReassigned: false,
        error: null,
        errorCode: null,
        skipReason: null,
        attempts: 0,
        manualRetries: 0,
        autoRetries: 0,
        notBefore: null,
        claimedBy: null,
        claimedAt: null,
        providerMessageId: null,
        sentAt: null,
        createdAt: now,
        updatedAt: now,
      };
    });
    await repos.campaigns.insert(campaign);
    await repos.campaigns.insertMessages(messages);
    if (contacts.some((c) => c.contactId === null)) await repos.jobs.enqueue(CampaignQueues.prepare, { campaignId: campaign.id }, { singletonKey: campaign.id });
    await repos.jobs.enqueue(CampaignQueues.start, { campaignId: campaign.id }, { ...(scheduledFor ? { startAfter: scheduledFor } : {}), singletonKey: campaign.id });

    return {
      id: campaign.id,
      status: 'queued',
      total_recipients: total,
      credits_reserved: credits,
      created_at: now.toISOString(),
      execution_mode: executionMode,
      scheduled_for: scheduledFor?.toISOString() ?? null,
      waiting_reason: waitingReason,
      distribution_mode: campaign.distributionMode,
      number_pool_size: poolIds.length,
    };
  }

  private async resolvePool(repos: Repositories, company: Company, request: ValidatedRequest) {
    const resolved = await resolveSenderPool(repos, company, request.selection);
    let boxes = resolved.boxes.map((b) => b.setor);
    if (request.requestedMode === 'single' && boxes.length > 1) {
      if (resolved.mode !== 'auto') {
        throw new ValidationError("distribution_mode 'single' cannot be used with several boxes", { field: 'distribution_mode', pool_size: boxes.length });
      }
      boxes = boxes.slice(0, 1);
    }
    if (request.requestedMode === 'multi_number' && resolved.mode === 'single') {
      throw new ValidationError("distribution_mode 'multi_number' needs setor_ids, team_id, multi_number or auto-selection, not setor_id", { field: 'distribution_mode' });
    }
    if (request.content.templateName && boxes.some((b) => b.channelType !== 'official')) {
      throw new ValidationError('Templates are only sent from official-channel boxes', {
        field: 'message.template_name',
        setor_ids: boxes.filter((b) => b.channelType !== 'official').map((b) => b.id),
      });
    }
    return boxes;
  }

  private checkModality(company: Company, now: Date): void {
    if (!company.bulkMessagingEnabled) {
      throw new DomainError('BULK_DISABLED', 'Bulk messaging is disabled for this company', { bulk_messaging_enabled: false });
    }
    if (company.modality === 'inativo') {
      throw new DomainError('FORBIDDEN', 'Modalidade inativa: campaign creation is disabled', { modality: company.modality });
    }
    if (isExpired(company, now)) {
      throw new DomainError('FORBIDDEN', 'Plano avulso expirado', { modality: company.modality, expires_at: company.expiresAt?.toISOString() ?? null });
    }
  }

  private async checkDailyLimit(repos: Repositories, company: Company, requested: number, now: Date): Promise<void> {
    const limit = effectiveSettings(company).dailyLimit;
    const sentToday = await repos.usage.sentByCompany(company.id, zonedDay(now, company.timezone));
    // Recipients of campaigns not yet sent are reserved too, so that concurrent campaigns cannot overshoot together.
    const reserved = await repos.campaigns.unsettledLiveMessages(company.id);
    if (sentToday + reserved + requested > limit) {
      throw new DomainError('FORBIDDEN', 'Daily messages limit exceeded', {
        limit,
        sent_today: sentToday,
        reserved,
        requested,
        remaining: Math.max(0, limit - sentToday - reserved),
      });
    }
  }

  private async checkConcurrency(repos: Repositories, company: Company, now: Date): Promise<void> {
    const limit = effectiveSettings(company).concurrentCampaignsLimit;
    const active = await repos.campaigns.activeOfCompany(company.id);
    if (active.length < limit) return;
    const estimates = active.map((c) => {
      const start = Math.max(now.getTime(), c.scheduledFor?.getTime() ?? now.getTime());
      return start + (unsettledCount(c.totals) * meanGapMs(c.antiBanLevel, this.settings.pacingScale)) / Math.max(1, c.setorIds.length);
    });
    const nextSlot = Math.min(...estimates);
    const scheduledAhead = active.some((c) => c.scheduledFor !== null && c.scheduledFor.getTime() > now.getTime());
    const retryAfter = Math.max(1, Math.ceil((nextSlot - now.getTime()) / 1000));
    const details: Record<string, unknown> = {
      limit,
      active: active.length,
      active_campaigns: active.slice(0, CAMPAIGN_LIMITS.activeCampaignsInError).map((c) => ({
        id: c.id,
        titulo: c.title ?? c.name,
        status: c.status,
        scheduled_for: c.scheduledFor?.toISOString() ?? null,
        created_at: c.createdAt.toISOString(),
      })),
      ...(scheduledAhead ? { next_slot_eta: new Date(nextSlot).toISOString() } : {}),
      retry_after_seconds: retryAfter,
      docs_url: CONCURRENCY_DOCS_URL,
    };
    throw new DomainError(
      'CONCURRENT_LIMIT_EXCEEDED',
      `The company already has ${active.length} active campaigns (limit ${limit}): wait, cancel one, or raise the limit`,
      details,
      retryAfter,
    );
  }

  private checkSchedule(company: Company, scheduleAt: Date | null, now: Date): { executionMode: ExecutionMode; scheduledFor: Date | null; waitingReason: string | null } {
    if (scheduleAt === null) {
      if (!isWithinSafeHours(now, company.safeHours, company.timezone)) throw safeHourViolation(now, company.safeHours, company.timezone);
      return { executionMode: 'immediate', scheduledFor: null, waitingReason: null };
    }
    if (isWithinSafeHours(scheduleAt, company.safeHours, company.timezone)) {
      return { executionMode: 'scheduled', scheduledFor: scheduleAt, waitingReason: null };
    }
    return {
      executionMode: 'deferred_to_safe_window',
      scheduledFor: nextSafeInstant(scheduleAt, company.safeHours, company.timezone),
      waitingReason: 'outside_safe_hours',
    };
  }

  /**
   * The contact of each `client_id` recipient (400 for unknown ones); phone recipients get theirs
   * linked by the prepare job (see link-campaign-contacts.ts), off the request path.
   */
  private async recipientContacts(
    repos: Repositories,
    companyId: string,
    recipients: readonly CampaignRecipientInput[],
    phones: readonly (string | null)[],
  ): Promise<{ contactId: string | null; phone: string; name: string | null }[]> {
    const out = recipients.map((r, i) => ({
      contactId: null as string | null,
      phone: phones[i] ?? '',
      name: present(r.name) ? r.name.trim() : null,
    }));
    const byClientId = recipients.map((r, i) => (present(r.client_id) ? i : -1)).filter((i) => i >= 0);
    if (byClientId.length > 0) {
      const wanted = [...new Set(byClientId.map((i) => recipients[i]!.client_id!))];
      const found = new Map((await repos.contacts.findManyByIds(companyId, wanted)).map((c) => [c.id, c]));
      const missing = wanted.filter((id) => !found.has(id));
      if (missing.length > 0) {
        throw new ValidationError('Unknown client_id in recipients', { field: 'recipients[].client_id', unknown: missing.slice(0, 10), count: missing.length });
      }
      for (const i of byClientId) {
        const contact = found.get(recipients[i]!.client_id!)!;
        out[i] = { contactId: contact.id, phone: contact.phone, name: out[i]!.name ?? contact.name };
      }
    }
    return out;
  }
}
