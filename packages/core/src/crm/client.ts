import type { CompanyRepositories } from '../companies/index.js';
import type { Contact, ContactRepositories } from '../contacts/index.js';
import { normalizePhone } from '../phone/index.js';
import type { IdGenerator } from '../shared/id-generator.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { Repositories } from '../shared/unit-of-work.js';

/** How a request names its client (business.md §0): an existing contact, or a phone (+ name) to find or create one. */
export interface ClientInput {
  clientId?: string;
  phone?: string;
  name?: string;
}

/** The `client { id, name, phone }` of the API's answers. */
export interface ClientRef {
  id: string;
  name: string | null;
  phone: string;
}

export function clientRef(contact: Contact): ClientRef {
  return { id: contact.id, name: contact.name, phone: contact.phone };
}

/**
 * The contact a request names: `clientId` must be one of the company's contacts (404 otherwise);
 * a `phone` is normalised with the company's default country and its contact found or created
 * through the contacts area (an existing contact keeps its name).
 */
export async function resolveClient(
  repos: Repositories<ContactRepositories & CompanyRepositories>,
  companyId: string,
  input: ClientInput,
  ids: IdGenerator,
  now: Date,
): Promise<Contact> {
  if (input.clientId) {
    const contact = await repos.contacts.findById(companyId, input.clientId);
    if (!contact) throw new NotFoundError('Client');
    return contact;
  }
  if (!input.phone) throw new ValidationError('client_id or phone is required', { field: 'client_id' });
  const company = await repos.companies.findById(companyId);
  const phone = normalizePhone(input.phone, 'phone', company?.defaultCountry);
  const [contact] = await repos.contacts.ensureMany(companyId, [{ phone, name: input.name ?? null }], ids, now);
  return contact!;
}

/** The company's contacts by id, for lists. */
export async function clientsById(repos: Repositories<ContactRepositories>, companyId: string, ids: readonly string[]): Promise<Map<string, ClientRef>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const contacts = await repos.contacts.findManyByIds(companyId, unique);
  return new Map(contacts.map((c) => [c.id, clientRef(c)]));
}
