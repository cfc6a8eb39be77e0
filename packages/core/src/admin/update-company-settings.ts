import { updateCompany, type Company, type CompanyRepositories, type CompanySettingsInput } from '../companies/index.js';
import { writeLowBalanceThresholds, type BillingRepositories, type CreditKind, type LowBalanceThresholds } from '../billing/index.js';
import { writeReminderSettings, type ReminderSettings, type ReminderSettingsInput, type SchedulingRepositories } from '../scheduling/index.js';
import type { Clock } from '../shared/clock.js';
import { NotFoundError } from '../shared/errors.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';

/** What the operator changes of a company in one request; an absent group is left as it is. */
export interface CompanySettingsChange {
  settings?: CompanySettingsInput;
  reminders?: ReminderSettingsInput;
  lowBalanceThresholds?: LowBalanceThresholds;
}

export interface CompanyWithSettings {
  company: Company;
  reminders: ReminderSettings;
  lowBalanceThresholds: Record<CreditKind, number | null>;
}

/**
 * The operator's change of a company (PATCH /admin/v1/companies/:id): its plan settings and
 * quotas, its reminder settings and its low-balance thresholds, written in one transaction under
 * the company's row lock, so that a refused part (an invalid offset) leaves every part unchanged.
 */
export class UpdateCompanySettings {
  constructor(
    private readonly uow: UnitOfWork<CompanyRepositories & SchedulingRepositories & BillingRepositories>,
    private readonly clock: Clock,
  ) {}

  /** The company with the settings in force, as {@link execute} answers them. */
  read(companyId: string): Promise<CompanyWithSettings> {
    // Empty changes only read: no row lock for a GET.
    return this.uow.transaction(async (repos) => {
      const company = await repos.companies.findById(companyId);
      if (!company) throw new NotFoundError('Company');
      return { company, reminders: await writeReminderSettings(repos, companyId, {}), lowBalanceThresholds: await writeLowBalanceThresholds(repos, companyId, {}) };
    });
  }

  execute(companyId: string, change: CompanySettingsChange): Promise<CompanyWithSettings> {
    return this.uow.transaction(async (repos) => {
      const current = await repos.companies.findByIdForUpdate(companyId);
      if (!current) throw new NotFoundError('Company');
      let company = current;
      if (change.settings && Object.values(change.settings).some((value) => value !== undefined)) {
        company = updateCompany(current, this.clock.now(), change.settings);
        await repos.companies.update(company);
      }
      const reminders = await writeReminderSettings(repos, companyId, change.reminders ?? {});
      const lowBalanceThresholds = await writeLowBalanceThresholds(repos, companyId, change.lowBalanceThresholds ?? {});
      return { company, reminders, lowBalanceThresholds };
    });
  }
}
