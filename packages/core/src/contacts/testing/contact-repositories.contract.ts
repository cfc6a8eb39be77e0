import { describe, expect, it } from '@jest/globals';
import { createContact } from '../index.js';
import { createSetor } from '../../setores/index.js';
import { CONTRACT_T0, type RepositoriesUnderTest } from '../../shared/testing/index.js';
import { contractCases } from '../../companies/testing/index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { ContactRepositories } from '../index.js';
import type { RoutingRepositories } from '../../routing/index.js';
import type { SetorRepositories } from '../../setores/index.js';
import type { TagRepositories } from '../../tags/index.js';

/** The areas this suite reads and writes. */
type Areas = CompanyRepositories & ContactRepositories & RoutingRepositories & SetorRepositories & TagRepositories;

const t0 = CONTRACT_T0;


export interface ContactContractOptions {
  /** Largest `ensureMany` to time, and the budget for it in milliseconds (PostgreSQL: 10,000 in well under 100 ms). */
  /**
   * A bulk ensure of `size` phones; with `statements` (a counter of the statements the repositories sent so far), it
   * must take at most `maxStatements` of them, whatever the size (a per-row implementation sends one a phone).
   */
  bulk?: { size: number; statements?: () => number; maxStatements?: number };
}

/**
 * The behaviour every implementation of the contacts, affinities, tags, conversations,
 * messages and rotation-cursor repositories must show.
 */
export function describeContactRepositoriesContract(
  name: string,
  setup: () => Promise<RepositoriesUnderTest<Areas>>,
  options: ContactContractOptions = {},
): void {
  describe(`contact and message repositories contract: ${name}`, () => {
    const tenants = contractCases('c', setup);
    const fresh = async () => {
      const { ids, company, other, ...sut } = await tenants();
      const setor = createSetor(ids.newId(), company.id, t0, { nome: 'Vendas' });
      await sut.repos.setores.insert(setor);
      return { ...sut, ids, company, other, setor };
    };

    it('finds a contact by id and by either spelling of a Brazilian mobile, only in its company', async () => {
      const { repos, ids, company, other } = await fresh();
      const contact = createContact(ids.newId(), company.id, '+5511987654321', 'Ana', t0);
      await repos.contacts.insert(contact);
      expect(await repos.contacts.findById(company.id, contact.id)).toEqual(contact);
      expect(await repos.contacts.findById(other.id, contact.id)).toBeNull();
      expect(await repos.contacts.findById(company.id, 'not-a-uuid')).toBeNull();
      expect(await repos.contacts.findByPhone(company.id, '+551187654321')).toEqual(contact);
      expect(await repos.contacts.findByPhone(company.id, '+5511987654321')).toEqual(contact);
      expect(await repos.contacts.findByPhone(other.id, '+5511987654321')).toBeNull();
      expect(await repos.contacts.findByPhone(company.id, '+5511987654322')).toBeNull();
      const many = await repos.contacts.findManyByIds(company.id, [contact.id, ids.newId()]);
      expect(many).toEqual([contact]);
      expect(await repos.contacts.findManyByIds(other.id, [contact.id])).toEqual([]);
    });

    it('refuses a second contact with the same match key in a company, but not in another', async () => {
      const { repos, ids, company, other } = await fresh();
      await repos.contacts.insert(createContact(ids.newId(), company.id, '+5511987654321', null, t0));
      await expect(repos.contacts.insert(createContact(ids.newId(), company.id, '+551187654321', null, t0))).rejects.toThrow();
      await repos.contacts.insert(createContact(ids.newId(), other.id, '+5511987654321', null, t0));
    });

    it('ensures contacts in bulk: existing ones kept, new ones created, answers aligned with the input', async () => {
      const { repos, ids, company } = await fresh();
      const existing = createContact(ids.newId(), company.id, '+551187654321', 'Old name', t0);
      await repos.contacts.insert(existing);
      const result = await repos.contacts.ensureMany(
        company.id,
        [
          { phone: '+5511911112222', name: 'Bia' },
          { phone: '+5511987654321', name: 'New name' },
          { phone: '+5511911112222', name: 'Duplicate' },
          { phone: '+5521933334444', name: null },
        ],
        ids,
        t0,
      );
      expect(result.map((c) => [c.phone, c.name, c.created])).toEqual([
        ['+5511911112222', 'Bia', true],
        ['+551187654321', 'Old name', false],
        ['+5511911112222', 'Bia', true],
        ['+5521933334444', null, true],
      ]);
      expect(result[0]!.id).toBe(result[2]!.id);
      expect(result[1]!.id).toBe(existing.id);
      const again = await repos.contacts.ensureMany(company.id, [{ phone: '+5521933334444', name: 'Late' }], ids, t0);
      expect(again[0]).toMatchObject({ id: result[3]!.id, name: null, created: false });
      expect(await repos.contacts.ensureMany(company.id, [], ids, t0)).toEqual([]);
    });

    it('keeps names with quotes, backslashes, commas and braces intact', async () => {
      const { repos, ids, company } = await fresh();
      const names = ['Ana "Bia", \\ {Cia}', 'NULL', '  spaced  '];
      const result = await repos.contacts.ensureMany(
        company.id,
        names.map((name, i) => ({ phone: `+55219${String(88_000_000 + i)}`, name })),
        ids,
        t0,
      );
      expect(result.map((c) => c.name)).toEqual(['Ana "Bia", \\ {Cia}', 'NULL', 'spaced']);
      expect((await repos.contacts.findById(company.id, result[0]!.id))?.name).toBe('Ana "Bia", \\ {Cia}');
      expect(result[0]!.createdAt).toEqual(t0);
    });

    if (options.bulk) {
      const { size, statements, maxStatements } = options.bulk;
      it(`ensures ${size} contacts in bulk`, async () => {
        const { repos, ids, company } = await fresh();
        const entries = Array.from({ length: size }, (_, i) => ({ phone: `+55119${(70_000_000 + i).toString()}`, name: `R${i}` }));
        // Half already exist: the mixed case of a real campaign.
        await repos.contacts.ensureMany(company.id, entries.slice(0, size / 2), ids, t0);
        const before = statements?.() ?? 0;
        const result = await repos.contacts.ensureMany(company.id, entries, ids, t0);
        const sent = (statements?.() ?? 0) - before;
        expect(result).toHaveLength(size);
        expect(result.filter((c) => c.created)).toHaveLength(size / 2);
        expect(new Set(result.map((c) => c.id)).size).toBe(size);
        if (statements) expect(sent).toBeLessThanOrEqual(maxStatements ?? 2);
      });
    }

    it('keeps one affinity per contact and box, oldest first', async () => {
      const { repos, ids, company, setor } = await fresh();
      const contact = createContact(ids.newId(), company.id, '+5511987654321', null, t0);
      await repos.contacts.insert(contact);
      const second = createSetor(ids.newId(), company.id, t0, { nome: 'Suporte' });
      await repos.setores.insert(second);
      const affinity = { companyId: company.id, contactId: contact.id, setorId: setor.id, source: 'first_contact' as const, createdAt: t0 };
      expect(await repos.contactAffinities.add(affinity)).toBe(true);
      expect(await repos.contactAffinities.add({ ...affinity, createdAt: new Date(t0.getTime() + 5) })).toBe(false);
      expect(await repos.contactAffinities.add({ ...affinity, setorId: second.id, createdAt: new Date(t0.getTime() + 10) })).toBe(true);
      const list = await repos.contactAffinities.listByContact(company.id, contact.id);
      expect(list.map((a) => a.setorId)).toEqual([setor.id, second.id]);
      expect(list[0]).toEqual(affinity);
    });

    it('links tags to contacts idempotently and scopes tags by company', async () => {
      const { repos, ids, company, other } = await fresh();
      const contact = createContact(ids.newId(), company.id, '+5511987654321', null, t0);
      await repos.contacts.insert(contact);
      const vip = { id: ids.newId(), companyId: company.id, name: 'vip', description: null, color: null, createdAt: t0, updatedAt: t0 };
      const lead = { id: ids.newId(), companyId: company.id, name: 'lead', description: null, color: null, createdAt: t0, updatedAt: t0 };
      const foreign = { id: ids.newId(), companyId: other.id, name: 'vip', description: null, color: null, createdAt: t0, updatedAt: t0 };
      for (const tag of [vip, lead, foreign]) await repos.tags.insert(tag);
      const found = await repos.tags.findManyByIds(company.id, [vip.id, foreign.id, 'nope']);
      expect(found).toEqual([vip]);
      expect(await repos.tags.tagContact(contact.id, [vip.id, vip.id], t0)).toEqual([vip.id]);
      expect(await repos.tags.tagContact(contact.id, [vip.id, lead.id], t0)).toEqual([lead.id]);
      expect((await repos.tags.tagIdsOfContact(contact.id)).sort()).toEqual([vip.id, lead.id].sort());
      // Several contacts in one write (an inbound group), a link already there kept.
      const second = createContact(ids.newId(), company.id, '+5511987654329', null, t0);
      await repos.contacts.insert(second);
      await repos.tags.linkContactTags([{ contactId: second.id, tagId: vip.id }, { contactId: second.id, tagId: lead.id }, { contactId: contact.id, tagId: vip.id }], t0);
      await repos.tags.linkContactTags([], t0);
      expect((await repos.tags.tagIdsOfContact(second.id)).sort()).toEqual([vip.id, lead.id].sort());
      expect((await repos.tags.tagIdsOfContact(contact.id)).sort()).toEqual([vip.id, lead.id].sort());
    });

    it('advances rotation cursors from 0, one per key', async () => {
      const { repos, ids } = await fresh();
      const key = `test:${ids.newId()}`;
      expect(await repos.rotationCursors.advance(key, t0)).toBe(0);
      expect(await repos.rotationCursors.advance(key, t0)).toBe(1);
      expect(await repos.rotationCursors.advance(`${key}:other`, t0)).toBe(0);
      expect(await repos.rotationCursors.advance(key, t0)).toBe(2);
    });
  });
}
