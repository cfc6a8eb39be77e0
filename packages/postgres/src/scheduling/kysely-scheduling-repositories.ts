import {
  BusyTimeConflict,
  type Appointment,
  type AppointmentFilter,
  type AppointmentRepository,
  type AppointmentType,
  type CatalogRead,
  type Interval,
  type Page,
  type PageRequest,
  type Professional,
  type ProfessionalBlock,
  type ReminderSettings,
  type ScheduledMessage,
  type ScheduledMessageFilter,
  type ScheduledMessageRepository,
  type SchedulingCatalogRepository,
  type TimedSendExpectation,
  type TimedSendKind,
  type Unit,
  isUuid,
} from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import { findCompanyRecord, updateCompanyRow } from '../shared/records.js';
import { groupedOn } from '../shared/grouped-statements.js';
import { readPage } from '../shared/read-page.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { AppointmentTypesTable, AppointmentsTable, ScheduledMessagesTable, SchedulingProfessionalsTable, SchedulingUnitsTable } from './scheduling-tables.js';

const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));
const json = (value: unknown): string => JSON.stringify(value);

function toUnit(row: Selectable<SchedulingUnitsTable>): Unit {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'name', 'timezone', 'open_on_holidays', 'active']),
    address: row.address as Unit['address'],
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function toProfessional(row: Selectable<SchedulingProfessionalsTable>): Professional {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'name', 'phone', 'active']),
    schedule: row.schedule as Professional['schedule'],
    services: row.services as Professional['services'],
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function unitRow(u: Unit) {
  return { ...columnsOf(u, ['id', 'companyId', 'name', 'timezone', 'openOnHolidays', 'active', 'createdAt', 'updatedAt']), address: json(u.address) };
}

function professionalRow(p: Professional) {
  return { ...columnsOf(p, ['id', 'companyId', 'name', 'phone', 'active', 'createdAt', 'updatedAt']), schedule: json(p.schedule), services: json(p.services) };
}

function toType(row: Selectable<AppointmentTypesTable>): AppointmentType {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'name', 'duration_minutes', 'buffer_before_minutes', 'buffer_after_minutes', 'slot_interval_minutes', 'min_notice_minutes', 'max_advance_days', 'unit_ids', 'reminder_offsets_minutes', 'reminder_text', 'active']),
    price: row.price === null ? null : Number(row.price),
    reminderTemplate: (row.reminder_template as AppointmentType['reminderTemplate']) ?? null,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function typeRow(t: AppointmentType) {
  return {
    ...columnsOf(t, ['id', 'companyId', 'name', 'durationMinutes', 'bufferBeforeMinutes', 'bufferAfterMinutes', 'slotIntervalMinutes', 'minNoticeMinutes', 'maxAdvanceDays', 'unitIds', 'reminderOffsetsMinutes', 'reminderText', 'active', 'createdAt', 'updatedAt']),
    price: t.price === null ? null : t.price.toFixed(2),
    reminder_template: t.reminderTemplate === null ? null : json(t.reminderTemplate),
  };
}

/** Units, professionals, types and reminder settings on PostgreSQL. */
export class KyselySchedulingCatalogRepository implements SchedulingCatalogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertUnit(u: Unit): Promise<void> {
    await this.db.insertInto('scheduling_units').values(unitRow(u)).execute();
  }
  async updateUnit(u: Unit): Promise<void> {
    await updateCompanyRow(this.db, 'scheduling_units', unitRow(u));
  }
  async companyOf(kind: 'unit' | 'professional' | 'type', id: string): Promise<string | null> {
    const table = kind === 'unit' ? 'scheduling_units' : kind === 'professional' ? 'scheduling_professionals' : 'appointment_types';
    const row = await this.db.selectFrom(table).select('company_id').where('id', '=', id).executeTakeFirst();
    return row?.company_id ?? null;
  }
  async findUnit(companyId: string, id: string, read: CatalogRead = {}): Promise<Unit | null> {
    return findCompanyRecord(this.db, 'scheduling_units', companyId, id, toUnit, read.forUpdate ? 'forUpdate' : undefined);
  }
  async listUnits(companyId: string, filter: { active?: boolean }): Promise<Unit[]> {
    let q = this.db.selectFrom('scheduling_units').selectAll().where('company_id', '=', companyId);
    if (filter.active !== undefined) q = q.where('active', '=', filter.active);
    return (await q.orderBy('name').orderBy('id').execute()).map(toUnit);
  }

  async insertProfessional(p: Professional): Promise<void> {
    await this.db.insertInto('scheduling_professionals').values(professionalRow(p)).execute();
  }
  async updateProfessional(p: Professional): Promise<void> {
    await updateCompanyRow(this.db, 'scheduling_professionals', professionalRow(p));
  }
  async findProfessional(companyId: string, id: string, read: CatalogRead = {}): Promise<Professional | null> {
    return findCompanyRecord(this.db, 'scheduling_professionals', companyId, id, toProfessional, read.forUpdate ? 'forUpdate' : undefined);
  }
  async listProfessionals(companyId: string, filter: { unitId?: string; appointmentTypeId?: string; active?: boolean }): Promise<Professional[]> {
    let q = this.db.selectFrom('scheduling_professionals').selectAll().where('company_id', '=', companyId);
    if (filter.active !== undefined) q = q.where('active', '=', filter.active);
    const all = (await q.orderBy('name').orderBy('id').execute()).map(toProfessional);
    return all.filter(
      (p) =>
        (!filter.unitId || p.schedule.some((e) => e.unitId === filter.unitId) || p.services.some((s) => s.unitId === filter.unitId)) &&
        (!filter.appointmentTypeId || p.services.some((s) => s.appointmentTypeId === filter.appointmentTypeId)),
    );
  }

  async insertType(t: AppointmentType): Promise<void> {
    await this.db.insertInto('appointment_types').values(typeRow(t)).execute();
  }
  async updateType(t: AppointmentType): Promise<void> {
    await updateCompanyRow(this.db, 'appointment_types', typeRow(t));
  }
  async findType(companyId: string, id: string, read: CatalogRead = {}): Promise<AppointmentType | null> {
    return findCompanyRecord(this.db, 'appointment_types', companyId, id, toType, read.forUpdate ? 'forUpdate' : undefined);
  }
  async listTypes(companyId: string, filter: { active?: boolean }): Promise<AppointmentType[]> {
    let q = this.db.selectFrom('appointment_types').selectAll().where('company_id', '=', companyId);
    if (filter.active !== undefined) q = q.where('active', '=', filter.active);
    return (await q.orderBy('name').orderBy('id').execute()).map(toType);
  }

  async reminderSettings(companyId: string): Promise<ReminderSettings | null> {
    const row = await this.db.selectFrom('scheduling_reminder_settings').selectAll().where('company_id', '=', companyId).executeTakeFirst();
    return row ? { companyId, reminderOffsetsMinutes: row.reminder_offsets_minutes, reminderText: row.reminder_text } : null;
  }
  async saveReminderSettings(s: ReminderSettings): Promise<void> {
    await this.db
      .insertInto('scheduling_reminder_settings')
      .values({ company_id: s.companyId, reminder_offsets_minutes: s.reminderOffsetsMinutes, reminder_text: s.reminderText })
      .onConflict((oc) => oc.column('company_id').doUpdateSet({ reminder_offsets_minutes: s.reminderOffsetsMinutes, reminder_text: s.reminderText }))
      .execute();
  }
}

function toAppointment(row: Selectable<AppointmentsTable>): Appointment {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'appointment_type_id', 'professional_id', 'unit_id', 'client_id', 'client_name', 'client_phone', 'timezone', 'description', 'ticket_id', 'setor_id', 'cancel_reason']),
    startsAt: new Date(row.starts_at),
    endsAt: new Date(row.ends_at),
    status: row.status as Appointment['status'],
    keyMode: row.key_mode as Appointment['keyMode'],
    confirmedAt: date(row.confirmed_at),
    cancelledAt: date(row.cancelled_at),
    cancelledBy: row.cancelled_by as Appointment['cancelledBy'],
    history: (row.history as Array<Appointment['history'][number] & { at: string }>).map((h) => ({ ...h, at: new Date(h.at) })),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function appointmentRow(a: Appointment) {
  return {
    ...columnsOf(a, [
      'id', 'companyId', 'appointmentTypeId', 'professionalId', 'unitId', 'clientId', 'clientName', 'clientPhone', 'startsAt', 'endsAt', 'timezone', 'status',
      'description', 'ticketId', 'setorId', 'keyMode', 'confirmedAt', 'cancelledAt', 'cancelReason', 'cancelledBy', 'createdAt', 'updatedAt',
    ]),
    history: json(a.history),
  };
}

const isExclusionViolation = (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: string }).code === '23P01';
const range = (busy: Interval) => sql<string>`tstzrange(${busy.from}::timestamptz, ${busy.to}::timestamptz, '[)')`;

/** Appointments and the busy-time table (its exclusion constraint refuses double booking). */
export class KyselyAppointmentRepository implements AppointmentRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(a: Appointment): Promise<void> {
    await this.db.insertInto('appointments').values(appointmentRow(a)).execute();
  }
  async update(a: Appointment): Promise<void> {
    await updateCompanyRow(this.db, 'appointments', appointmentRow(a));
  }
  async findById(companyId: string, id: string): Promise<Appointment | null> {
    return findCompanyRecord(this.db, 'appointments', companyId, id, toAppointment);
  }
  async findByIdForUpdate(companyId: string, id: string): Promise<Appointment | null> {
    return findCompanyRecord(this.db, 'appointments', companyId, id, toAppointment, 'forUpdate');
  }
  async findByIdForShare(companyId: string, id: string): Promise<Appointment | null> {
    return findCompanyRecord(this.db, 'appointments', companyId, id, toAppointment, 'forShare');
  }
  async list(companyId: string, filter: AppointmentFilter, after: { startsAt: Date; id: string } | null, limit: number): Promise<Appointment[]> {
    let q = this.db.selectFrom('appointments').selectAll().where('company_id', '=', companyId);
    if (filter.from) q = q.where('starts_at', '>=', filter.from);
    if (filter.to) q = q.where('starts_at', '<', filter.to);
    if (filter.clientId) q = q.where('client_id', '=', filter.clientId);
    if (filter.professionalId) q = q.where('professional_id', '=', filter.professionalId);
    if (filter.unitId) q = q.where('unit_id', '=', filter.unitId);
    if (filter.statuses) q = q.where('status', 'in', [...filter.statuses]);
    if (after) q = q.where((eb) => eb.or([eb('starts_at', '>', after.startsAt), eb.and([eb('starts_at', '=', after.startsAt), eb('id', '>', after.id)])]));
    return (await q.orderBy('starts_at').orderBy('id').limit(limit).execute()).map(toAppointment);
  }
  async reserve(r: { id: string; companyId: string; professionalId: string; appointmentId: string | null; blockId: string | null; busy: Interval }): Promise<void> {
    try {
      await sql`INSERT INTO scheduling_busy (id, company_id, professional_id, appointment_id, block_id, busy)
        VALUES (${r.id}, ${r.companyId}, ${r.professionalId}, ${r.appointmentId}, ${r.blockId}, ${range(r.busy)})`.execute(this.db);
    } catch (error) {
      if (isExclusionViolation(error)) throw new BusyTimeConflict();
      throw error;
    }
  }
  async moveReservation(appointmentId: string, professionalId: string, busy: Interval): Promise<void> {
    try {
      await sql`UPDATE scheduling_busy SET professional_id = ${professionalId}, busy = ${range(busy)} WHERE appointment_id = ${appointmentId}`.execute(this.db);
    } catch (error) {
      if (isExclusionViolation(error)) throw new BusyTimeConflict();
      throw error;
    }
  }
  async releaseReservation(appointmentId: string): Promise<void> {
    await this.db.deleteFrom('scheduling_busy').where('appointment_id', '=', appointmentId).execute();
  }
  async busyBetween(professionalIds: readonly string[], from: Date, to: Date): Promise<Map<string, Interval[]>> {
    const out = new Map<string, Interval[]>();
    if (professionalIds.length === 0) return out;
    // One row per professional, its intervals as epoch milliseconds in start order: a month of a company's busy
    // time is thousands of intervals, and parsing a row (and two timestamps) for each was most of the read.
    const { rows } = await sql<{ professional_id: string; bounds: string }>`
      SELECT professional_id, string_agg((extract(epoch FROM lower(busy)) * 1000)::bigint || ',' || (extract(epoch FROM upper(busy)) * 1000)::bigint, ',' ORDER BY lower(busy)) AS bounds
      FROM scheduling_busy
      WHERE professional_id = ANY(${[...professionalIds]}::uuid[]) AND busy && tstzrange(${from}::timestamptz, ${to}::timestamptz, '[)')
      GROUP BY professional_id`.execute(this.db);
    for (const row of rows) {
      const numbers = row.bounds.split(',');
      const list: Interval[] = new Array(numbers.length / 2);
      for (let i = 0; i < numbers.length; i += 2) list[i / 2] = { from: new Date(Number(numbers[i])), to: new Date(Number(numbers[i + 1])) };
      out.set(row.professional_id, list);
    }
    return out;
  }
  async countLive(companyId: string, from: Date, to: Date): Promise<number> {
    const row = await this.db
      .selectFrom('appointments')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('company_id', '=', companyId)
      .where('key_mode', '=', 'live')
      .where('status', '!=', 'cancelled')
      .where('starts_at', '>=', from)
      .where('starts_at', '<', to)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  async insertBlock(b: ProfessionalBlock): Promise<void> {
    await this.db
      .insertInto('professional_blocks')
      .values({ id: b.id, company_id: b.companyId, professional_id: b.professionalId, starts_at: b.startsAt, ends_at: b.endsAt, reason: b.reason, created_at: b.createdAt })
      .execute();
  }
  async upcomingForContact(companyId: string, contactId: string, now: Date, limit: number): Promise<Appointment[]> {
    const rows = await this.db
      .selectFrom('appointments')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('client_id', '=', contactId)
      .where('status', 'in', ['scheduled', 'confirmed'])
      .where('starts_at', '>=', now)
      .orderBy('starts_at')
      .limit(limit)
      .execute();
    return rows.map(toAppointment);
  }
}

function toScheduled(row: Selectable<ScheduledMessagesTable>): ScheduledMessage {
  return {
    ...fieldsOf(row, [
      'id', 'company_id', 'appointment_id', 'offset_minutes', 'client_id', 'client_name', 'phone', 'setor_id', 'respect_safe_hours', 'waiting_reason', 'attempts',
      'claimed_by', 'message_id', 'error_code', 'error', 'skip_reason',
    ]),
    kind: row.kind as TimedSendKind,
    keyMode: row.key_mode as ScheduledMessage['keyMode'],
    content: row.content as ScheduledMessage['content'],
    sendAt: new Date(row.send_at),
    effectiveSendAt: new Date(row.effective_send_at),
    status: row.status as ScheduledMessage['status'],
    claimedAt: date(row.claimed_at),
    sentAt: date(row.sent_at),
    cancelledAt: date(row.cancelled_at),
    charge: (row.charge as ScheduledMessage['charge']) ?? null,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function scheduledRow(m: ScheduledMessage) {
  return {
    ...columnsOf(m, [
      'id', 'companyId', 'kind', 'appointmentId', 'offsetMinutes', 'clientId', 'clientName', 'phone', 'setorId', 'keyMode', 'sendAt', 'effectiveSendAt', 'respectSafeHours',
      'waitingReason', 'status', 'attempts', 'claimedBy', 'claimedAt', 'sentAt', 'messageId', 'errorCode', 'error', 'skipReason', 'cancelledAt', 'createdAt', 'updatedAt',
    ]),
    content: json(m.content),
    charge: m.charge === null ? null : json(m.charge),
  };
}

/** Timed sends: compare-and-set writes, `SKIP LOCKED` claims. */
export class KyselyScheduledMessageRepository implements ScheduledMessageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(rows: readonly ScheduledMessage[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 1000) {
      await this.db.insertInto('scheduled_messages').values(rows.slice(i, i + 1000).map(scheduledRow)).execute();
    }
  }
  async findById(companyId: string, id: string, kind?: TimedSendKind): Promise<ScheduledMessage | null> {
    let q = this.db.selectFrom('scheduled_messages').selectAll().where('company_id', '=', companyId).where('id', '=', id);
    if (kind) q = q.where('kind', '=', kind);
    const row = await q.executeTakeFirst();
    return row ? toScheduled(row) : null;
  }
  async list(companyId: string, kind: TimedSendKind, filter: ScheduledMessageFilter, page: PageRequest): Promise<Page<ScheduledMessage>> {
    let q = this.db.selectFrom('scheduled_messages').where('company_id', '=', companyId).where('kind', '=', kind);
    if (filter.statuses) q = q.where('status', 'in', [...filter.statuses]);
    if (filter.clientId) q = q.where('client_id', '=', filter.clientId);
    if (filter.setorId) q = q.where('setor_id', '=', filter.setorId);
    if (filter.from) q = q.where('send_at', '>=', filter.from);
    if (filter.to) q = q.where('send_at', '<', filter.to);
    return readPage(q, (query) => query.selectAll().orderBy('send_at').orderBy('id'), page, (rows) => rows.map(toScheduled));
  }
  async countPending(companyId: string): Promise<number> {
    const row = await this.db
      .selectFrom('scheduled_messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('company_id', '=', companyId)
      .where('kind', '=', 'message')
      .where('key_mode', '=', 'live')
      .where('status', 'in', ['scheduled', 'sending'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  async remindersOf(appointmentId: string): Promise<ScheduledMessage[]> {
    const rows = await this.db
      .selectFrom('scheduled_messages')
      .selectAll()
      .where('appointment_id', '=', appointmentId)
      .where('kind', '=', 'reminder')
      .orderBy('created_at')
      .orderBy('effective_send_at')
      .execute();
    return rows.map(toScheduled);
  }
  async compareAndSet(m: ScheduledMessage, expected: TimedSendExpectation): Promise<boolean> {
    const { id: _id, company_id: _c, kind: _k, created_at: _created, ...rest } = scheduledRow(m);
    let q = this.db.updateTable('scheduled_messages').set(rest).where('id', '=', m.id).where('status', '=', expected.status);
    if (expected.claimedBy !== undefined) q = expected.claimedBy === null ? q.where('claimed_by', 'is', null) : q.where('claimed_by', '=', expected.claimedBy);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
  async cancelIfScheduled(companyId: string, id: string, at: Date): Promise<ScheduledMessage | null> {
    const row = await this.db
      .updateTable('scheduled_messages')
      .set({ status: 'cancelled', cancelled_at: at, updated_at: at, waiting_reason: null })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .where('kind', '=', 'message')
      .where('status', '=', 'scheduled')
      .returningAll()
      .executeTakeFirst();
    return row ? toScheduled(row) : null;
  }
  async cancelReminders(appointmentId: string, at: Date): Promise<number> {
    const result = await this.db
      .updateTable('scheduled_messages')
      .set({ status: 'cancelled', cancelled_at: at, updated_at: at, waiting_reason: null })
      .where('appointment_id', '=', appointmentId)
      .where('kind', '=', 'reminder')
      .where('status', '=', 'scheduled')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
  async hasWork(setorId: string, now: Date): Promise<boolean> {
    if (!this.db.isTransaction && isUuid(setorId)) {
      // Outside a transaction (every dispatch lane of a worker asks every few seconds) the looks made at once share a statement.
      const db = this.db;
      return groupedOn<{ setorId: string; now: Date }, boolean>(db, 'timedSends.hasWork', async (asked) => {
        const { rows } = await sql<{ ord: string; found: boolean }>`
          SELECT r.ord, EXISTS (SELECT 1 FROM scheduled_messages WHERE setor_id = r.id AND status = 'scheduled' AND effective_send_at <= r.at)
              OR EXISTS (SELECT 1 FROM scheduled_messages WHERE setor_id = r.id AND status = 'sending') AS found
          FROM unnest(${asked.map((a) => a.setorId)}::uuid[], ${asked.map((a) => a.now.toISOString())}::timestamptz[]) WITH ORDINALITY AS r(id, at, ord)`.execute(db);
        const found = new Map(rows.map((row) => [Number(row.ord), row.found === true]));
        return asked.map((_, i) => found.get(i + 1) ?? false);
      }).submit({ setorId, now });
    }
    const { rows } = await sql<{ found: boolean }>`
      SELECT EXISTS (SELECT 1 FROM scheduled_messages WHERE setor_id = ${setorId} AND status = 'scheduled' AND effective_send_at <= ${now})
          OR EXISTS (SELECT 1 FROM scheduled_messages WHERE setor_id = ${setorId} AND status = 'sending') AS found`.execute(this.db);
    return rows[0]?.found === true;
  }
  async inFlight(setorId: string): Promise<ScheduledMessage | null> {
    const row = await this.db
      .selectFrom('scheduled_messages')
      .selectAll()
      .where('setor_id', '=', setorId)
      .where('status', '=', 'sending')
      .orderBy('claimed_at')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    return row ? toScheduled(row) : null;
  }
  async claimDue(setorId: string, owner: string, now: Date): Promise<ScheduledMessage | null> {
    const { rows } = await sql<Selectable<ScheduledMessagesTable>>`
      UPDATE scheduled_messages SET status = 'sending', attempts = attempts + 1, claimed_by = ${owner}, claimed_at = ${now}, updated_at = ${now}, charge = NULL
      WHERE id = (
        SELECT id FROM scheduled_messages
        WHERE setor_id = ${setorId} AND status = 'scheduled' AND effective_send_at <= ${now}
        ORDER BY effective_send_at, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED
      ) AND status = 'scheduled'
      RETURNING *`.execute(this.db);
    return rows[0] ? toScheduled(rows[0]) : null;
  }
  async setoresWithWork(now: Date, claimedBefore: Date): Promise<string[]> {
    const { rows } = await sql<{ setor_id: string }>`
      SELECT DISTINCT setor_id FROM scheduled_messages WHERE status = 'scheduled' AND effective_send_at <= ${now}
      UNION
      SELECT DISTINCT setor_id FROM scheduled_messages WHERE status = 'sending' AND claimed_at < ${claimedBefore}`.execute(this.db);
    return rows.map((r) => r.setor_id);
  }
  async latestSentReminder(companyId: string, phone: string, since: Date): Promise<ScheduledMessage | null> {
    const row = await this.db
      .selectFrom('scheduled_messages')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('phone', '=', phone)
      .where('kind', '=', 'reminder')
      .where('status', '=', 'sent')
      .where('sent_at', '>=', since)
      .orderBy('sent_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toScheduled(row) : null;
  }
}
