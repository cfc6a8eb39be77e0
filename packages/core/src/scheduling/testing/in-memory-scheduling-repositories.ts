import { InMemoryCompanyRecords } from '../../shared/testing/in-memory-company-records.js';
import { paginate, type InMemoryStore } from '../../shared/testing/in-memory-store.js';
import type { Page, PageRequest } from '../../shared/pagination.js';
import type { Appointment } from '../appointment.js';
import type { Interval } from '../availability.js';
import type { AppointmentType, Professional, ReminderSettings, Unit } from '../catalog.js';
import type { ScheduledMessage, TimedSendKind } from '../scheduled-message.js';
import {
  BusyTimeConflict,
  type AppointmentFilter,
  type AppointmentRepository,
  type ProfessionalBlock,
  type ScheduledMessageFilter,
  type ScheduledMessageRepository,
  type SchedulingCatalogRepository,
  type SchedulingRepositories,
  type TimedSendExpectation,
} from '../scheduling-repositories.js';

interface Reservation {
  id: string;
  companyId: string;
  professionalId: string;
  appointmentId: string | null;
  blockId: string | null;
  busy: Interval;
}

// Tables are looked up on every call: a rolled-back transaction replaces the store's maps.
const units = (s: InMemoryStore) => s.table('schedulingUnits', () => new Map<string, Unit>());
const professionals = (s: InMemoryStore) => s.table('schedulingProfessionals', () => new Map<string, Professional>());
const types = (s: InMemoryStore) => s.table('appointmentTypes', () => new Map<string, AppointmentType>());
const settings = (s: InMemoryStore) => s.table('reminderSettings', () => new Map<string, ReminderSettings>());
const appointments = (s: InMemoryStore) => s.table('appointments', () => new Map<string, Appointment>());
const blocks = (s: InMemoryStore) => s.table('professionalBlocks', () => new Map<string, ProfessionalBlock>());
const busy = (s: InMemoryStore) => s.table('schedulingBusy', () => new Map<string, Reservation>());
const timed = (s: InMemoryStore) => s.table('scheduledMessages', () => new Map<string, ScheduledMessage>());

const clone = <T>(v: T): T => structuredClone(v);
const byName = <T extends { name: string; id: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1);

/** Writes a copy of a catalogue record under its id. */
const put = <T extends { id: string }>(table: Map<string, T>, record: T): void => void table.set(record.id, clone(record));
/** A copy of the company's record with this id; another company's reads as missing. */
const inCompany = <T extends { companyId: string }>(table: Map<string, T>, companyId: string, id: string): T | null => {
  const found = table.get(id);
  return found && found.companyId === companyId ? clone(found) : null;
};
/** Copies of the company's records, by name: all, or only the active or inactive ones, and only those `keep` keeps. */
const listOfCompany = <T extends { companyId: string; active: boolean; name: string; id: string }>(
  table: Map<string, T>,
  companyId: string,
  active: boolean | undefined,
  keep: (record: T) => boolean = () => true,
): T[] =>
  [...table.values()]
    .filter((r) => r.companyId === companyId && (active === undefined || r.active === active) && keep(r))
    .sort(byName)
    .map(clone);

export class InMemorySchedulingCatalogRepository implements SchedulingCatalogRepository {
  constructor(private readonly store: InMemoryStore) {}
  async insertUnit(u: Unit) {
    put(units(this.store), u);
  }
  async updateUnit(u: Unit) {
    put(units(this.store), u);
  }
  async companyOf(kind: 'unit' | 'professional' | 'type', id: string): Promise<string | null> {
    const table = kind === 'unit' ? units(this.store) : kind === 'professional' ? professionals(this.store) : types(this.store);
    return table.get(id)?.companyId ?? null;
  }
  async findUnit(companyId: string, id: string) {
    return inCompany(units(this.store), companyId, id);
  }
  async listUnits(companyId: string, filter: { active?: boolean }) {
    return listOfCompany(units(this.store), companyId, filter.active);
  }
  async insertProfessional(p: Professional) {
    put(professionals(this.store), p);
  }
  async updateProfessional(p: Professional) {
    put(professionals(this.store), p);
  }
  async findProfessional(companyId: string, id: string) {
    return inCompany(professionals(this.store), companyId, id);
  }
  async listProfessionals(companyId: string, filter: { unitId?: string; appointmentTypeId?: string; active?: boolean }) {
    return listOfCompany(
      professionals(this.store),
      companyId,
      filter.active,
      (p) =>
        (!filter.unitId || p.schedule.some((e) => e.unitId === filter.unitId) || p.services.some((s) => s.unitId === filter.unitId)) &&
        (!filter.appointmentTypeId || p.services.some((s) => s.appointmentTypeId === filter.appointmentTypeId)),
    );
  }
  async insertType(t: AppointmentType) {
    put(types(this.store), t);
  }
  async updateType(t: AppointmentType) {
    put(types(this.store), t);
  }
  async findType(companyId: string, id: string) {
    return inCompany(types(this.store), companyId, id);
  }
  async listTypes(companyId: string, filter: { active?: boolean }) {
    return listOfCompany(types(this.store), companyId, filter.active);
  }
  async reminderSettings(companyId: string) {
    const found = settings(this.store).get(companyId);
    return found ? clone(found) : null;
  }
  async saveReminderSettings(s: ReminderSettings) {
    settings(this.store).set(s.companyId, clone(s));
  }
}

const overlaps = (a: Interval, b: Interval) => a.from.getTime() < b.to.getTime() && b.from.getTime() < a.to.getTime();

/** Appointments and busy time; `reserve` refuses overlaps of one professional as the exclusion constraint does. */
export class InMemoryAppointmentRepository extends InMemoryCompanyRecords<Appointment> implements AppointmentRepository {
  constructor(store: InMemoryStore) {
    super(store, appointments);
  }
  findByIdForShare(companyId: string, id: string) {
    return this.findById(companyId, id);
  }
  async list(companyId: string, filter: AppointmentFilter, after: { startsAt: Date; id: string } | null, limit: number) {
    return [...appointments(this.store).values()]
      .filter(
        (a) =>
          a.companyId === companyId &&
          (!filter.from || a.startsAt >= filter.from) &&
          (!filter.to || a.startsAt < filter.to) &&
          (!filter.clientId || a.clientId === filter.clientId) &&
          (!filter.professionalId || a.professionalId === filter.professionalId) &&
          (!filter.unitId || a.unitId === filter.unitId) &&
          (!filter.statuses || filter.statuses.includes(a.status)) &&
          (!after || a.startsAt.getTime() > after.startsAt.getTime() || (a.startsAt.getTime() === after.startsAt.getTime() && a.id > after.id)),
      )
      .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map(clone);
  }
  async reserve(r: Reservation) {
    for (const other of busy(this.store).values()) {
      if (other.professionalId === r.professionalId && overlaps(other.busy, r.busy)) throw new BusyTimeConflict();
    }
    busy(this.store).set(r.id, clone(r));
  }
  async moveReservation(appointmentId: string, professionalId: string, interval: Interval) {
    const mine = [...busy(this.store).values()].find((b) => b.appointmentId === appointmentId);
    if (!mine) return;
    for (const other of busy(this.store).values()) {
      if (other.id !== mine.id && other.professionalId === professionalId && overlaps(other.busy, interval)) throw new BusyTimeConflict();
    }
    busy(this.store).set(mine.id, { ...mine, professionalId, busy: clone(interval) });
  }
  async releaseReservation(appointmentId: string) {
    for (const [id, b] of busy(this.store)) if (b.appointmentId === appointmentId) busy(this.store).delete(id);
  }
  async busyBetween(professionalIds: readonly string[], from: Date, to: Date) {
    const out = new Map<string, Interval[]>();
    for (const b of busy(this.store).values()) {
      if (!professionalIds.includes(b.professionalId) || !overlaps(b.busy, { from, to })) continue;
      out.set(b.professionalId, [...(out.get(b.professionalId) ?? []), clone(b.busy)]);
    }
    for (const list of out.values()) list.sort((a, b) => a.from.getTime() - b.from.getTime());
    return out;
  }
  async countLive(companyId: string, from: Date, to: Date) {
    return [...appointments(this.store).values()].filter((a) => a.companyId === companyId && a.keyMode === 'live' && a.status !== 'cancelled' && a.startsAt >= from && a.startsAt < to).length;
  }
  async insertBlock(b: ProfessionalBlock) {
    blocks(this.store).set(b.id, clone(b));
  }
  async upcomingForContact(companyId: string, contactId: string, now: Date, limit: number) {
    return [...appointments(this.store).values()]
      .filter((a) => a.companyId === companyId && a.clientId === contactId && (a.status === 'scheduled' || a.status === 'confirmed') && a.startsAt >= now)
      .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime())
      .slice(0, limit)
      .map(clone);
  }
}

/** Timed sends with the compare-and-set semantics of the Kysely adapter (the fakes' transactions are serialised). */
export class InMemoryScheduledMessageRepository implements ScheduledMessageRepository {
  constructor(private readonly store: InMemoryStore) {}
  async insert(rows: readonly ScheduledMessage[]) {
    for (const r of rows) timed(this.store).set(r.id, clone(r));
  }
  async findById(companyId: string, id: string, kind?: TimedSendKind) {
    const r = timed(this.store).get(id);
    return r && r.companyId === companyId && (!kind || r.kind === kind) ? clone(r) : null;
  }
  async list(companyId: string, kind: TimedSendKind, filter: ScheduledMessageFilter, page: PageRequest): Promise<Page<ScheduledMessage>> {
    const rows = [...timed(this.store).values()]
      .filter(
        (r) =>
          r.companyId === companyId &&
          r.kind === kind &&
          (!filter.statuses || filter.statuses.includes(r.status)) &&
          (!filter.clientId || r.clientId === filter.clientId) &&
          (!filter.setorId || r.setorId === filter.setorId) &&
          (!filter.from || r.sendAt >= filter.from) &&
          (!filter.to || r.sendAt < filter.to),
      )
      .sort((a, b) => a.sendAt.getTime() - b.sendAt.getTime() || (a.id < b.id ? -1 : 1))
      .map(clone);
    return paginate(rows, page);
  }
  async countPending(companyId: string) {
    return [...timed(this.store).values()].filter((r) => r.companyId === companyId && r.kind === 'message' && r.keyMode === 'live' && (r.status === 'scheduled' || r.status === 'sending')).length;
  }
  async remindersOf(appointmentId: string) {
    return [...timed(this.store).values()].filter((r) => r.appointmentId === appointmentId && r.kind === 'reminder').map(clone);
  }
  async compareAndSet(row: ScheduledMessage, expected: TimedSendExpectation) {
    const current = timed(this.store).get(row.id);
    if (!current || current.status !== expected.status) return false;
    if (expected.claimedBy !== undefined && current.claimedBy !== expected.claimedBy) return false;
    timed(this.store).set(row.id, clone(row));
    return true;
  }
  async cancelIfScheduled(companyId: string, id: string, at: Date) {
    const r = timed(this.store).get(id);
    if (!r || r.companyId !== companyId || r.kind !== 'message' || r.status !== 'scheduled') return null;
    const next: ScheduledMessage = { ...r, status: 'cancelled', cancelledAt: at, updatedAt: at, waitingReason: null };
    timed(this.store).set(id, next);
    return clone(next);
  }
  async cancelReminders(appointmentId: string, at: Date) {
    let n = 0;
    for (const [id, r] of timed(this.store)) {
      if (r.appointmentId === appointmentId && r.kind === 'reminder' && r.status === 'scheduled') {
        timed(this.store).set(id, { ...r, status: 'cancelled', cancelledAt: at, updatedAt: at, waitingReason: null });
        n += 1;
      }
    }
    return n;
  }
  async hasWork(setorId: string, now: Date) {
    return [...timed(this.store).values()].some((r) => r.setorId === setorId && ((r.status === 'scheduled' && r.effectiveSendAt <= now) || r.status === 'sending'));
  }
  async inFlight(setorId: string) {
    const found = [...timed(this.store).values()].filter((r) => r.setorId === setorId && r.status === 'sending').sort((a, b) => (a.claimedAt?.getTime() ?? 0) - (b.claimedAt?.getTime() ?? 0))[0];
    return found ? clone(found) : null;
  }
  async claimDue(setorId: string, owner: string, now: Date) {
    const due = [...timed(this.store).values()]
      .filter((r) => r.setorId === setorId && r.status === 'scheduled' && r.effectiveSendAt <= now)
      .sort((a, b) => a.effectiveSendAt.getTime() - b.effectiveSendAt.getTime() || (a.id < b.id ? -1 : 1))[0];
    if (!due) return null;
    const claimed: ScheduledMessage = { ...due, status: 'sending', attempts: due.attempts + 1, claimedBy: owner, claimedAt: now, updatedAt: now, charge: null };
    timed(this.store).set(due.id, claimed);
    return clone(claimed);
  }
  async setoresWithWork(now: Date, claimedBefore: Date) {
    const out = new Set<string>();
    for (const r of timed(this.store).values()) {
      if ((r.status === 'scheduled' && r.effectiveSendAt <= now) || (r.status === 'sending' && r.claimedAt && r.claimedAt < claimedBefore)) out.add(r.setorId);
    }
    return [...out];
  }
  async latestSentReminder(companyId: string, phone: string, since: Date) {
    const found = [...timed(this.store).values()]
      .filter((r) => r.companyId === companyId && r.phone === phone && r.kind === 'reminder' && r.status === 'sent' && r.sentAt && r.sentAt >= since)
      .sort((a, b) => b.sentAt!.getTime() - a.sentAt!.getTime())[0];
    return found ? clone(found) : null;
  }
}

/** The scheduling area's fakes over one store. */
export function inMemorySchedulingRepositories(store: InMemoryStore): SchedulingRepositories {
  return {
    schedulingCatalog: new InMemorySchedulingCatalogRepository(store),
    appointments: new InMemoryAppointmentRepository(store),
    scheduledMessages: new InMemoryScheduledMessageRepository(store),
  };
}
