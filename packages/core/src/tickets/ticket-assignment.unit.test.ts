import { describe, expect, it } from '@jest/globals';
import { createAgent } from '../agents/index.js';
import { createCompany } from '../companies/index.js';
import { createContact } from '../contacts/index.js';
import { newConversation } from '../messages/index.js';
import { createSetor } from '../setores/index.js';
import { createTeam } from '../teams/index.js';
import { SequentialIds } from '../shared/testing/deterministic.js';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { ManageTickets } from './manage-tickets.js';
import { OpenTicket } from './open-ticket.js';
import { TicketAssignmentOnAgentChange } from './ticket-assignment.js';
import { WakeSnoozedTickets } from './wake-snoozed-tickets.js';

const MIN = 60_000;

async function world(options: { maxOpenPerAgent?: number } = {}) {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const ids = new SequentialIds();
  const uow = new InMemoryUnitOfWork();
  const repos = uow.repos;
  const company = createCompany(ids.newId(), clock.now(), { name: 'Acme' });
  await repos.companies.insert(company);
  const setor = createSetor(ids.newId(), company.id, clock.now(), { nome: 'Vendas' });
  await repos.setores.insert(setor);
  const team = createTeam(ids.newId(), company.id, clock.now(), { nome: 'Time', autoAssign: true, maxOpenPerAgent: options.maxOpenPerAgent ?? 10 });
  await repos.teams.insert(team);
  const agent = async (name: string, extra: { status?: 'available' | 'offline'; lastAssignedAt?: Date | null } = {}) => {
    const created = { ...createAgent(ids.newId(), company.id, clock.now(), { name, email: `${name}@example.com`, status: extra.status ?? 'available', teamIds: [team.id] }), lastAssignedAt: extra.lastAssignedAt ?? null };
    await repos.agents.insertUnique(created);
    if (created.lastAssignedAt) await repos.agents.touchAssigned(created.id, created.lastAssignedAt);
    return created;
  };
  const assignment = new TicketAssignmentOnAgentChange(uow, repos, ids, clock);
  const manage = new ManageTickets(uow, ids, clock, null, assignment);
  const opener = new OpenTicket(uow, ids, clock);
  let n = 0;
  /** An open ticket of a new contact, given to the team alone. */
  const toTeam = async () => {
    n += 1;
    const contact = createContact(ids.newId(), company.id, `+55119876500${n.toString().padStart(2, '0')}`, `C${n}`, clock.now());
    await repos.contacts.insert(contact);
    await repos.conversations.findOrCreate(newConversation(ids.newId(), company.id, setor.id, contact.id, clock.now()));
    const { ticketId } = await opener.execute(company.id, { clientId: contact.id, teamId: team.id });
    clock.advance(MIN);
    return (await repos.tickets.findById(company.id, ticketId))!;
  };
  return { clock, ids, uow, repos, company, team, agent, assignment, manage, toTeam };
}

describe('auto-assignment', () => {
  it('gives a team-only ticket to the available member with the fewest open tickets, ties to the least recently assigned', async () => {
    const w = await world();
    const early = new Date('2026-02-01T00:00:00.000Z');
    const late = new Date('2026-02-20T00:00:00.000Z');
    const recent = await w.agent('recent', { lastAssignedAt: late });
    const longAgo = await w.agent('longago', { lastAssignedAt: early });
    await w.agent('offline', { status: 'offline' });
    // Equal loads: the one assigned longest ago first; then the other, who now has fewer.
    expect((await w.toTeam()).agentId).toBe(longAgo.id);
    expect((await w.toTeam()).agentId).toBe(recent.id);
    expect((await w.toTeam()).agentId).toBe(longAgo.id);
    const events = w.uow.store.events.filter((e) => e.event === 'conversation.assigned');
    expect(events.map((e) => [e.data.by, e.data.agentId])).toEqual([
      ['auto', longAgo.id],
      ['auto', recent.id],
      ['auto', longAgo.id],
    ]);
  });

  it('leaves tickets queued at the cap and hands them to a member who becomes available, oldest first', async () => {
    const w = await world({ maxOpenPerAgent: 1 });
    const ana = await w.agent('ana');
    const bia = await w.agent('bia', { status: 'offline' });
    expect((await w.toTeam()).agentId).toBe(ana.id);
    const waiting = await w.toTeam();
    const later = await w.toTeam();
    expect([waiting.agentId, later.agentId]).toEqual([null, null]);
    await w.repos.agents.update({ ...bia, status: 'available' });
    await w.assignment.onAgentChanged(w.company.id, bia.id);
    expect((await w.repos.tickets.findById(w.company.id, waiting.id))?.agentId).toBe(bia.id);
    expect((await w.repos.tickets.findById(w.company.id, later.id))?.agentId).toBeNull();
    // Ana closes hers: the room goes to the next queued ticket.
    const anaTicket = (await w.repos.tickets.listActiveOfAgent(w.company.id, ana.id))[0]!;
    await w.manage.changeStatus({ companyId: w.company.id }, anaTicket.id, { status: 'closed' });
    expect((await w.repos.tickets.findById(w.company.id, later.id))?.agentId).toBe(ana.id);
  });

  it("puts a deactivated agent's tickets back in the queue (to another member when one is free)", async () => {
    const w = await world({ maxOpenPerAgent: 1 });
    const ana = await w.agent('ana');
    const held = await w.toTeam();
    expect(held.agentId).toBe(ana.id);
    await w.repos.agents.update({ ...ana, active: false });
    await w.assignment.onAgentChanged(w.company.id, ana.id);
    const back = (await w.repos.tickets.findById(w.company.id, held.id))!;
    expect([back.agentId, back.teamId, back.status]).toEqual([null, w.team.id, 'open']);
    const queue = await w.repos.tickets.queue(w.company.id, { teamId: w.team.id }, null, 10);
    expect(queue.items.map((t) => t.id)).toEqual([held.id]);
  });
});

describe('snooze wake-up', () => {
  it('wakes due snoozes in the sweep, not earlier ones nor those snoozed until the contact writes', async () => {
    const w = await world();
    const a = await w.toTeam();
    const b = await w.toTeam();
    const c = await w.toTeam();
    const ctx = { companyId: w.company.id };
    const now = w.clock.now().getTime();
    await w.manage.changeStatus(ctx, a.id, { status: 'snoozed', snoozedUntil: new Date(now + 2 * MIN) });
    await w.manage.changeStatus(ctx, b.id, { status: 'snoozed', snoozedUntil: new Date(now + 10 * MIN) });
    await w.manage.changeStatus(ctx, c.id, { status: 'snoozed' });
    // Each timed snooze queued its own wake-up for its time.
    expect(w.uow.store.jobs.filter((j) => j.queue === 'tickets.wake-snoozed').map((j) => [j.data.ticketId, j.startAfter])).toEqual([
      [a.id, new Date(now + 2 * MIN)],
      [b.id, new Date(now + 10 * MIN)],
    ]);
    const wake = new WakeSnoozedTickets(w.uow, w.repos, w.ids, w.clock);
    w.clock.advance(2 * MIN);
    expect(await wake.sweep()).toBe(1);
    expect(await wake.wake(w.company.id, b.id)).toBe(false);
    const status = async (id: string) => (await w.repos.tickets.findById(w.company.id, id))?.status;
    expect([await status(a.id), await status(b.id), await status(c.id)]).toEqual(['open', 'snoozed', 'snoozed']);
    expect(await wake.sweep()).toBe(0);
  });
});
