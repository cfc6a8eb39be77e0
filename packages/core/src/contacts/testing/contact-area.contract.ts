import { describe, expect, it } from '@jest/globals';
import { CONTRACT_T0, type RepositoriesUnderTest } from '../../shared/testing/index.js';
import { contractCases } from '../../companies/testing/index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { ContactRepositories } from '../index.js';
import type { TagRepositories } from '../../tags/index.js';
import { tagRuleFixture } from '../../tags/testing/index.js';
import { createContact, newContactImport, type ContactImport } from '../index.js';

/** The areas this suite reads and writes. */
type Areas = CompanyRepositories & ContactRepositories & TagRepositories;

const t0 = CONTRACT_T0;
const later = (ms: number) => new Date(t0.getTime() + ms);


/** Contacts with fields and the assistant, search, merge, field definitions, batch writes and import jobs. */
export function describeContactAreaContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`contacts area contract: ${name}`, () => {
    const tenants = contractCases('d', setup);
    const fresh = tenants;

    it('keeps email, custom fields and the assistant, and updates them', async () => {
      const { repos, ids, company } = await fresh();
      const contact = createContact(ids.newId(), company.id, '+5511987654321', 'Ana', t0, { email: 'ana@x.test', customFields: { plano: 'ouro', n: 3 } });
      await repos.contacts.insert(contact);
      expect(await repos.contacts.findById(company.id, contact.id)).toEqual(contact);
      const changed = { ...contact, name: 'Ana B', customFields: { plano: 'prata' }, iaAtiva: false, iaPausedUntil: later(60_000), updatedAt: later(1) };
      await repos.contacts.update(changed);
      expect(await repos.contacts.findByIdForUpdate(company.id, contact.id)).toEqual(changed);
    });

    it('insertOrLock creates once per match key and answers the stored contact after', async () => {
      const { repos, ids, company } = await fresh();
      const first = await repos.contacts.insertOrLock(createContact(ids.newId(), company.id, '+551187654321', 'Ana', t0));
      expect(first.created).toBe(true);
      const second = await repos.contacts.insertOrLock(createContact(ids.newId(), company.id, '+5511987654321', 'Other', t0));
      expect(second).toEqual({ contact: first.contact, created: false });
    });

    it('deletes a tag with its links and rules, answering their counts', async () => {
      const { repos, ids, company } = await fresh();
      const vip = { id: ids.newId(), companyId: company.id, name: 'vip', description: null, color: '#FF0000', createdAt: t0, updatedAt: t0 };
      await repos.tags.insert(vip);
      const contact = createContact(ids.newId(), company.id, '+5511987654321', null, t0);
      await repos.contacts.insert(contact);
      await repos.tags.tagContact(contact.id, [vip.id], t0);
      const rule = tagRuleFixture(ids.newId(), company.id, vip.id, t0);
      await repos.tagRules.insert(rule);
      expect(await repos.tags.delete(company.id, vip.id)).toEqual({ contacts: 1, rules: 1 });
      expect(await repos.tags.findById(company.id, vip.id)).toBeNull();
      expect(await repos.tags.tagIdsOfContact(contact.id)).toEqual([]);
      expect(await repos.tagRules.findById(company.id, rule.id)).toBeNull();
    });

    it('keeps field definitions unique by key, updates them, removes their values from contacts', async () => {
      const { repos, uow, ids, company, other } = await fresh();
      const def = { id: ids.newId(), companyId: company.id, key: 'plano', label: 'Plano', type: 'select' as const, options: ['a', 'b'], createdAt: t0, updatedAt: t0 };
      expect(await repos.contactFields.insert(def)).toBeNull();
      expect(await repos.contactFields.insert({ ...def, id: ids.newId() })).toEqual(def);
      expect(await repos.contactFields.insert({ ...def, id: ids.newId(), companyId: other.id })).toBeNull();
      await repos.contactFields.update({ ...def, label: 'Plano 2', options: ['a', 'b', 'c'], updatedAt: later(1) });
      expect(await repos.contactFields.findByIdForUpdate(def.id)).toMatchObject({ label: 'Plano 2', options: ['a', 'b', 'c'] });
      expect(await repos.contactFields.list(company.id)).toHaveLength(1);
      expect(await repos.contactFields.count(company.id)).toBe(1);
      const used = await uow.transaction(async (tx) => [
        await tx.contactFields.listForUse(company.id, ['plano', 'desconhecido']),
        await tx.contactFields.listForUse(other.id, ['plano']),
        await tx.contactFields.listForUse(company.id, []),
      ]);
      expect(used.map((list) => list.map((d) => [d.companyId, d.key, d.label]))).toEqual([[[company.id, 'plano', 'Plano 2']], [[other.id, 'plano', 'Plano']], []]);
      const contact = createContact(ids.newId(), company.id, '+5511987654321', null, t0, { customFields: { plano: 'a', outro: 1 } });
      await repos.contacts.insert(contact);
      expect(await repos.contacts.removeCustomField(company.id, 'plano', later(2))).toBe(1);
      expect((await repos.contacts.findById(company.id, contact.id))?.customFields).toEqual({ outro: 1 });
      await repos.contactFields.delete(def.id);
      expect(await repos.contactFields.findByIdForUpdate(def.id)).toBeNull();
    });

    it('writes import batches per mode and reports what was written', async () => {
      const { repos, ids, company } = await fresh();
      const tag = { id: ids.newId(), companyId: company.id, name: 'lote', description: null, color: null, createdAt: t0, updatedAt: t0 };
      await repos.tags.insert(tag);
      const existing = createContact(ids.newId(), company.id, '+5511987654321', 'Ana', t0);
      await repos.contacts.insert(existing);
      const rows = [
        { phone: '+551187654321', name: 'Outra', email: 'ana@x.test', customFields: {}, tagIds: [] },
        { phone: '+5521912345678', name: 'Bia', email: null, customFields: { a: 1 }, tagIds: [tag.id] },
      ];
      const fill = await repos.contacts.writeBatch(company.id, rows, 'fill', ids, later(1));
      expect(fill.map((o) => o.outcome)).toEqual(['updated', 'created']);
      expect(fill[0]!.contactId).toBe(existing.id);
      expect(fill[1]!.tagsAdded).toEqual([tag.id]);
      expect(await repos.contacts.findById(company.id, existing.id)).toMatchObject({ name: 'Ana', email: 'ana@x.test' });
      const again = await repos.contacts.writeBatch(company.id, rows, 'fill', ids, later(2));
      expect(again.map((o) => o.outcome)).toEqual(['unchanged', 'unchanged']);
      const overwrite = await repos.contacts.writeBatch(company.id, rows, 'overwrite', ids, later(3));
      expect(overwrite.map((o) => o.outcome)).toEqual(['updated', 'unchanged']);
      expect((await repos.contacts.findById(company.id, existing.id))?.name).toBe('Outra');
      const createOnly = await repos.contacts.writeBatch(
        company.id,
        [{ ...rows[0]!, name: 'Nunca', tagIds: [tag.id] }, { phone: '+5531955554444', name: null, email: null, customFields: {}, tagIds: [] }],
        'create_only',
        ids,
        later(4),
      );
      expect(createOnly.map((o) => o.outcome)).toEqual(['unchanged', 'created']);
      expect(createOnly[0]!.tagsAdded).toEqual([]);
      // A tag deleted since the import was checked is skipped.
      const gone = await repos.contacts.writeBatch(company.id, [{ phone: '+5541987654321', name: null, email: null, customFields: {}, tagIds: [ids.newId(), tag.id] }], 'fill', ids, later(5));
      expect(gone[0]).toMatchObject({ outcome: 'created', tagsAdded: [tag.id] });
      expect((await repos.contacts.findById(company.id, existing.id))?.name).toBe('Outra');
    });

    it('stores import jobs with their batches, counts the active ones and finds the stale ones', async () => {
      const { repos, ids, company, other } = await fresh();
      const job: ContactImport = newContactImport({ id: ids.newId(), companyId: company.id, mode: 'fill', total: 3, batches: 2, at: t0 });
      const batch0 = [{ row: 1, write: { phone: '+5511987654321', name: 'Ana', email: null, customFields: {}, tagIds: [] } }, { row: 2, duplicate: true }];
      const batch1 = [{ row: 3, error: { row: 3, field: 'phone', code: 'INVALID_NUMBER', message: 'bad' } }];
      await repos.contactImports.insert(job, [batch0, batch1]);
      expect(await repos.contactImports.findById(company.id, job.id)).toEqual(job);
      expect(await repos.contactImports.findById(other.id, job.id)).toBeNull();
      expect(await repos.contactImports.loadBatch(job.id, 0)).toEqual(batch0);
      expect(await repos.contactImports.loadBatch(job.id, 1)).toEqual(batch1);
      expect(await repos.contactImports.lockAndCountActive(company.id)).toBe(1);
      expect(await repos.contactImports.listStale(later(1), t0)).toEqual([]);
      expect(await repos.contactImports.listStale(later(120_000), later(60_000))).toEqual([job.id]);
      const running = { ...job, status: 'running' as const, leaseUntil: later(30_000), stalledClaims: 1, startedAt: t0, processed: 2, created: 1, skipped: 1, nextBatch: 1, errors: [{ row: 2, field: 'phone', code: 'DUPLICATE_IN_FILE', message: 'x' }], updatedAt: later(1) };
      await repos.contactImports.save(running);
      expect(await repos.contactImports.findByIdForUpdate(job.id)).toEqual(running);
      expect(await repos.contactImports.listStale(later(10_000), later(60_000))).toEqual([]);
      expect(await repos.contactImports.listStale(later(31_000), t0)).toEqual([job.id]);
      await repos.contactImports.save({ ...running, status: 'completed', leaseUntil: null, finishedAt: later(2) });
      expect(await repos.contactImports.lockAndCountActive(company.id)).toBe(0);
    });
  });
}
