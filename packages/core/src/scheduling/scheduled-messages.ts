import type { KeyMode } from '../api-keys/index.js';
import type { ChannelRepositories } from '../channel/index.js';
import { IdempotentRequests, type CampaignRepositories, type IdempotencyInput, nextSafeInstant } from '../campaigns/index.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import { mediaAttachment, MAX_TEXT_LENGTH } from '../messages/index.js';
import { normalizePhone } from '../phone/index.js';
import { assertWithinQuota } from '../quotas/index.js';
import type { Clock } from '../shared/clock.js';
import { transition } from '../shared/decider.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { SetorRepositories } from '../setores/index.js';
import { wakeTimedSendAt } from './scheduling-queues.js';
import type { ScheduledMessageFilter, SchedulingRepositories } from './scheduling-repositories.js';
import { newTimedSend, scheduledMessageDecider, type ScheduledMessage } from './scheduled-message.js';
import { chooseTimedSendBox } from './timed-send-box.js';

/** POST /v1/scheduled-messages, after the schema. */
export interface ScheduleMessageCommand {
  companyId: string;
  keyMode: KeyMode;
  clientId?: string | null;
  phone?: string | null;
  name?: string | null;
  setorId?: string | null;
  text?: string | null;
  mediaUrl?: string | null;
  mediaType?: string | null;
  mediaFilename?: string | null;
  sendAt: Date;
  respectSafeHours?: boolean;
}

const MIN_LEAD_MS = 60_000;
const MAX_LEAD_MS = 90 * 86_400_000;

type Areas = SchedulingRepositories & CampaignRepositories & ChannelRepositories & CompanyRepositories & ContactRepositories & SetorRepositories;

/** The contact of a request: `client_id` (404 when unknown) or `phone` (+ `name`), found or created. */
export async function resolveSchedulingClient(
  repos: Repositories<ContactRepositories & CompanyRepositories>,
  ids: IdGenerator,
  companyId: string,
  input: { clientId?: string | null; phone?: string | null; name?: string | null },
  now: Date,
): Promise<{ id: string; name: string | null; phone: string }> {
  if (input.clientId) {
    const contact = await repos.contacts.findById(companyId, input.clientId);
    if (!contact) throw new NotFoundError('Contact', { client_id: input.clientId });
    return { id: contact.id, name: contact.name, phone: contact.phone };
  }
  if (!input.phone) throw new ValidationError('client_id or phone is required', { fields: ['client_id', 'phone'] });
  const company = await repos.companies.findById(companyId);
  const phone = normalizePhone(input.phone, 'phone', company?.defaultCountry ?? 'BR');
  const [contact] = await repos.contacts.ensureMany(companyId, [{ phone, name: input.name ?? null }], ids, now);
  return { id: contact!.id, name: contact!.name ?? input.name ?? null, phone: contact!.phone };
}

/**
 * Creates a scheduled message: `send_at` from now + 60 s to now + 90 days, text or media, the
 * box chosen now (see `chooseTimedSendBox`), `effective_send_at` moved to the next safe window when
 * `respect_safe_hours` (default) and `send_at` falls outside it. The pending quota is checked after
 * locking the company row; the row and its wake-up job commit together.
 */
export class ScheduleMessage {
  constructor(
    private readonly uow: UnitOfWork<Areas>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: ScheduleMessageCommand, present: (row: ScheduledMessage) => unknown, idempotency?: IdempotencyInput): Promise<{ body: unknown; replay: boolean }> {
    const now = this.clock.now();
    this.validate(command, now);
    const work = async (repos: Repositories<Areas>) => ({ status: 201, body: present(await this.within(repos, command, now)) });
    return new IdempotentRequests<Areas>(this.uow, this.clock).runWithOptionalKey(command.companyId, idempotency, work);
  }

  private validate(command: ScheduleMessageCommand, now: Date): void {
    const lead = command.sendAt.getTime() - now.getTime();
    if (lead < MIN_LEAD_MS || lead > MAX_LEAD_MS) {
      throw new ValidationError('send_at must be between 60 seconds and 90 days from now', { field: 'send_at', errors: [{ field: 'send_at', message: 'must be between now + 60 s and now + 90 days' }] });
    }
    if (command.text && command.text.length > MAX_TEXT_LENGTH) throw new ValidationError(`text is longer than ${MAX_TEXT_LENGTH} characters`, { field: 'text' });
    const media = mediaAttachment({ mediaUrl: command.mediaUrl ?? null, mediaType: command.mediaType ?? null, mediaFilename: command.mediaFilename ?? null });
    if (!command.text && !media) throw new ValidationError('text is required when no media is sent', { field: 'text' });
  }

  private async within(repos: Repositories<Areas>, command: ScheduleMessageCommand, now: Date): Promise<ScheduledMessage> {
    const company = await repos.companies.findByIdForUpdate(command.companyId);
    if (!company) throw new NotFoundError('Company');
    assertWithinQuota({ company, quota: 'scheduled_messages_pending', used: await repos.scheduledMessages.countPending(company.id), now, testMode: command.keyMode === 'test' });
    const client = await resolveSchedulingClient(repos, this.ids, company.id, command, now);
    const setorId = await chooseTimedSendBox(repos, company.id, command.setorId, client.id);
    const respect = command.respectSafeHours ?? true;
    const effective = respect ? nextSafeInstant(command.sendAt, company.safeHours, company.timezone) : command.sendAt;
    const row = newTimedSend({
      id: this.ids.newId(),
      companyId: company.id,
      kind: 'message',
      clientId: client.id,
      clientName: client.name,
      phone: client.phone,
      setorId,
      keyMode: command.keyMode,
      content: { text: command.text ?? null, mediaUrl: command.mediaUrl ?? null, mediaType: command.mediaType ?? null, mediaFilename: command.mediaFilename ?? null },
      sendAt: command.sendAt,
      effectiveSendAt: effective,
      respectSafeHours: respect,
      waitingReason: effective.getTime() !== command.sendAt.getTime() ? 'outside_safe_hours' : null,
      createdAt: now,
    });
    await repos.scheduledMessages.insert([row]);
    await wakeTimedSendAt(repos.jobs, setorId, effective);
    return row;
  }
}

/** GET /v1/scheduled-messages and …/:id. */
export class ReadScheduledMessages {
  constructor(private readonly repos: Repositories<SchedulingRepositories>) {}

  list(companyId: string, filter: ScheduledMessageFilter, page: PageRequest): Promise<Page<ScheduledMessage>> {
    return this.repos.scheduledMessages.list(companyId, 'message', filter, page);
  }

  async get(companyId: string, id: string): Promise<ScheduledMessage> {
    const row = await this.repos.scheduledMessages.findById(companyId, id, 'message');
    if (!row) throw new NotFoundError('Scheduled message');
    return row;
  }
}

/**
 * DELETE /v1/scheduled-messages/:id: `UPDATE … WHERE status = 'scheduled'` either wins (the lane
 * can no longer claim the row) or loses to a claim, and then answers 409 CONFLICT with the status:
 * never "cancelled but sent". A repeat answers the same cancellation.
 */
export class CancelScheduledMessage {
  constructor(
    private readonly uow: UnitOfWork<SchedulingRepositories>,
    private readonly clock: Clock,
  ) {}

  async execute(companyId: string, id: string): Promise<ScheduledMessage> {
    return this.uow.transaction(async (repos) => {
      const cancelled = await repos.scheduledMessages.cancelIfScheduled(companyId, id, this.clock.now());
      if (cancelled) return cancelled;
      const row = await repos.scheduledMessages.findById(companyId, id, 'message');
      if (!row) throw new NotFoundError('Scheduled message');
      // Not scheduled any more: the decider answers (a repeat changes nothing; anything else is 409).
      transition(scheduledMessageDecider, row, { type: 'cancel', at: this.clock.now() });
      return row;
    });
  }
}
