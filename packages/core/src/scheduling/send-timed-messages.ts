import { sendInParts, type ChannelGateway } from '../channel/index.js';
import { personalise, type TimedSendContext, type TimedSendStep, type TimedSends } from '../campaigns/index.js';
import type { Company, CompanyRepositories } from '../companies/index.js';
import { chargeSend, refundSend } from '../credits/index.js';
import { planOutboundContent, type MessageContent } from '../messages/index.js';
import type { Clock } from '../shared/clock.js';
import { transition } from '../shared/decider.js';
import { systemActor, type DomainEvent } from '../shared/domain-event.js';
import { DomainError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { zonedClock, zonedDateBr } from '../shared/zoned-time.js';
import type { UsageRepositories } from '../usage/index.js';
import { isWithinSafeHours, nextSafeInstant } from '../campaigns/index.js';
import { isLive } from './appointment.js';
import { DEFAULT_REMINDER_TEXT, type UnitAddress } from './catalog.js';
import { wakeTimedSendAt } from './scheduling-queues.js';
import type { SchedulingRepositories } from './scheduling-repositories.js';
import { scheduledMessageDecider, TIMED_SEND_RETRY_DELAYS_MS, timedClientMessageId, type ScheduledMessage, type ScheduledMessageCommand } from './scheduled-message.js';

type Repos = Repositories<SchedulingRepositories & CompanyRepositories & UsageRepositories>;

export interface TimedSendSettings {
  /** Delays of the automatic retries (+1, +5, +15 min), before `PACING_SCALE`. */
  retryDelaysMs: readonly number[];
  pacingScale: number;
}

export const DEFAULT_TIMED_SEND_SETTINGS: TimedSendSettings = { retryDelaysMs: TIMED_SEND_RETRY_DELAYS_MS, pacingScale: 1 };

interface Prepared {
  row: ScheduledMessage;
  content: MessageContent;
  /** Set when a dead run may have sent it: the provider is asked first (docs/channel.md). */
  earlierAttemptSince?: Date;
}

/**
 * The lane's timed step (see {@link TimedSends}): one row at a time, claimed in a committed
 * transaction that also charges it as a single send, sent with `clientMessageId` = the row id
 * (`.r<n>` for retry n), then settled by compare-and-set on `sending` and the claiming run, with
 * its `message.sent`/`message.failed` event and, for a retry, the wake-up at its new time.
 */
export class SendTimedMessages implements TimedSends {
  /** Lane runs (owners) that already looked for a dead run's claim. */
  private readonly checkedOwners = new Set<string>();

  constructor(
    private readonly uow: UnitOfWork<SchedulingRepositories & CompanyRepositories & UsageRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly gateway: ChannelGateway,
    private readonly settings: TimedSendSettings = DEFAULT_TIMED_SEND_SETTINGS,
    /**
     * The repositories outside a transaction, for the look every lane makes every few seconds (one read: a
     * transaction around it only adds two round trips). Absent: it runs in a transaction of its own.
     */
    private readonly direct: Repositories<SchedulingRepositories> | null = null,
  ) {}

  hasWork(setorId: string, now: Date): Promise<boolean> {
    if (this.direct) return this.direct.scheduledMessages.hasWork(setorId, now);
    return this.uow.transaction((repos) => repos.scheduledMessages.hasWork(setorId, now));
  }

  async sendNext(ctx: TimedSendContext): Promise<TimedSendStep | null> {
    // A dead run's claim can only be found at the start of a lease: while this run holds it, no other run claims.
    let prepared: Prepared | { step: TimedSendStep } | null = null;
    if (!this.checkedOwners.has(ctx.owner)) {
      prepared = await this.takeOver(ctx);
      if (!prepared) {
        if (this.checkedOwners.size > 10_000) this.checkedOwners.clear();
        this.checkedOwners.add(ctx.owner);
      }
    }
    prepared ??= await this.claim(ctx);
    if (!prepared) return null;
    if ('step' in prepared) return prepared.step;
    const { row } = prepared;
    if (ctx.instance.status !== 'connected') {
      const settled = await this.uow.transaction((repos) => this.settle(repos, ctx, row, { ok: false, code: 'SENDER_DISCONNECTED', error: 'The box has no connected channel instance' }));
      return { attempted: false, sent: false, failed: settled === 'failed' };
    }
    if (row.kind === 'reminder') return this.sendReminder(ctx, prepared);
    const outcome = await this.deliver(ctx, prepared);
    const settled = await this.uow.transaction((repos) => this.settle(repos, ctx, row, outcome));
    return { attempted: true, sent: settled === 'sent', failed: settled === 'failed' };
  }

  /**
   * A reminder is sent while its appointment row is share-locked: a cancellation (which locks it
   * for update) either comes first — the reminder is then skipped — or waits until the send is
   * recorded, so no reminder goes out after its appointment was cancelled. A crash here rolls the
   * lock back and leaves the claim, taken over with the same client id.
   */
  private sendReminder(ctx: TimedSendContext, prepared: Prepared): Promise<TimedSendStep> {
    const { row } = prepared;
    return this.uow.transaction(async (repos) => {
      const appointment = row.appointmentId ? await repos.appointments.findByIdForShare(row.companyId, row.appointmentId) : null;
      const now = this.clock.now();
      if (!appointment || !isLive(appointment.status) || now.getTime() >= appointment.startsAt.getTime()) {
        const { state } = transition(scheduledMessageDecider, row, { type: 'skip', at: now, reason: appointment && isLive(appointment.status) ? 'too_late' : 'appointment_not_live' });
        if ((await repos.scheduledMessages.compareAndSet(state, { status: 'sending', claimedBy: ctx.owner })) && row.charge) {
          await refundSend(repos, row.companyId, { ...row.charge, setorId: row.setorId });
        }
        return { attempted: false, sent: false, failed: false };
      }
      const outcome = await this.deliver(ctx, prepared);
      const settled = await this.settle(repos, ctx, row, outcome);
      return { attempted: true, sent: settled === 'sent', failed: settled === 'failed' };
    });
  }

  /** A row left in `sending` by a lane run that died: this run takes it over and sends it again with the same client id. */
  private async takeOver(ctx: TimedSendContext): Promise<Prepared | null> {
    return this.uow.transaction(async (repos) => {
      const found = await repos.scheduledMessages.inFlight(ctx.setor.id);
      if (!found) return null;
      const now = this.clock.now();
      const { state, events } = transition(scheduledMessageDecider, found, { type: 'takeOver', at: now, owner: ctx.owner });
      if (events.length > 0 && !(await repos.scheduledMessages.compareAndSet(state, { status: 'sending', claimedBy: found.claimedBy }))) return null;
      const content = await this.content(repos, state, ctx, now);
      return { row: state, content: content ?? { type: 'text', text: state.content.text ?? '' }, ...(found.claimedAt && found.claimedBy !== ctx.owner ? { earlierAttemptSince: found.claimedAt } : {}) };
    });
  }

  private async claim(ctx: TimedSendContext): Promise<Prepared | { step: TimedSendStep } | null> {
    return this.uow.transaction(async (repos) => {
      const now = this.clock.now();
      const claimed = await repos.scheduledMessages.claimDue(ctx.setor.id, ctx.owner, now);
      if (!claimed) return null;
      const undo = async (command: ScheduledMessageCommand): Promise<{ step: TimedSendStep }> => {
        const { state } = transition(scheduledMessageDecider, claimed, command);
        await repos.scheduledMessages.compareAndSet(state, { status: 'sending', claimedBy: ctx.owner });
        if (state.status === 'scheduled') await wakeTimedSendAt(repos.jobs, state.setorId, state.effectiveSendAt);
        return { step: { attempted: false, sent: false, failed: false } };
      };
      if (claimed.respectSafeHours && !isWithinSafeHours(now, ctx.company.safeHours, ctx.company.timezone)) {
        return undo({ type: 'defer', at: now, until: nextSafeInstant(now, ctx.company.safeHours, ctx.company.timezone), reason: 'outside_safe_hours' });
      }
      const content = await this.content(repos, claimed, ctx, now);
      if (!content) return undo({ type: 'skip', at: now, reason: claimed.kind === 'reminder' ? 'appointment_not_live' : 'nothing_to_send' });
      if (claimed.kind === 'reminder' && (await this.tooLate(repos, claimed, now))) return undo({ type: 'skip', at: now, reason: 'too_late' });
      try {
        const charge = await chargeSend(repos, claimed.companyId, claimed.keyMode, claimed.setorId, now);
        const charged = { ...claimed, charge: { debited: charge.debited, counted: charge.counted, day: charge.day } };
        await repos.scheduledMessages.compareAndSet(charged, { status: 'sending', claimedBy: ctx.owner });
        return { row: charged, content };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        // The company cannot send now (balance, plan, daily limit): a final failure, as a refused single send.
        const { state } = transition(scheduledMessageDecider, claimed, { type: 'markFailed', at: now, code: error.code, error: error.message, retryDelaysMs: [] });
        await repos.scheduledMessages.compareAndSet(state, { status: 'sending', claimedBy: ctx.owner });
        await repos.events.record([this.event(state, 'message.failed', now)]);
        return { step: { attempted: false, sent: false, failed: true } };
      }
    });
  }

  private async tooLate(repos: Repos, row: ScheduledMessage, now: Date): Promise<boolean> {
    const appointment = row.appointmentId ? await repos.appointments.findById(row.companyId, row.appointmentId) : null;
    return !appointment || now.getTime() >= appointment.startsAt.getTime();
  }

  /** The personalised content at the moment of sending; null when a reminder's appointment is no longer live. */
  private async content(repos: Repos, row: ScheduledMessage, ctx: TimedSendContext, now: Date): Promise<MessageContent | null> {
    const company = ctx.company;
    let template = row.content.text ?? '';
    let variables: Record<string, string> = {};
    let approved: { name: string; language: string; parameters: string[] } | null = null;
    if (row.kind === 'reminder' || row.kind === 'notice') {
      const appointment = row.appointmentId ? await repos.appointments.findById(row.companyId, row.appointmentId) : null;
      // A notice tells of the appointment as it is (a cancelled one included); a reminder goes for a live one only.
      if (!appointment || (row.kind === 'reminder' && !isLive(appointment.status))) return null;
      const [type, professional, unit, settings] = await Promise.all([
        repos.schedulingCatalog.findType(row.companyId, appointment.appointmentTypeId),
        repos.schedulingCatalog.findProfessional(row.companyId, appointment.professionalId),
        repos.schedulingCatalog.findUnit(row.companyId, appointment.unitId),
        repos.schedulingCatalog.reminderSettings(row.companyId),
      ]);
      template = row.content.text ?? type?.reminderText ?? settings?.reminderText ?? DEFAULT_REMINDER_TEXT;
      // An official box opens a conversation only with an approved template: the type's, when it has one.
      if (row.kind === 'reminder' && type?.reminderTemplate && this.gateway.capabilities(ctx.setor, row.keyMode).templates) approved = type.reminderTemplate;
      variables = {
        servico: type?.name ?? '',
        profissional: professional?.name ?? '',
        unidade: unit?.name ?? '',
        endereco: unit ? formatAddress(unit.address) : '',
        data_agendamento: zonedDateBr(appointment.startsAt, appointment.timezone),
        hora_agendamento: zonedClock(appointment.startsAt, appointment.timezone),
      };
    }
    const personalisation = { phone: row.phone, name: row.clientName, variables, now, timeZone: company.timezone };
    if (approved) {
      const parameters = approved.parameters.map((p) => ({ type: 'text', text: personalise(p, personalisation) }));
      return { type: 'template', template: { name: approved.name, language: approved.language, components: parameters.length > 0 ? [{ type: 'body', parameters }] : [] } };
    }
    const text = personalise(template, personalisation);
    const { mediaUrl, mediaType, mediaFilename } = row.content;
    if (mediaUrl && mediaType) {
      const media = { url: mediaUrl, mediaType: mediaType as 'image', ...(mediaFilename ? { filename: mediaFilename } : {}) };
      return text ? { type: 'media', media, text } : { type: 'media', media };
    }
    return { type: 'text', text };
  }

  private async deliver(ctx: TimedSendContext, prepared: Prepared): Promise<{ ok: true; providerMessageId: string; sentAt: Date } | { ok: false; code: string; error: string }> {
    const { row } = prepared;
    let parts;
    try {
      parts = planOutboundContent(prepared.content, this.gateway.capabilities(ctx.setor, row.keyMode), { timeZone: ctx.company.timezone });
    } catch (error) {
      return { ok: false, code: 'UNKNOWN', error: error instanceof Error ? error.message : String(error) };
    }
    const target = { setor: ctx.setor, instance: ctx.instance, mode: row.keyMode, to: row.phone, earlierAttemptSince: prepared.earlierAttemptSince };
    return sendInParts(this.gateway, target, parts, row, timedClientMessageId);
  }

  private async settle(
    repos: Repos,
    ctx: TimedSendContext,
    row: ScheduledMessage,
    outcome: { ok: true; providerMessageId: string; sentAt: Date } | { ok: false; code: string; error: string },
  ): Promise<'sent' | 'failed' | 'retry' | 'lost'> {
    const now = this.clock.now();
    const delays = this.settings.retryDelaysMs.map((ms) => Math.round(ms * Math.max(0, this.settings.pacingScale)));
    const { state } = outcome.ok
      ? transition(scheduledMessageDecider, row, { type: 'markSent', at: now, messageId: outcome.providerMessageId, sentAt: outcome.sentAt })
      : transition(scheduledMessageDecider, row, { type: 'markFailed', at: now, code: outcome.code, error: outcome.error, retryDelaysMs: delays });
    // Compare-and-set: only the run holding the claim records the outcome, once.
    if (!(await repos.scheduledMessages.compareAndSet(state, { status: 'sending', claimedBy: ctx.owner }))) return 'lost';
    if (state.status === 'sent') {
      await repos.events.record([this.event(state, 'message.sent', now)]);
      return 'sent';
    }
    if (row.charge) await refundSend(repos, row.companyId, { ...row.charge, setorId: row.setorId });
    if (state.status === 'scheduled') {
      await wakeTimedSendAt(repos.jobs, state.setorId, state.effectiveSendAt);
      return 'retry';
    }
    await repos.events.record([this.event(state, 'message.failed', now)]);
    return 'failed';
  }

  private event(row: ScheduledMessage, event: 'message.sent' | 'message.failed', at: Date): DomainEvent {
    const sent = event === 'message.sent';
    return {
      id: this.ids.newId(),
      event,
      companyId: row.companyId,
      setorId: row.setorId,
      occurredAt: at,
      data: {
        campaignId: null,
        detailId: row.id,
        ...(row.kind === 'message'
          ? { scheduledMessageId: row.id }
          : row.kind === 'notice'
            ? { appointmentId: row.appointmentId, noticeId: row.id }
            : { appointmentId: row.appointmentId, reminderId: row.id }),
        recipientPhone: row.phone,
        recipientName: row.clientName,
        clientId: row.clientId,
        status: sent ? 'sent' : 'failed',
        error: sent ? null : row.error,
        error_code: sent ? null : row.errorCode,
        actual_setor_id: row.setorId,
        was_reassigned: false,
        providerMessageId: row.messageId,
      },
      actor: systemActor,
    };
  }
}

/** `Rua X, 12 - Centro, Cidade/UF`, leaving out the missing parts. */
export function formatAddress(address: UnitAddress): string {
  const street = [address.street, address.number].filter(Boolean).join(', ');
  const place = [address.city, address.uf].filter(Boolean).join('/');
  return [street, address.district, place].filter(Boolean).join(' - ');
}
