import { describe, expect, it } from '@jest/globals';
import { createCompany } from '../../companies/index.js';
import { SequentialIds } from '../../shared/testing/deterministic.js';
import type { RepositoriesUnderTest } from '../../shared/testing/index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { SchedulingRepositories } from '../index.js';
import { BusyTimeConflict } from '../scheduling-repositories.js';
import type { Professional } from '../catalog.js';
import type { ScheduledMessage } from '../scheduled-message.js';
import { timedMessageFixture } from './timed-send-fixture.js';

/** The areas this suite reads and writes. */
type Areas = CompanyRepositories & SchedulingRepositories;

const t0 = new Date('2026-03-01T12:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

/** The behaviour every implementation of the scheduling repositories must show (timed-send claims and compare-and-set, busy time). */
export function describeSchedulingRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`scheduling repositories contract: ${name}`, () => {
    const ids = new SequentialIds();
    const id = () => `30000000-${ids.newId().slice(9)}`;
    const fresh = async () => {
      const sut = await setup();
      const company = createCompany(id(), t0, { name: 'Clínica' });
      await sut.repos.companies.insert(company);
      const setorId = id();
      const row = (extra: Partial<ScheduledMessage> = {}): ScheduledMessage => ({
        ...timedMessageFixture({ id: id(), companyId: company.id, clientId: id(), setorId }, t0),
        ...extra,
      });
      const professional = async (): Promise<Professional> => {
        const p: Professional = { id: id(), companyId: company.id, name: 'Dra. Ana', phone: null, active: true, schedule: [], services: [], createdAt: t0, updatedAt: t0 };
        await sut.repos.schedulingCatalog.insertProfessional(p);
        return p;
      };
      return { ...sut, company, setorId, row, professional };
    };

    it('claims the earliest due row of the box once (→ sending, attempts + 1), leaving future rows and other boxes alone', async () => {
      const { repos, setorId, row } = await fresh();
      const later = row({ effectiveSendAt: at(10) });
      const first = row({ effectiveSendAt: at(-2) });
      const second = row({ effectiveSendAt: at(-1) });
      const elsewhere = row({ setorId: id(), effectiveSendAt: at(-5) });
      await repos.scheduledMessages.insert([later, second, first, elsewhere]);
      expect(await repos.scheduledMessages.hasWork(setorId, t0)).toBe(true);
      const claimed = await repos.scheduledMessages.claimDue(setorId, 'lane-1', t0);
      expect(claimed).toMatchObject({ id: first.id, status: 'sending', attempts: 1, claimedBy: 'lane-1', claimedAt: t0 });
      expect((await repos.scheduledMessages.claimDue(setorId, 'lane-1', at(1)))?.id).toBe(second.id);
      expect(await repos.scheduledMessages.claimDue(setorId, 'lane-1', at(1))).toBeNull();
      // The oldest claim first (a dead run's rows are taken over in claim order).
      expect((await repos.scheduledMessages.inFlight(setorId))?.id).toBe(first.id);
      expect((await repos.scheduledMessages.setoresWithWork(t0, at(1))).sort()).toEqual([setorId, elsewhere.setorId].sort());
    });

    it('settles by compare-and-set on the status and the claiming run, once', async () => {
      const { repos, setorId, row } = await fresh();
      await repos.scheduledMessages.insert([row()]);
      const claimed = (await repos.scheduledMessages.claimDue(setorId, 'lane-1', t0))!;
      const sent = { ...claimed, status: 'sent' as const, sentAt: at(1), messageId: 'p1' };
      expect(await repos.scheduledMessages.compareAndSet(sent, { status: 'sending', claimedBy: 'lane-2' })).toBe(false);
      expect(await repos.scheduledMessages.compareAndSet(sent, { status: 'sending', claimedBy: 'lane-1' })).toBe(true);
      expect(await repos.scheduledMessages.compareAndSet(sent, { status: 'sending', claimedBy: 'lane-1' })).toBe(false);
      expect(await repos.scheduledMessages.findById(claimed.companyId, claimed.id)).toMatchObject({ status: 'sent', messageId: 'p1' });
      expect(await repos.scheduledMessages.hasWork(setorId, at(5))).toBe(false);
    });

    it('cancels only a scheduled row: a claimed one is not cancelled, and a cancelled one is never claimed', async () => {
      const { repos, setorId, row, company } = await fresh();
      const a = row();
      const b = row();
      await repos.scheduledMessages.insert([a, b]);
      const claimed = (await repos.scheduledMessages.claimDue(setorId, 'lane-1', t0))!;
      const other = claimed.id === a.id ? b : a;
      expect(await repos.scheduledMessages.cancelIfScheduled(company.id, claimed.id, at(1))).toBeNull();
      expect(await repos.scheduledMessages.cancelIfScheduled(company.id, other.id, at(1))).toMatchObject({ id: other.id, status: 'cancelled', cancelledAt: at(1) });
      expect(await repos.scheduledMessages.claimDue(setorId, 'lane-1', at(2))).toBeNull();
      expect(await repos.scheduledMessages.cancelIfScheduled(id(), other.id, at(1))).toBeNull();
    });

    it('counts the pending live messages and cancels the scheduled reminders of an appointment', async () => {
      const { repos, uow, company, row, professional } = await fresh();
      const p = await professional();
      const unit = { id: id(), companyId: company.id, name: 'U', address: { street: null, number: null, district: null, city: null, uf: null, postalCode: null, ibgeCode: null }, timezone: 'America/Sao_Paulo', openOnHolidays: false, active: true, createdAt: t0, updatedAt: t0 };
      await repos.schedulingCatalog.insertUnit(unit);
      const type = { id: id(), companyId: company.id, name: 'T', durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, slotIntervalMinutes: 30, minNoticeMinutes: 0, maxAdvanceDays: 60, price: null, unitIds: [unit.id], reminderOffsetsMinutes: null, reminderText: null, reminderTemplate: null, active: true, createdAt: t0, updatedAt: t0 };
      await repos.schedulingCatalog.insertType(type);
      // An edit's locking reads answer the same records (and none of another company's).
      const locked = await uow.transaction(async (tx) => [
        await tx.schedulingCatalog.findUnit(company.id, unit.id, { forUpdate: true }),
        await tx.schedulingCatalog.findProfessional(company.id, p.id, { forUpdate: true }),
        await tx.schedulingCatalog.findType(company.id, type.id, { forUpdate: true }),
        await tx.schedulingCatalog.findType(id(), type.id, { forUpdate: true }),
      ]);
      expect(locked.map((r) => r?.id ?? null)).toEqual([unit.id, p.id, type.id, null]);
      const appointmentId = id();
      await repos.appointments.insert({
        id: appointmentId, companyId: company.id, appointmentTypeId: type.id, professionalId: p.id, unitId: unit.id, clientId: id(), clientName: null, clientPhone: '+5511987654321',
        startsAt: at(120), endsAt: at(150), timezone: unit.timezone, status: 'scheduled', description: null, ticketId: null, setorId: null, keyMode: 'live',
        confirmedAt: null, cancelledAt: null, cancelReason: null, cancelledBy: null, history: [], createdAt: t0, updatedAt: t0,
      });
      await repos.scheduledMessages.insert([
        row(),
        row({ keyMode: 'test' }),
        row({ status: 'sent' }),
        row({ kind: 'reminder', appointmentId, offsetMinutes: 60 }),
        row({ kind: 'reminder', appointmentId, offsetMinutes: 30, status: 'sent', sentAt: at(1) }),
      ]);
      expect(await repos.scheduledMessages.countPending(company.id)).toBe(1);
      expect(await repos.scheduledMessages.cancelReminders(appointmentId, at(2))).toBe(1);
      expect((await repos.scheduledMessages.remindersOf(appointmentId)).map((r) => r.status).sort()).toEqual(['cancelled', 'sent']);
      expect((await repos.scheduledMessages.latestSentReminder(company.id, '+5511987654321', t0))?.offsetMinutes).toBe(30);
      expect(await repos.scheduledMessages.latestSentReminder(company.id, '+5511987654321', at(5))).toBeNull();
    });

    it('refuses overlapping busy time of one professional (touching ends are fine) and reads it back sorted', async () => {
      const { repos, company, professional } = await fresh();
      const p = await professional();
      const q = await professional();
      const reserve = (professionalId: string, from: number, to: number) =>
        repos.appointments.reserve({ id: id(), companyId: company.id, professionalId, appointmentId: null, blockId: null, busy: { from: at(from), to: at(to) } });
      await reserve(p.id, 60, 90);
      await reserve(p.id, 0, 30);
      await reserve(p.id, 30, 60);
      await reserve(q.id, 10, 20);
      await expect(reserve(p.id, 80, 100)).rejects.toBeInstanceOf(BusyTimeConflict);
    });

    it('busy intervals come back per professional in start order', async () => {
      const { repos, company, professional } = await fresh();
      const p = await professional();
      for (const [from, to] of [[60, 90], [0, 30]] as const) {
        await repos.appointments.reserve({ id: id(), companyId: company.id, professionalId: p.id, appointmentId: null, blockId: null, busy: { from: at(from), to: at(to) } });
      }
      const busy = await repos.appointments.busyBetween([p.id], at(-10), at(100));
      expect(busy.get(p.id)).toEqual([{ from: at(0), to: at(30) }, { from: at(60), to: at(90) }]);
      expect((await repos.appointments.busyBetween([p.id], at(35), at(55))).get(p.id)).toBeUndefined();
    });
  });
}
