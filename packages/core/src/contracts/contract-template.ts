import { DomainError, ValidationError } from '../shared/errors.js';

/** A variable a template needs filled (`{{key}}` in its body). */
export interface TemplateVariable {
  key: string;
  label: string;
  required: boolean;
}

/** A contract model of the company (admin-managed; deleting deactivates it). */
export interface ContractTemplate {
  id: string;
  companyId: string;
  name: string;
  description: string | null;
  /** Markdown subset with `{{variables}}`. */
  body: string;
  variables: TemplateVariable[];
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Variables every contract has, filled when the PDF is rendered (business.md §4). */
export const AUTOMATIC_VARIABLES = ['cliente_nome', 'empresa_nome', 'titulo', 'valor', 'data'] as const;

const VARIABLE = /\{\{\s*([a-z0-9_]+)\s*\}\}/gi;
const KEY = /^[a-z][a-z0-9_]{0,49}$/;

/** `{{key}}` replaced by its value; unknown keys stay as they are. */
export function fillVariables(body: string, values: Readonly<Record<string, string>>): string {
  return body.replace(VARIABLE, (whole, key: string) => values[key.toLowerCase()] ?? whole);
}

/** The template's required variables that `given` leaves empty (automatic ones are always filled). */
export function missingVariables(template: Pick<ContractTemplate, 'variables'>, given: Readonly<Record<string, string>>): string[] {
  return template.variables
    .filter((v) => v.required && !(AUTOMATIC_VARIABLES as readonly string[]).includes(v.key))
    .filter((v) => !given[v.key]?.trim())
    .map((v) => v.key);
}

/** Refuses a draft whose template still needs variables: 422 `reason: missing_variables`. */
export function assertVariablesFilled(template: Pick<ContractTemplate, 'variables'>, given: Readonly<Record<string, string>>): void {
  const missing = missingVariables(template, given);
  if (missing.length > 0) {
    throw new DomainError('UNPROCESSABLE', 'The template needs variables that were not given', { reason: 'missing_variables', missing_variables: missing });
  }
}

/** Template fields as the operator gives them. */
export interface TemplateInput {
  name?: string;
  description?: string | null;
  body?: string;
  variables?: TemplateVariable[];
  active?: boolean;
}

export function shapeTemplate(template: ContractTemplate, input: TemplateInput, now: Date): ContractTemplate {
  const variables = input.variables ?? template.variables;
  const keys = variables.map((v) => v.key);
  const bad = keys.filter((k) => !KEY.test(k));
  if (bad.length > 0) throw new ValidationError('Variable keys are lowercase letters, digits and _', { field: 'variables', keys: bad });
  if (new Set(keys).size !== keys.length) throw new ValidationError('Variable keys must be unique', { field: 'variables' });
  const name = input.name !== undefined ? input.name.trim() : template.name;
  if (!name) throw new ValidationError('name must not be empty', { field: 'name' });
  return {
    ...template,
    name,
    description: input.description !== undefined ? input.description : template.description,
    body: input.body ?? template.body,
    variables,
    active: input.active ?? template.active,
    updatedAt: now,
  };
}
