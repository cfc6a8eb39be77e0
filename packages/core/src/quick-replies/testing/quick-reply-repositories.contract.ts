import { describe, expect, it } from '@jest/globals';
import { createSetor } from '../../setores/index.js';
import { contractCases } from '../../companies/testing/index.js';
import type { RepositoriesUnderTest } from '../../shared/testing/index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { QuickReplyRepositories } from '../index.js';
import type { SetorRepositories } from '../../setores/index.js';
import { createQuickReply, type QuickReplyInput } from '../index.js';

/** The areas this suite reads and writes. */
type Areas = CompanyRepositories & QuickReplyRepositories & SetorRepositories;

const t0 = new Date('2026-03-01T12:00:00.000Z');


/** Quick replies: shortcuts unique per company and scope (company-wide or one box), filters, delete. */
export function describeQuickReplyRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`quick reply repositories contract: ${name}`, () => {
    const tenants = contractCases('a5', setup);
    const fresh = async () => {
      const { ids, company, other, ...sut } = await tenants();
      const box = createSetor(ids.newId(), company.id, t0, { nome: 'Caixa' });
      const box2 = createSetor(ids.newId(), company.id, t0, { nome: 'Caixa 2' });
      await sut.repos.setores.insert(box);
      await sut.repos.setores.insert(box2);
      const reply = (companyId: string, input: QuickReplyInput & { shortcut: string }) =>
        createQuickReply(ids.newId(), companyId, t0, { title: input.shortcut, text: `Olá {{primeiro_nome}}, ${input.shortcut}`, ...input });
      return { ...sut, ids, company, other, box, box2, reply };
    };

    it('keeps shortcuts unique per scope and reads replies with their placeholders', async () => {
      const { repos, company, other, box, reply } = await fresh();
      const hello = reply(company.id, { shortcut: 'oi' });
      expect(await repos.quickReplies.insertUnique(hello)).toBeNull();
      expect(await repos.quickReplies.insertUnique(reply(company.id, { shortcut: 'oi' }))).toEqual(hello);
      const boxHello = reply(company.id, { shortcut: 'oi', setorId: box.id });
      expect(await repos.quickReplies.insertUnique(boxHello)).toBeNull();
      expect(await repos.quickReplies.insertUnique(reply(company.id, { shortcut: 'oi', setorId: box.id }))).toEqual(boxHello);
      expect(await repos.quickReplies.insertUnique(reply(other.id, { shortcut: 'oi' }))).toBeNull();
      expect(await repos.quickReplies.findById(company.id, hello.id)).toEqual(hello);
      expect(hello.placeholders).toEqual(['primeiro_nome']);
      expect(await repos.quickReplies.findById(other.id, hello.id)).toBeNull();
      expect(await repos.quickReplies.companyOf(hello.id)).toBe(company.id);
      expect(await repos.quickReplies.count(company.id)).toBe(2);
    });

    it('updates a reply unless its new shortcut is taken in its scope', async () => {
      const { repos, company, box, reply } = await fresh();
      const a = reply(company.id, { shortcut: 'a' });
      const b = reply(company.id, { shortcut: 'b' });
      await repos.quickReplies.insertUnique(a);
      await repos.quickReplies.insertUnique(b);
      expect(await repos.quickReplies.update({ ...b, shortcut: 'a' })).toEqual(a);
      const moved = { ...b, shortcut: 'a', setorId: box.id, text: null, mediaUrl: 'https://cdn.example.com/x.png', mediaType: 'image' as const, placeholders: [] };
      expect(await repos.quickReplies.update(moved)).toBeNull();
      expect(await repos.quickReplies.findById(company.id, b.id)).toEqual(moved);
    });

    it('lists company-wide replies with a box’s, by shortcut, matching q in shortcut, title or text', async () => {
      const { repos, company, other, box, box2, reply } = await fresh();
      const wide = reply(company.id, { shortcut: 'preco', title: 'Tabela de preços' });
      const inBox = reply(company.id, { shortcut: 'endereco', setorId: box.id, text: 'Rua 100% Central' });
      const inBox2 = reply(company.id, { shortcut: 'horario', setorId: box2.id });
      for (const r of [wide, inBox, inBox2, reply(other.id, { shortcut: 'preco' })]) await repos.quickReplies.insertUnique(r);
      const shortcuts = async (filters: Parameters<typeof repos.quickReplies.list>[1]) =>
        (await repos.quickReplies.list(company.id, filters, { page: 1, limit: 10 })).items.map((r) => r.shortcut);
      expect(await shortcuts({})).toEqual(['endereco', 'horario', 'preco']);
      expect(await shortcuts({ setorId: box.id })).toEqual(['endereco', 'preco']);
      expect(await shortcuts({ q: 'TABELA' })).toEqual(['preco']);
      expect(await shortcuts({ q: '100%' })).toEqual(['endereco']);
      expect(await shortcuts({ q: 'r_o' })).toEqual([]); // unescaped, `_` would match "horario"
      const page = await repos.quickReplies.list(company.id, {}, { page: 2, limit: 2 });
      expect(page.items.map((r) => r.shortcut)).toEqual(['preco']);
      expect(page.total).toBe(3);
    });

    it('deletes a reply of its company only', async () => {
      const { repos, company, other, reply } = await fresh();
      const a = reply(company.id, { shortcut: 'a' });
      await repos.quickReplies.insertUnique(a);
      expect(await repos.quickReplies.delete(other.id, a.id)).toBe(false);
      expect(await repos.quickReplies.delete(company.id, a.id)).toBe(true);
      expect(await repos.quickReplies.findById(company.id, a.id)).toBeNull();
      expect(await repos.quickReplies.delete(company.id, a.id)).toBe(false);
    });
  });
}
