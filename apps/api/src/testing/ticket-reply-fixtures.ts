import request from 'supertest';
import { DEFAULT_SETOR_INBOX_SETTINGS, UnitOfWork, createAgent, newTicket, type SetorInboxSettings, type Scope } from '@carteiro/core';
import type { ServiceUnitOfWork } from '@carteiro/postgres';
import type { TestApi } from './test-api.js';

let phoneCounter = 0;
/** A fresh recipient number (never ending in the simulator's failing 0001-0005). */
export const nextPhone = () => `+55119${String(61000000 + (phoneCounter += 1) * 10 + 6).padStart(8, '0')}`;

/** A company with a connected QR box (its inbox settings as given), an agent, a live key and a contact with an open ticket. */
export async function ticketTenant(
  api: TestApi,
  options: { company?: Record<string, unknown>; inbox?: Partial<SetorInboxSettings>; scopes?: (Scope | '*')[]; mode?: 'live' | 'test' } = {},
) {
  const company = await api.createCompany({ safe_hours: { start: 0, end: 24 }, ...options.company });
  const setor = await api.createSetor(company.id, { nome: 'Atendimento' });
  await api.connectSetor(company.id, setor.id);
  const key = await api.createKey(company.id, { scopes: options.scopes ?? ['*'], mode: options.mode ?? 'live', rpm: 100_000 });
  const auth = { Authorization: `Bearer ${key}` };
  const uow = api.container.get<ServiceUnitOfWork>(UnitOfWork);
  const agent = createAgent(crypto.randomUUID(), company.id, new Date(), { name: 'Carla Souza', email: `carla.${crypto.randomUUID()}@example.com` });
  await uow.transaction(async (repos) => {
    const stored = (await repos.setores.findById(setor.id))!;
    await repos.setores.update({ ...stored, inbox: { ...DEFAULT_SETOR_INBOX_SETTINGS, ...options.inbox } });
    await repos.agents.insertUnique(agent);
  });
  const openTicket = async (name = 'Ana Maria') => {
    const phone = nextPhone();
    // A first contact gives the contact its conversation on the box (a ticket needs one).
    const sent = await request(api.app).post('/v1/messages/first-contact').set(auth).send({ phone, name, message: 'Olá!', setor_id: setor.id });
    if (sent.status !== 201) throw new Error(`first-contact: ${sent.status} ${JSON.stringify(sent.body)}`);
    return uow.transaction(async (repos) => {
      const at = new Date();
      const ticket = newTicket(
        {
          id: crypto.randomUUID(),
          companyId: company.id,
          number: await repos.tickets.nextNumber(company.id),
          status: 'open',
          setorId: setor.id,
          contactId: sent.body.data.client_id,
          conversationId: sent.body.data.conversation_id,
          source: 'api',
          agentId: agent.id,
        },
        at,
      );
      await repos.tickets.insert(ticket);
      return { ticket, phone, contactId: sent.body.data.client_id as string };
    });
  };
  return { company, setor, agent, key, auth, uow, openTicket };
}
