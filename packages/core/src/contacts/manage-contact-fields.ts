import type { Clock } from '../shared/clock.js';
import { assertBelowCompanyLimit, DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { checkDefinitionInput, ContactFieldTypes, MAX_CONTACT_FIELDS, type ContactFieldDefinition, type ContactFieldType } from './contact-field.js';
import type { ContactRepositories } from './contact-repositories.js';
import type { CompanyRepositories } from '../companies/index.js';

/** The operator's custom-field routes (POST /admin/v1/companies/:id/contact-fields; PATCH, DELETE /admin/v1/contact-fields/:id). */
export class ManageContactFields {
  constructor(
    private readonly uow: UnitOfWork<ContactRepositories & CompanyRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async create(companyId: string, input: { key: string; label: string; type: ContactFieldType; options?: string[] }): Promise<ContactFieldDefinition> {
    checkDefinitionInput(input);
    if (!ContactFieldTypes.includes(input.type)) throw new ValidationError(`type must be one of ${ContactFieldTypes.join(', ')}`, { field: 'type' });
    const selects = input.type === 'select' || input.type === 'multi_select';
    if (selects && (input.options ?? []).length === 0) throw new ValidationError('options are required for select fields', { field: 'options' });
    if (!selects && input.options && input.options.length > 0) throw new ValidationError('options are only for select fields', { field: 'options' });
    return this.uow.transaction(async (repos) => {
      // The company row serialises creations: the limit's count sees every definition made before it.
      if (!(await repos.companies.findByIdForUpdate(companyId))) throw new NotFoundError('Company');
      assertBelowCompanyLimit(await repos.contactFields.count(companyId), MAX_CONTACT_FIELDS, 'contact fields');
      const now = this.clock.now();
      const definition: ContactFieldDefinition = {
        id: this.ids.newId(),
        companyId,
        key: input.key,
        label: input.label.trim(),
        type: input.type,
        options: input.options ?? [],
        createdAt: now,
        updatedAt: now,
      };
      const existing = await repos.contactFields.insert(definition);
      if (existing) throw new DomainError('CONFLICT', `A field with key ${input.key} already exists`, { field_id: existing.id });
      return definition;
    });
  }

  /** Label and options; the type never changes and options are only added (every current one must be kept). */
  async update(id: string, input: { label?: string; options?: string[]; type?: string; key?: string }): Promise<ContactFieldDefinition> {
    checkDefinitionInput({ label: input.label, options: input.options });
    return this.uow.transaction(async (repos) => {
      const definition = await repos.contactFields.findByIdForUpdate(id);
      if (!definition) throw new NotFoundError('Contact field');
      if (input.type !== undefined && input.type !== definition.type) throw new ValidationError('type cannot change', { field: 'type' });
      if (input.key !== undefined && input.key !== definition.key) throw new ValidationError('key cannot change', { field: 'key' });
      let options = definition.options;
      if (input.options !== undefined) {
        if (definition.type !== 'select' && definition.type !== 'multi_select') throw new ValidationError('options are only for select fields', { field: 'options' });
        const removed = definition.options.filter((o) => !input.options!.includes(o));
        if (removed.length > 0) throw new ValidationError('options can only be added', { field: 'options', removed });
        options = input.options;
      }
      const next: ContactFieldDefinition = { ...definition, label: input.label?.trim() ?? definition.label, options, updatedAt: this.clock.now() };
      await repos.contactFields.update(next);
      return next;
    });
  }

  /** Deletes the definition and drops its values from every contact. */
  async delete(id: string): Promise<{ id: string; valuesRemoved: number }> {
    return this.uow.transaction(async (repos) => {
      const definition = await repos.contactFields.findByIdForUpdate(id);
      if (!definition) throw new NotFoundError('Contact field');
      const valuesRemoved = await repos.contacts.removeCustomField(definition.companyId, definition.key, this.clock.now());
      await repos.contactFields.delete(id);
      return { id, valuesRemoved };
    });
  }
}
