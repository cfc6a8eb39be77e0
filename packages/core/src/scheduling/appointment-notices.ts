import type { ChannelRepositories } from '../channel/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { SetorRepositories } from '../setores/index.js';
import type { Appointment } from './appointment.js';
import { APPOINTMENT_NOTICE_TEXTS } from './catalog.js';
import { newTimedSend, type ScheduledMessage } from './scheduled-message.js';
import type { SchedulingRepositories } from './scheduling-repositories.js';
import { wakeTimedSendAt } from './scheduling-queues.js';
import { chooseTimedSendBox } from './timed-send-box.js';

export type AppointmentNotice = keyof typeof APPOINTMENT_NOTICE_TEXTS;

/**
 * Queues, in the caller's transaction, the message that tells the client of a reschedule or a
 * cancellation (`notify: true`): a timed send due now, within the company's safe hours, sent once by
 * the box's lane like a reminder (charged, retried, taken over after a crash). Its text is filled at
 * send time with the reminder variables of the appointment as it then is. Null when the company has
 * no box to send from.
 */
export async function queueAppointmentNotice(
  repos: Repositories<SchedulingRepositories & ChannelRepositories & ContactRepositories & SetorRepositories>,
  ids: IdGenerator,
  appointment: Appointment,
  notice: AppointmentNotice,
  now: Date,
): Promise<ScheduledMessage | null> {
  const setorId = await chooseTimedSendBox(repos, appointment.companyId, appointment.setorId, appointment.clientId).catch(() => null);
  if (!setorId) return null;
  const row = newTimedSend({
    id: ids.newId(),
    companyId: appointment.companyId,
    kind: 'notice',
    appointmentId: appointment.id,
    clientId: appointment.clientId,
    clientName: appointment.clientName,
    phone: appointment.clientPhone,
    setorId,
    keyMode: appointment.keyMode,
    content: { text: APPOINTMENT_NOTICE_TEXTS[notice], mediaUrl: null, mediaType: null, mediaFilename: null },
    sendAt: now,
    effectiveSendAt: now,
    respectSafeHours: true,
    createdAt: now,
  });
  await repos.scheduledMessages.insert([row]);
  await wakeTimedSendAt(repos.jobs, setorId, now);
  return row;
}
