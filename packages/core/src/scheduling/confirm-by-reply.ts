import type { InboundMessageListener, InboundMessageResult } from '../messages/index.js';
import type { Clock } from '../shared/clock.js';
import { transition } from '../shared/decider.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { appointmentDecider } from './appointment.js';
import type { SchedulingRepositories } from './scheduling-repositories.js';

/** How long after a reminder a "sim"/"1" still confirms its appointment. */
export const CONFIRMATION_WINDOW_MS = 48 * 3_600_000;

/** `sim`, `s`, `1` (any case, surrounding spaces and punctuation ignored). */
export function isConfirmationReply(text: string): boolean {
  const word = text
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[!.,;:)\s]+$/u, '');
  return word === 'sim' || word === 's' || word === '1';
}

/**
 * Confirms an appointment when its contact answers "sim" or "1" within 48 hours of a reminder:
 * the latest reminder sent to that phone names the appointment, which moves scheduled → confirmed
 * (actor `contact`); other states and other texts change nothing.
 */
export class ConfirmAppointmentByReply implements InboundMessageListener {
  constructor(
    private readonly uow: UnitOfWork<SchedulingRepositories>,
    private readonly clock: Clock,
  ) {}

  async onInbound(result: InboundMessageResult, text: string): Promise<void> {
    await this.execute(result.companyId, result.from, text);
  }

  /** Answers the id of the appointment confirmed, or null. */
  async execute(companyId: string, phone: string, text: string): Promise<string | null> {
    if (!isConfirmationReply(text)) return null;
    return this.uow.transaction(async (repos) => {
      const now = this.clock.now();
      const reminder = await repos.scheduledMessages.latestSentReminder(companyId, phone, new Date(now.getTime() - CONFIRMATION_WINDOW_MS));
      if (!reminder?.appointmentId) return null;
      const appointment = await repos.appointments.findByIdForUpdate(companyId, reminder.appointmentId);
      if (!appointment || appointment.status !== 'scheduled') return null;
      const { state } = transition(appointmentDecider, appointment, { type: 'confirm', at: now, actor: 'contact' });
      await repos.appointments.update(state);
      return state.id;
    });
  }
}
