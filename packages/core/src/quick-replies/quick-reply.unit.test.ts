import { describe, expect, it } from '@jest/globals';
import { createCompany } from '../companies/index.js';
import { createSetor } from '../setores/index.js';
import { ValidationError } from '../shared/errors.js';
import { SequentialIds } from '../shared/testing/deterministic.js';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { ManageQuickReplies } from './manage-quick-replies.js';
import { MAX_QUICK_REPLIES, applyQuickReplyInput, checkPlaceholders, createQuickReply, placeholdersOf } from './quick-reply.js';
import { renderPlaceholders, renderQuickReply } from './render-quick-reply.js';

const t0 = new Date('2026-03-01T12:00:00.000Z');
const make = (input: Parameters<typeof createQuickReply>[3]) => createQuickReply('q1', 'c1', t0, input);
const refused = (work: () => unknown, field: string) => {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details?.field).toBe(field);
    return;
  }
  throw new Error(`expected a ValidationError on ${field}`);
};

describe('quick reply rules', () => {
  it('lists the placeholders a text uses, in order of first use, spaces inside the braces allowed', () => {
    expect(placeholdersOf('Oi {{ primeiro_nome }}, {{atendente}} aqui; {{primeiro_nome}} protocolo {{protocolo}}')).toEqual(['primeiro_nome', 'atendente', 'protocolo']);
    expect(placeholdersOf(null)).toEqual([]);
    expect(checkPlaceholders('{{nome}} {{primeiro_nome}} {{protocolo}} {{atendente}}', 'text')).toEqual(['nome', 'primeiro_nome', 'protocolo', 'atendente']);
  });

  it('refuses unknown placeholders, naming them', () => {
    try {
      checkPlaceholders('Oi {{cliente}} e {{Nome}}', 'closing_message');
      throw new Error('not refused');
    } catch (error) {
      expect((error as ValidationError).details).toMatchObject({ field: 'closing_message', placeholders: ['cliente', 'Nome'] });
    }
  });

  it('checks shortcut, title, text length, media pairs and that there is something to send', () => {
    expect(make({ shortcut: 'oi_1-a', title: 'Oi', text: 'Olá {{nome}}' })).toMatchObject({ setorId: null, placeholders: ['nome'], mediaUrl: null });
    refused(() => make({ shortcut: 'Oi', title: 'x', text: 'x' }), 'shortcut');
    refused(() => make({ shortcut: 'a'.repeat(33), title: 'x', text: 'x' }), 'shortcut');
    refused(() => make({ shortcut: '', title: 'x', text: 'x' }), 'shortcut');
    expect(make({ shortcut: 'a'.repeat(32), title: 'x', text: 'x'.repeat(4096) }).text).toHaveLength(4096);
    refused(() => make({ shortcut: 'a', title: 'x', text: 'x'.repeat(4097) }), 'text');
    refused(() => make({ shortcut: 'a', title: ' ', text: 'x' }), 'title');
    refused(() => make({ shortcut: 'a', title: 'x' }), 'text');
    refused(() => make({ shortcut: 'a', title: 'x', mediaUrl: 'https://cdn.example.com/a.png' }), 'media_type');
    refused(() => make({ shortcut: 'a', title: 'x', mediaType: 'image', text: 'x' }), 'media_url');
    refused(() => make({ shortcut: 'a', title: 'x', mediaUrl: 'http://cdn.example.com/a.png', mediaType: 'image' }), 'media_url');
    refused(() => make({ shortcut: 'a', title: 'x', mediaUrl: 'https://cdn.example.com/a.png', mediaType: 'sticker' }), 'media_type');
    expect(make({ shortcut: 'a', title: 'x', mediaUrl: 'https://cdn.example.com/a.png', mediaType: 'image' })).toMatchObject({ text: null, mediaType: 'image' });
  });

  it('an edit keeps omitted fields and recomputes placeholders; null text needs media', () => {
    const reply = make({ shortcut: 'a', title: 'x', text: 'Oi {{nome}}', mediaUrl: 'https://cdn.example.com/a.png', mediaType: 'image' });
    const later = new Date(t0.getTime() + 1000);
    expect(applyQuickReplyInput(reply, { text: 'Tchau {{atendente}}' }, later)).toMatchObject({ text: 'Tchau {{atendente}}', placeholders: ['atendente'], mediaType: 'image', updatedAt: later });
    expect(applyQuickReplyInput(reply, { text: null }, later)).toMatchObject({ text: null, placeholders: [] });
    refused(() => applyQuickReplyInput(reply, { text: null, mediaUrl: null, mediaType: null }, later), 'text');
  });
});

describe('renderQuickReply', () => {
  it('fills name, first name, protocol and agent', () => {
    const reply = make({ shortcut: 'a', title: 'x', text: 'Olá {{primeiro_nome}} ({{nome}}), sou {{ atendente }}. Protocolo {{protocolo}}.' });
    expect(renderQuickReply(reply, { contactName: '  Maria da Silva ', protocol: 1042, agentName: 'Ana' })).toEqual({
      text: 'Olá Maria (Maria da Silva), sou Ana. Protocolo 1042.',
      mediaUrl: null,
      mediaType: null,
    });
  });

  it('leaves missing values empty and keeps media', () => {
    const reply = make({ shortcut: 'a', title: 'x', text: 'Oi {{primeiro_nome}}!', mediaUrl: 'https://cdn.example.com/a.png', mediaType: 'image' });
    expect(renderQuickReply(reply, {})).toEqual({ text: 'Oi !', mediaUrl: 'https://cdn.example.com/a.png', mediaType: 'image' });
    expect(renderQuickReply({ text: null, mediaUrl: 'https://cdn.example.com/a.png', mediaType: 'image' }, {}).text).toBeNull();
  });

  it('does not touch text without placeholders, nor unknown ones', () => {
    expect(renderPlaceholders('Preço: {{valor}} e {nome}', { contactName: 'Ana' })).toBe('Preço: {{valor}} e {nome}');
    expect(renderPlaceholders('{{protocolo}}', { protocol: '7' })).toBe('7');
  });
});

describe('ManageQuickReplies', () => {
  const setup = async () => {
    const uow = new InMemoryUnitOfWork();
    const clock = new ManualClock(t0);
    const ids = new SequentialIds();
    const company = createCompany('10000000-0000-4000-8000-000000000001', t0, { name: 'Acme' });
    const other = createCompany('10000000-0000-4000-8000-000000000002', t0, { name: 'Other' });
    await uow.repos.companies.insert(company);
    await uow.repos.companies.insert(other);
    const box = createSetor('20000000-0000-4000-8000-000000000001', company.id, t0, { nome: 'Caixa' });
    const foreignBox = createSetor('20000000-0000-4000-8000-000000000002', other.id, t0, { nome: 'Alheia' });
    await uow.repos.setores.insert(box);
    await uow.repos.setores.insert(foreignBox);
    return { uow, company, box, foreignBox, manage: new ManageQuickReplies(uow, uow.repos, ids, clock) };
  };

  it('refuses a duplicate shortcut in its scope (409 with the holder) and another company’s box', async () => {
    const { company, box, foreignBox, manage } = await setup();
    const first = await manage.create(company.id, { shortcut: 'oi', title: 'Oi', text: 'Oi' });
    await expect(manage.create(company.id, { shortcut: 'oi', title: 'Oi', text: 'x' })).rejects.toMatchObject({ code: 'CONFLICT', details: { quick_reply_id: first.id } });
    await expect(manage.create(company.id, { shortcut: 'oi', title: 'Oi', text: 'x', setorId: box.id })).resolves.toMatchObject({ setorId: box.id });
    await expect(manage.create(company.id, { shortcut: 'x', title: 'X', text: 'x', setorId: foreignBox.id })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'setor_id' } });
    await expect(manage.update(first.id, { setorId: box.id })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(manage.create('10000000-0000-4000-8000-000000000009', { shortcut: 'x', title: 'X', text: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it(`keeps a company at ${MAX_QUICK_REPLIES} quick replies (422 UNPROCESSABLE), and a delete frees a slot`, async () => {
    const { uow, company, manage } = await setup();
    // The store directly for all but the last (each use-case transaction snapshots the whole store).
    for (let i = 0; i < MAX_QUICK_REPLIES - 1; i += 1) await uow.repos.quickReplies.insertUnique(createQuickReply(`q${i}`, company.id, t0, { shortcut: `r${i}`, title: 'R', text: 'x' }));
    const last = (await manage.create(company.id, { shortcut: 'last', title: 'R', text: 'x' })).id;
    await expect(manage.create(company.id, { shortcut: 'one-more', title: 'R', text: 'x' })).rejects.toMatchObject({ code: 'UNPROCESSABLE', details: { limit: MAX_QUICK_REPLIES } });
    await manage.delete(last);
    await expect(manage.create(company.id, { shortcut: 'one-more', title: 'R', text: 'x' })).resolves.toMatchObject({ shortcut: 'one-more' });
    await expect(manage.delete(last)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
