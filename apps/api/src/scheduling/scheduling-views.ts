import { localOf, type Appointment, type AppointmentDetail, type AppointmentNames, type AppointmentType, type Professional, type ProfessionalBlock, type ReminderSettings, type ScheduledMessage, type Unit } from '@carteiro/core';
import { formatClock } from '@carteiro/core';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A scheduled message as GET /v1/scheduled-messages/:id answers it. */
export function scheduledMessageView(m: ScheduledMessage) {
  return {
    id: m.id,
    status: m.status,
    client: { id: m.clientId, name: m.clientName, phone: m.phone },
    setor_id: m.setorId,
    text: m.content.text,
    media: m.content.mediaUrl ? { url: m.content.mediaUrl, type: m.content.mediaType, filename: m.content.mediaFilename } : null,
    send_at: m.sendAt.toISOString(),
    effective_send_at: m.effectiveSendAt.toISOString(),
    respect_safe_hours: m.respectSafeHours,
    waiting_reason: m.waitingReason,
    attempts: m.attempts,
    sent_at: iso(m.sentAt),
    message_id: m.messageId,
    error_code: m.errorCode,
    cancelled_at: iso(m.cancelledAt),
    created_at: m.createdAt.toISOString(),
  };
}

export function reminderView(r: ScheduledMessage) {
  return {
    id: r.id,
    offset_minutes: r.offsetMinutes ?? 0,
    due_at: r.effectiveSendAt.toISOString(),
    // Being sent is still scheduled for the reader of an appointment.
    status: r.status === 'sending' ? 'scheduled' : r.status,
    sent_at: iso(r.sentAt),
    message_id: r.messageId,
    error_code: r.errorCode,
    skip_reason: r.skipReason,
  };
}

export function appointmentView(a: Appointment, names: AppointmentNames) {
  return {
    id: a.id,
    status: a.status,
    starts_at: a.startsAt.toISOString(),
    ends_at: a.endsAt.toISOString(),
    local: localOf(a.startsAt, a.timezone),
    appointment_type_id: a.appointmentTypeId,
    professional_id: a.professionalId,
    unit_id: a.unitId,
    appointment_type: { id: a.appointmentTypeId, name: names.appointmentType },
    professional: { id: a.professionalId, name: names.professional },
    unit: { id: a.unitId, name: names.unit },
    client: { id: a.clientId, name: a.clientName, phone: a.clientPhone },
    description: a.description,
    ticket_id: a.ticketId,
    setor_id: a.setorId,
    confirmed_at: iso(a.confirmedAt),
    cancelled_at: iso(a.cancelledAt),
    cancel_reason: a.cancelReason,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}

export function appointmentDetailView(d: AppointmentDetail) {
  return {
    ...appointmentView(d.appointment, d.names),
    reminders: d.reminders.map(reminderView),
    history: d.appointment.history.map((h) => ({ at: h.at.toISOString(), action: h.action, actor: h.actor, details: h.details })),
  };
}

export function unitView(u: Unit) {
  return {
    id: u.id,
    name: u.name,
    address: {
      street: u.address.street,
      number: u.address.number,
      district: u.address.district,
      city: u.address.city,
      uf: u.address.uf,
      postal_code: u.address.postalCode,
      ibge_code: u.address.ibgeCode,
    },
    timezone: u.timezone,
    open_on_holidays: u.openOnHolidays,
    active: u.active,
  };
}

export function professionalView(p: Professional) {
  return {
    id: p.id,
    name: p.name,
    phone: p.phone,
    active: p.active,
    schedule: p.schedule.map((e) => ({ unit_id: e.unitId, weekday: e.weekday, start: formatClock(e.startMinute), end: formatClock(e.endMinute) })),
    services: p.services.map((s) => ({ appointment_type_id: s.appointmentTypeId, unit_id: s.unitId })),
  };
}

export function appointmentTypeView(t: AppointmentType, units?: readonly Unit[]) {
  return {
    id: t.id,
    name: t.name,
    duration_minutes: t.durationMinutes,
    buffer_before_minutes: t.bufferBeforeMinutes,
    buffer_after_minutes: t.bufferAfterMinutes,
    slot_interval_minutes: t.slotIntervalMinutes,
    min_notice_minutes: t.minNoticeMinutes,
    max_advance_days: t.maxAdvanceDays,
    price: t.price,
    unit_ids: t.unitIds,
    units: (units ?? []).filter((u) => t.unitIds.includes(u.id)).map((u) => ({ id: u.id, name: u.name, timezone: u.timezone })),
    reminder_offsets_minutes: t.reminderOffsetsMinutes,
    reminder_text: t.reminderText,
    active: t.active,
  };
}

export function blockView(b: ProfessionalBlock) {
  return { id: b.id, professional_id: b.professionalId, starts_at: b.startsAt.toISOString(), ends_at: b.endsAt.toISOString(), reason: b.reason };
}

export function reminderSettingsView(s: ReminderSettings) {
  return { reminder_offsets_minutes: s.reminderOffsetsMinutes, reminder_text: s.reminderText, effective_reminder_offsets_minutes: s.reminderOffsetsMinutes ?? [1440, 120] };
}
