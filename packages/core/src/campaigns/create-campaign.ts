import { noteBalanceDebit } from '../billing/index.js';
import { effectiveSettings, isExpired, paysPerMessage, type Company } from '../companies/index.js';
import { normalizePhone } from '../phone/index.js';
import { resolveSenderPool } from '../routing/index.js';
import type { Clock } from '../shared/clock.js';
import { DomainError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { WebhookUrlPolicy } from '../webhooks/index.js';
import { unsettledCount, type Campaign, type ExecutionMode } from './campaign.js';
import {
  CAMPAIGN_LIMITS,
  recipientMediaType,
  validateCreateCampaign,
  type CampaignCaller,
  type CampaignRecipientCommand,
  type CreateCampaignCommand,
  type ValidCampaignCommand,
} from './campaign-command.js';
import { FRESH_CAMPAIGN_MESSAGE_FIELDS, type CampaignMessage } from './campaign-message.js';
import { CampaignQueues, type CampaignEngineSettings } from './campaign-queues.js';
import { assignSenders, type DistributionMode } from './distribution.js';
import { IdempotentRequests, type IdempotencyInput } from './idempotency.js';
import { meanGapMs } from './pacing.js';
import { isWithinSafeHours, nextSafeInstant, safeHourViolation } from './safe-hours.js';
import { setorCapacityToday } from './warming.js';
import { zonedDay } from '../shared/zoned-time.js';
import type { CampaignRepositories } from './campaign-repositories.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import type { UsageRepositories } from '../usage/index.js';
import type { ChannelRepositories } from '../channel/index.js';
import type { SetorRepositories } from '../setores/index.js';
import type { TeamRepositories } from '../teams/index.js';

/** The areas campaign creation reads and writes. */
type CreateCampaignRepositories = CampaignRepositories & ChannelRepositories & CompanyRepositories & ContactRepositories & SetorRepositories & TeamRepositories & UsageRepositories;

/** A created campaign, as the specification's 202 answer tells it (and an idempotent replay repeats it). */
export interface CampaignCreated {
  id: string;
  totalRecipients: number;
  creditsReserved: number;
  createdAt: Date;
  executionMode: ExecutionMode;
  scheduledFor: Date | null;
  waitingReason: string | null;
  distributionMode: DistributionMode;
  numberPoolSize: number;
}

export const CONCURRENCY_DOCS_URL = 'https://github.com/carteiro/carteiro/blob/main/docs/campaigns.md#concurrency';

const present = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';

/** The idempotency record keeps the answer as JSON: dates as ISO strings. */
function storedCreated(created: CampaignCreated): Record<string, unknown> {
  return { ...created, createdAt: created.createdAt.toISOString(), scheduledFor: created.scheduledFor?.toISOString() ?? null };
}

function revivedCreated(body: unknown): CampaignCreated {
  const stored = body as Omit<CampaignCreated, 'createdAt' | 'scheduledFor'> & { createdAt: string; scheduledFor: string | null };
  return { ...stored, createdAt: new Date(stored.createdAt), scheduledFor: stored.scheduledFor === null ? null : new Date(stored.scheduledFor) };
}

/**
 * Creates a campaign (POST /v1/campaigns): validates the command, resolves the pool and the recipients, then, in one
 * transaction holding the company's row lock (so that concurrent creations see each other),
 * checks in the order — modality, daily limit, concurrency, safe hours, balance —
 * and stores the campaign, its messages and its start job.
 */
export class CreateCampaign {
  constructor(
    private readonly uow: UnitOfWork<CreateCampaignRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly settings: CampaignEngineSettings,
    /** Checks `options.callback_url` as a webhook URL (https, public address); absent in core tests. */
    private readonly callbackUrlPolicy?: WebhookUrlPolicy,
  ) {}

  private async checkCallbackUrl(url: string | null): Promise<void> {
    if (!url || !this.callbackUrlPolicy) return;
    try {
      await this.callbackUrlPolicy.check(url);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw new ValidationError(`options.callback_url: ${error.message}`, { ...error.details, field: 'options.callback_url' });
    }
  }

  /** Answers the created campaign and whether it is a replay of an earlier request with the same key. */
  async execute(caller: CampaignCaller, command: CreateCampaignCommand, idempotency?: IdempotencyInput): Promise<{ created: CampaignCreated; replay: boolean }> {
    const now = this.clock.now();
    const request = validateCreateCampaign(command, now);
    await this.checkCallbackUrl(request.callbackUrl);
    if (!idempotency) return { created: await this.uow.transaction((repos) => this.create(repos, caller, request)), replay: false };
    const outcome = await new IdempotentRequests<CreateCampaignRepositories>(this.uow, this.clock).run(caller.companyId, idempotency, (repos) =>
      this.create(repos, caller, request).then((created) => ({ status: 202, body: storedCreated(created) })),
    );
    return { created: revivedCreated(outcome.body), replay: outcome.replay };
  }

  private async create(repos: Repositories<CreateCampaignRepositories>, caller: CampaignCaller, request: ValidCampaignCommand): Promise<CampaignCreated> {
    const now = this.clock.now();
    const company = await repos.companies.findByIdForUpdate(caller.companyId);
    if (!company) throw new DomainError('NOT_FOUND', 'Company not found');
    // National numbers (no country code) are read in the company's country.
    const phones = request.recipients.map((r, i) => (present(r.clientId) ? null : normalizePhone(r.phone, `recipients[${i}].phone`, company.defaultCountry)));
    const pool = await this.resolvePool(repos, company, request);

    this.checkModality(company, now);
    const total = request.recipients.length;
    await this.checkDailyLimit(repos, company, total, now);
    await this.checkConcurrency(repos, company, now);
    const { executionMode, scheduledFor, waitingReason } = this.checkSchedule(company, request.scheduleAt, now);
    const credits = caller.mode === 'live' && paysPerMessage(company) ? total : 0;
    const balanceAfter = credits > 0 ? await repos.companies.adjustBalance(company.id, -credits) : null;
    if (credits > 0 && balanceAfter === null) {
      throw new DomainError('BULK_DISABLED', 'Insufficient balance for this campaign: recharge or send to fewer recipients', {
        avulso_balance: company.avulsoBalance,
        required: credits,
      });
    }
    if (balanceAfter !== null) await noteBalanceDebit(repos, company, 'messages', balanceAfter + credits, balanceAfter, now, caller.mode);

    const contacts = await this.recipientContacts(repos, company.id, request.recipients, phones);
    const capacities = new Map<string, number>();
    if (request.distribution === 'sequential' && pool.length > 1) {
      for (const box of pool) capacities.set(box.id, (await setorCapacityToday(repos, box, company.timezone, now)).remaining);
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
        mediaUrl: present(r.mediaUrl) ? r.mediaUrl : null,
        mediaType: recipientMediaType(r),
        variables: r.variables && Object.keys(r.variables).length > 0 ? r.variables : null,
        status: 'pendente',
        assignedSetorId: setorId,
        setorId,
        ...FRESH_CAMPAIGN_MESSAGE_FIELDS,
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
      totalRecipients: total,
      creditsReserved: credits,
      createdAt: now,
      executionMode,
      scheduledFor,
      waitingReason,
      distributionMode: campaign.distributionMode,
      numberPoolSize: poolIds.length,
    };
  }

  private async resolvePool(repos: Repositories<CreateCampaignRepositories>, company: Company, request: ValidCampaignCommand) {
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

  private async checkDailyLimit(repos: Repositories<CreateCampaignRepositories>, company: Company, requested: number, now: Date): Promise<void> {
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

  private async checkConcurrency(repos: Repositories<CreateCampaignRepositories>, company: Company, now: Date): Promise<void> {
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
    repos: Repositories<CreateCampaignRepositories>,
    companyId: string,
    recipients: readonly CampaignRecipientCommand[],
    phones: readonly (string | null)[],
  ): Promise<{ contactId: string | null; phone: string; name: string | null }[]> {
    const out = recipients.map((r, i) => ({
      contactId: null as string | null,
      phone: phones[i] ?? '',
      name: present(r.name) ? r.name.trim() : null,
    }));
    const byClientId = recipients.map((r, i) => (present(r.clientId) ? i : -1)).filter((i) => i >= 0);
    if (byClientId.length > 0) {
      const wanted = [...new Set(byClientId.map((i) => recipients[i]!.clientId!))];
      const found = new Map((await repos.contacts.findManyByIds(companyId, wanted)).map((c) => [c.id, c]));
      const missing = wanted.filter((id) => !found.has(id));
      if (missing.length > 0) {
        throw new ValidationError('Unknown client_id in recipients', { field: 'recipients[].client_id', unknown: missing.slice(0, 10), count: missing.length });
      }
      for (const i of byClientId) {
        const contact = found.get(recipients[i]!.clientId!)!;
        out[i] = { contactId: contact.id, phone: contact.phone, name: out[i]!.name ?? contact.name };
      }
    }
    return out;
  }
}
