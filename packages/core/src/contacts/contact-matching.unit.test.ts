import { describe, expect, it } from '@jest/globals';
import { InMemoryUnitOfWork, ManualClock, SequentialIds } from '../testing/index.js';
import { createCompany } from '../companies/index.js';
import { applyContactWrite, contactQueryKind, createContact, ManageContacts, UpsertContact } from './index.js';

const t0 = new Date('2026-03-01T12:00:00.000Z');

describe('fill and overwrite', () => {
  const existing = createContact('c1', 'co', '+5511987654321', 'Ana', t0, { customFields: { plano: 'ouro' } });
  it('fill writes only empty fields and says which were filled and kept', () => {
    const result = applyContactWrite(existing, { name: 'Outra', email: 'a@x.test', customFields: { plano: 'prata', pontos: 1 } }, 'fill', new Date(t0.getTime() + 1));
    expect(result.contact).toMatchObject({ name: 'Ana', email: 'a@x.test', customFields: { plano: 'ouro', pontos: 1 } });
    expect(result.filled).toEqual(['email', 'custom_fields.pontos']);
    expect(result.kept).toEqual(['name', 'custom_fields.plano']);
    expect(result.changed).toBe(true);
  });
  it('overwrite replaces what is given; empty values never erase', () => {
    const result = applyContactWrite(existing, { name: 'Outra', email: '', customFields: { plano: 'prata' } }, 'overwrite', t0);
    expect(result.contact).toMatchObject({ name: 'Outra', email: null, customFields: { plano: 'prata' } });
    expect(applyContactWrite(existing, { name: 'Ana' }, 'overwrite', t0).changed).toBe(false);
  });
});

describe('matching by phone', () => {
  const setup = () => {
    const uow = new InMemoryUnitOfWork();
    const clock = new ManualClock(t0);
    const ids = new SequentialIds();
    return { uow, clock, ids, upsert: new UpsertContact(uow, clock, ids), manage: new ManageContacts(uow, clock, ids) };
  };
  it('either ninth-digit form finds the same contact; a national number is read in the company country', async () => {
    const { uow, upsert } = setup();
    const company = createCompany('00000000-0000-4000-8000-00000000000a', t0, { name: 'A' });
    await uow.repos.companies.insert(company);
    const first = await upsert.execute(company, { phone: '+5511987654321', name: 'Ana' });
    expect(first.created).toBe(true);
    const second = await upsert.execute(company, { phone: '+551187654321' });
    expect(second).toMatchObject({ created: false, contact: { id: first.contact.id } });
    const national = await upsert.execute(company, { phone: '(11) 98765-4321' });
    expect(national.contact.id).toBe(first.contact.id);
    const other = await upsert.execute({ id: '00000000-0000-4000-8000-00000000000b' }, { phone: '+5511987654321' });
    expect(other.created).toBe(true);
  });
  it('merge keeps the survivor, fills its empty fields and deletes the other', async () => {
    const { uow, upsert, manage } = setup();
    const company = { id: '00000000-0000-4000-8000-00000000000a' };
    const a = (await upsert.execute(company, { phone: '+5511987654321', name: 'Ana' })).contact;
    const b = (await upsert.execute(company, { phone: '+5511912345678', name: 'B', email: 'b@x.test' })).contact;
    const merged = await manage.merge(company.id, a.id, b.id);
    expect(merged).toMatchObject({ id: a.id, name: 'Ana', email: 'b@x.test' });
    expect(await uow.repos.contacts.findById(company.id, b.id)).toBeNull();
    expect(uow.store.events.filter((e) => e.event === 'contact.merged').map((e) => e.data)).toEqual([
      { contactId: a.id, mergedContactId: b.id, phone: '+5511987654321', mergedPhone: '+5511912345678', movedTickets: 0 },
    ]);
  });
});

describe('how q is read', () => {
  it('phone-like text matches phone endings, text with @ the email, anything else name or email', () => {
    expect(contactQueryKind('4321')).toBe('phone');
    expect(contactQueryKind('+55 (11) 98765-4321')).toBe('phone');
    expect(contactQueryKind('ana@')).toBe('email');
    expect(contactQueryKind('Ana Souza')).toBe('text');
    expect(contactQueryKind('Ana 2')).toBe('text');
    expect(contactQueryKind('()-')).toBe('text');
  });
});
