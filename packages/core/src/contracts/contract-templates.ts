import type { CompanyRepositories } from '../companies/index.js';
import type { Clock } from '../shared/clock.js';
import { NotFoundError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { ContractRepositories } from './contract-repositories.js';
import { shapeTemplate, type ContractTemplate, type TemplateInput } from './contract-template.js';

/** `GET /v1/contract-templates`: the active ones, by name. */
export class ListContractTemplates {
  constructor(private readonly repos: Repositories<ContractRepositories>) {}
  execute(companyId: string): Promise<ContractTemplate[]> {
    return this.repos.contractTemplates.listByCompany(companyId, false);
  }
}

/** The operator's templates (`/admin/v1/companies/:id/contract-templates`, PATCH and DELETE by id; DELETE deactivates). */
export class ManageContractTemplates {
  constructor(
    private readonly uow: UnitOfWork<ContractRepositories & CompanyRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  create(companyId: string, input: TemplateInput & { name: string; body: string }): Promise<ContractTemplate> {
    return this.uow.transaction(async (repos) => {
      if (!(await repos.companies.findById(companyId))) throw new NotFoundError('Company');
      const now = this.clock.now();
      const blank: ContractTemplate = { id: this.ids.newId(), companyId, name: '', description: null, body: '', variables: [], active: true, createdAt: now, updatedAt: now };
      const template = shapeTemplate(blank, input, now);
      await repos.contractTemplates.insert(template);
      return template;
    });
  }

  update(id: string, input: TemplateInput): Promise<ContractTemplate> {
    return this.uow.transaction(async (repos) => {
      // Locked: concurrent edits of other fields apply one after the other instead of writing back what each read.
      const template = await repos.contractTemplates.findAnyByIdForUpdate(id);
      if (!template) throw new NotFoundError('Contract template');
      const changed = shapeTemplate(template, input, this.clock.now());
      await repos.contractTemplates.update(changed);
      return changed;
    });
  }

  deactivate(id: string): Promise<ContractTemplate> {
    return this.update(id, { active: false });
  }
}
