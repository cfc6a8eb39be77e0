import type { Clock } from '../shared/clock.js';
import { DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { CompanyRepositories } from '../companies/index.js';
import { isValidTimeZone, validateReminderOffsets, validateSchedule, type AppointmentType, type Professional, type ProfessionalService, type ReminderSettings, type ScheduleEntry, type Unit, type UnitAddress } from './catalog.js';
import { BusyTimeConflict, type ProfessionalBlock, type SchedulingRepositories } from './scheduling-repositories.js';

export type UnitInput = Partial<{ name: string; address: Partial<UnitAddress>; timezone: string; openOnHolidays: boolean; active: boolean }>;

/** The fields of a catalogue record a create or an update may set: all but its identity and timestamps. */
type CatalogInput<T> = Partial<Omit<T, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>>;

export type ProfessionalInput = CatalogInput<Professional>;
export type AppointmentTypeInput = CatalogInput<AppointmentType>;

const emptyAddress: UnitAddress = { street: null, number: null, district: null, city: null, uf: null, postalCode: null, ibgeCode: null };

type Areas = SchedulingRepositories & CompanyRepositories;

/** A change of a company's reminder settings: an absent field is kept, `null` returns it to the default. */
export interface ReminderSettingsInput {
  reminderOffsetsMinutes?: number[] | null;
  reminderText?: string | null;
}

/** Validates and writes a change of a company's reminder settings in the caller's transaction; answers those in force. */
export async function writeReminderSettings(repos: Repositories<SchedulingRepositories>, companyId: string, input: ReminderSettingsInput): Promise<ReminderSettings> {
  const current = (await repos.schedulingCatalog.reminderSettings(companyId)) ?? { companyId, reminderOffsetsMinutes: null, reminderText: null };
  if (input.reminderOffsetsMinutes === undefined && input.reminderText === undefined) return current;
  const next: ReminderSettings = {
    companyId,
    reminderOffsetsMinutes:
      input.reminderOffsetsMinutes === undefined ? current.reminderOffsetsMinutes : input.reminderOffsetsMinutes && validateReminderOffsets(input.reminderOffsetsMinutes, 'reminder_offsets_minutes', 1),
    reminderText: input.reminderText === undefined ? current.reminderText : input.reminderText,
  };
  await repos.schedulingCatalog.saveReminderSettings(next);
  return next;
}

/**
 * The operator's scheduling catalogue (`/admin/v1/companies/:id/...`): units, professionals with
 * their schedule, services and blocks, appointment types, and the company's reminder settings.
 */
export class ManageSchedulingCatalog {
  constructor(
    private readonly uow: UnitOfWork<Areas>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  private async company(repos: Repositories<Areas>, companyId: string): Promise<void> {
    if (!(await repos.companies.findById(companyId))) throw new NotFoundError('Company');
  }

  /** A new record of the company (which must exist), made by `make` at the transaction's instant, inserted and answered. */
  private create<T>(companyId: string, make: (repos: Repositories<Areas>, now: Date) => T | Promise<T>, insert: (repos: Repositories<Areas>, record: T) => Promise<void>): Promise<T> {
    return this.uow.transaction(async (repos) => {
      await this.company(repos, companyId);
      const record = await make(repos, this.clock.now());
      await insert(repos, record);
      return record;
    });
  }

  /**
   * A stored record changed: found by `find` (404 `missing` otherwise; it locks the row, so concurrent edits of other
   * fields apply one after the other instead of writing back what each read), changed by `change`, saved and answered.
   */
  private change<T>(
    find: (repos: Repositories<Areas>) => Promise<T | null>,
    missing: string,
    change: (repos: Repositories<Areas>, current: T) => T | Promise<T>,
    save: (repos: Repositories<Areas>, next: T) => Promise<void>,
  ): Promise<T> {
    return this.uow.transaction(async (repos) => {
      const current = await find(repos);
      if (!current) throw new NotFoundError(missing);
      const next = await change(repos, current);
      await save(repos, next);
      return next;
    });
  }

  /** The company owning a unit, professional or type by its id alone (business.md §8 by-id routes); 404 when unknown. */
  async companyOf(kind: 'unit' | 'professional' | 'type', id: string): Promise<string> {
    const companyId = await this.uow.transaction((repos) => repos.schedulingCatalog.companyOf(kind, id));
    if (!companyId) throw new NotFoundError(kind === 'unit' ? 'Unit' : kind === 'professional' ? 'Professional' : 'Appointment type');
    return companyId;
  }

  createUnit(companyId: string, input: UnitInput): Promise<Unit> {
    return this.create(
      companyId,
      (_, now): Unit => ({
        id: this.ids.newId(),
        companyId,
        name: input.name!,
        address: { ...emptyAddress, ...input.address },
        timezone: checkZone(input.timezone ?? 'America/Sao_Paulo'),
        openOnHolidays: input.openOnHolidays ?? false,
        active: input.active ?? true,
        createdAt: now,
        updatedAt: now,
      }),
      (repos, unit) => repos.schedulingCatalog.insertUnit(unit),
    );
  }

  updateUnit(companyId: string, id: string, input: UnitInput): Promise<Unit> {
    return this.change(
      (repos) => repos.schedulingCatalog.findUnit(companyId, id, { forUpdate: true }),
      'Unit',
      (_, unit): Unit => ({
        ...unit,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.address !== undefined ? { address: { ...unit.address, ...input.address } } : {}),
        ...(input.timezone !== undefined ? { timezone: checkZone(input.timezone) } : {}),
        ...(input.openOnHolidays !== undefined ? { openOnHolidays: input.openOnHolidays } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        updatedAt: this.clock.now(),
      }),
      (repos, next) => repos.schedulingCatalog.updateUnit(next),
    );
  }

  createProfessional(companyId: string, input: ProfessionalInput): Promise<Professional> {
    return this.create(
      companyId,
      async (repos, now) => {
        const professional: Professional = { id: this.ids.newId(), companyId, name: input.name!, phone: input.phone ?? null, active: input.active ?? true, schedule: [], services: [], createdAt: now, updatedAt: now };
        if (input.schedule) professional.schedule = await this.checkSchedule(repos, companyId, input.schedule);
        if (input.services) professional.services = await this.checkServices(repos, companyId, input.services);
        return professional;
      },
      (repos, professional) => repos.schedulingCatalog.insertProfessional(professional),
    );
  }

  /** PATCH of a professional; `schedule` and `services` replace all (also PUT …/schedule and …/services). */
  updateProfessional(companyId: string, id: string, input: ProfessionalInput): Promise<Professional> {
    return this.change(
      (repos) => repos.schedulingCatalog.findProfessional(companyId, id, { forUpdate: true }),
      'Professional',
      async (repos, professional): Promise<Professional> => ({
        ...professional,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.phone !== undefined ? { phone: input.phone } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        ...(input.schedule !== undefined ? { schedule: await this.checkSchedule(repos, companyId, input.schedule) } : {}),
        ...(input.services !== undefined ? { services: await this.checkServices(repos, companyId, input.services) } : {}),
        updatedAt: this.clock.now(),
      }),
      (repos, next) => repos.schedulingCatalog.updateProfessional(next),
    );
  }

  /** Blocks a professional's time; 409 CONFLICT over an appointment or another block (the exclusion constraint). */
  async addBlock(companyId: string, professionalId: string, input: { startsAt: Date; endsAt: Date; reason?: string | null }): Promise<ProfessionalBlock> {
    if (input.endsAt.getTime() <= input.startsAt.getTime()) throw new ValidationError('ends_at must be after starts_at', { field: 'ends_at' });
    try {
      return await this.uow.transaction(async (repos) => {
        const professional = await repos.schedulingCatalog.findProfessional(companyId, professionalId);
        if (!professional) throw new NotFoundError('Professional');
        const block: ProfessionalBlock = { id: this.ids.newId(), companyId, professionalId, startsAt: input.startsAt, endsAt: input.endsAt, reason: input.reason ?? null, createdAt: this.clock.now() };
        await repos.appointments.insertBlock(block);
        await repos.appointments.reserve({ id: this.ids.newId(), companyId, professionalId, appointmentId: null, blockId: block.id, busy: { from: block.startsAt, to: block.endsAt } });
        return block;
      });
    } catch (error) {
      if (error instanceof BusyTimeConflict) throw new DomainError('CONFLICT', 'The block overlaps an appointment or another block of the professional', { professional_id: professionalId });
      throw error;
    }
  }

  createType(companyId: string, input: AppointmentTypeInput): Promise<AppointmentType> {
    return this.create(
      companyId,
      async (repos, now): Promise<AppointmentType> => ({
        id: this.ids.newId(),
        companyId,
        name: input.name!,
        durationMinutes: input.durationMinutes!,
        bufferBeforeMinutes: input.bufferBeforeMinutes ?? 0,
        bufferAfterMinutes: input.bufferAfterMinutes ?? 0,
        slotIntervalMinutes: input.slotIntervalMinutes ?? input.durationMinutes!,
        minNoticeMinutes: input.minNoticeMinutes ?? 60,
        maxAdvanceDays: input.maxAdvanceDays ?? 60,
        price: input.price ?? null,
        unitIds: await this.checkUnits(repos, companyId, input.unitIds ?? []),
        reminderOffsetsMinutes: input.reminderOffsetsMinutes ? validateReminderOffsets(input.reminderOffsetsMinutes, 'reminder_offsets_minutes', 1) : null,
        reminderText: input.reminderText ?? null,
        reminderTemplate: input.reminderTemplate ?? null,
        active: input.active ?? true,
        createdAt: now,
        updatedAt: now,
      }),
      (repos, type) => repos.schedulingCatalog.insertType(type),
    );
  }

  updateType(companyId: string, id: string, input: AppointmentTypeInput): Promise<AppointmentType> {
    return this.change(
      (repos) => repos.schedulingCatalog.findType(companyId, id, { forUpdate: true }),
      'Appointment type',
      async (repos, type) => {
        const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as AppointmentTypeInput;
        const next: AppointmentType = { ...type, ...defined, updatedAt: this.clock.now() } as AppointmentType;
        if (input.unitIds) next.unitIds = await this.checkUnits(repos, companyId, input.unitIds);
        if (input.reminderOffsetsMinutes) next.reminderOffsetsMinutes = validateReminderOffsets(input.reminderOffsetsMinutes, 'reminder_offsets_minutes', 1);
        return next;
      },
      (repos, next) => repos.schedulingCatalog.updateType(next),
    );
  }

  reminderSettings(companyId: string): Promise<ReminderSettings> {
    return this.uow.transaction(async (repos) => {
      await this.company(repos, companyId);
      return (await repos.schedulingCatalog.reminderSettings(companyId)) ?? { companyId, reminderOffsetsMinutes: null, reminderText: null };
    });
  }

  saveReminderSettings(companyId: string, input: ReminderSettingsInput): Promise<ReminderSettings> {
    return this.uow.transaction(async (repos) => {
      await this.company(repos, companyId);
      return writeReminderSettings(repos, companyId, input);
    });
  }

  private async checkUnits(repos: Repositories<Areas>, companyId: string, unitIds: readonly string[]): Promise<string[]> {
    const unique = [...new Set(unitIds)];
    for (const unitId of unique) {
      if (!(await repos.schedulingCatalog.findUnit(companyId, unitId))) throw new NotFoundError('Unit', { unit_id: unitId });
    }
    return unique;
  }

  private async checkSchedule(repos: Repositories<Areas>, companyId: string, schedule: ScheduleEntry[]): Promise<ScheduleEntry[]> {
    await this.checkUnits(repos, companyId, schedule.map((e) => e.unitId));
    validateSchedule(schedule);
    return schedule;
  }

  private async checkServices(repos: Repositories<Areas>, companyId: string, services: ProfessionalService[]): Promise<ProfessionalService[]> {
    await this.checkUnits(repos, companyId, services.map((s) => s.unitId));
    for (const service of services) {
      const type = await repos.schedulingCatalog.findType(companyId, service.appointmentTypeId);
      if (!type) throw new NotFoundError('Appointment type', { appointment_type_id: service.appointmentTypeId });
      if (!type.unitIds.includes(service.unitId)) {
        throw new ValidationError('The appointment type is not offered at that unit', { field: 'services', appointment_type_id: service.appointmentTypeId, unit_id: service.unitId });
      }
    }
    const seen = new Set<string>();
    return services.filter((s) => {
      const key = `${s.appointmentTypeId}|${s.unitId}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
}

function checkZone(timezone: string): string {
  if (!isValidTimeZone(timezone)) throw new ValidationError('timezone must be an IANA time zone such as America/Manaus', { field: 'timezone' });
  return timezone;
}

/** GET /v1/units, /v1/professionals, /v1/appointment-types. */
export class ReadSchedulingCatalog {
  constructor(private readonly repos: Repositories<SchedulingRepositories>) {}
  units(companyId: string, filter: { active?: boolean }): Promise<Unit[]> {
    return this.repos.schedulingCatalog.listUnits(companyId, filter);
  }
  professionals(companyId: string, filter: { unitId?: string; appointmentTypeId?: string; active?: boolean }): Promise<Professional[]> {
    return this.repos.schedulingCatalog.listProfessionals(companyId, filter);
  }
  types(companyId: string, filter: { active?: boolean }): Promise<AppointmentType[]> {
    return this.repos.schedulingCatalog.listTypes(companyId, filter);
  }
}
