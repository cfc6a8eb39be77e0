import { describe, expect, it } from '@jest/globals';
import { MessagingWorld } from '../testing/messaging-world.js';
import { ReceiveInboundMessage } from '../messages/index.js';
import { withInboxSettings, type Setor } from '../setores/index.js';
import { createAgent } from '../agents/index.js';
import { transition } from '../shared/decider.js';
import { TicketInboundThreads } from './inbound-ticket.js';
import { ticketDecider } from './ticket.js';

const MINUTE = 60_000;

async function setup(inbox: Parameters<typeof withInboxSettings>[1] = {}) {
  const world = new MessagingWorld();
  const company = await world.company();
  let setor: Setor = await world.box(company);
  setor = withInboxSettings(setor, inbox, world.clock.now());
  await world.repos.setores.update(setor);
  const receive = new ReceiveInboundMessage(world.uow, world.clock, world.ids, [], new TicketInboundThreads(world.ids));
  const inbound = (text: string, extra: Record<string, unknown> = {}) => receive.execute({ setorId: setor.id, from: '+5511987650042', text, ...extra });
  const ticket = (id: string) => world.repos.tickets.findById(company.id, id);
  /** Moves a ticket through the decider and saves it (as the PATCH routes do). */
  const move = async (id: string, command: Record<string, unknown>) => {
    const current = (await ticket(id))!;
    const { state } = transition(ticketDecider, current, { at: world.clock.now(), ...command } as never);
    await world.repos.tickets.save({ ...state!, version: current.version + 1 }, current.version);
  };
  return { world, company, setor, receive, inbound, ticket, move };
}

describe('inbound messages and tickets', () => {
  it('the first message opens a ticket (open, number 1, box team, conversation.created once); the next ones join it', async () => {
    const team = { id: 'team-1' };
    const { world, inbound, ticket } = await setup({ defaultTeamId: team.id });
    const first = await inbound('Oi');
    expect(first.ticket).toMatchObject({ number: 1, status: 'open', created: true, reopened: false });
    const stored = await ticket(first.ticket!.id);
    expect(stored).toMatchObject({ status: 'open', teamId: 'team-1', source: 'inbound', waitingSince: world.clock.now(), lastMessage: { id: first.messageId, direction: 'inbound', preview: 'Oi' } });
    expect(world.events('conversation.created').map((e) => e.data)).toEqual([
      { conversationId: first.conversationId, contactId: first.contactId, setorId: first.setorId, ticketId: first.ticket!.id, number: 1, status: 'open', source: 'inbound' },
    ]);
    world.clock.advance(MINUTE);
    const second = await inbound('Tudo bem?');
    expect(second.ticket).toMatchObject({ id: first.ticket!.id, created: false, reopened: false });
    expect(world.events('conversation.created')).toHaveLength(1);
    const received = world.events('message.received');
    expect(received[1]!.data).toMatchObject({ ticketId: first.ticket!.id, ticketStatus: 'open', contentType: 'text', ratingReply: false, iaAtiva: true });
    const message = world.repos.messages as unknown as { all(): { direction?: string; status: string; ticketId?: string | null }[] };
    expect(message.all().map((m) => [m.direction, m.status, m.ticketId])).toEqual([
      ['inbound', 'received', first.ticket!.id],
      ['inbound', 'received', first.ticket!.id],
    ]);
  });

  it('a ticket opened for the box default team goes to a free member when the team auto-assigns (conversation.assigned, by auto)', async () => {
    const { world, company, setor, inbound } = await setup();
    const team = await world.team(company, [setor]);
    await world.repos.teams.update({ ...team, autoAssign: true });
    const agent = createAgent(world.ids.newId(), company.id, world.clock.now(), { name: 'Ana', email: 'ana@example.com', status: 'available' });
    await world.repos.agents.insertUnique(agent);
    await world.repos.agents.setTeamMembers(company.id, team.id, [agent.id], world.clock.now());
    await world.repos.setores.update(withInboxSettings(setor, { defaultTeamId: team.id }, world.clock.now()));
    const first = await inbound('Oi');
    expect(await world.repos.tickets.findById(company.id, first.ticket!.id)).toMatchObject({ teamId: team.id, agentId: agent.id, status: 'open' });
    expect(world.uow.store.events.map((e) => e.event)).toEqual(['contact.created', 'conversation.created', 'conversation.assigned', 'message.received']);
    expect(world.events('conversation.assigned')[0]!.data).toMatchObject({ ticketId: first.ticket!.id, agentId: agent.id, teamId: team.id, by: 'auto' });
  });

  it('a new ticket is pending when the box has the assistant and the contact AI is on', async () => {
    const { inbound } = await setup({ assistantEnabled: true });
    expect((await inbound('Oi')).ticket).toMatchObject({ status: 'pending', created: true });
  });

  it('a snoozed ticket opens when the contact writes (conversation.status_changed)', async () => {
    const { world, inbound, move, ticket } = await setup();
    const first = await inbound('Oi');
    await move(first.ticket!.id, { type: 'changeStatus', to: 'snoozed', snoozedUntil: new Date(world.clock.now().getTime() + 60 * MINUTE) });
    world.clock.advance(MINUTE);
    const again = await inbound('Alô?');
    expect(again.ticket).toMatchObject({ id: first.ticket!.id, status: 'open', created: false });
    expect((await ticket(first.ticket!.id))!.snoozedUntil).toBeNull();
    expect(world.events('conversation.status_changed').map((e) => e.data)).toEqual([
      expect.objectContaining({ ticketId: first.ticket!.id, from: 'snoozed', to: 'open', reason: 'contact_wrote' }),
    ]);
  });

  it('a closed ticket reopens within the reopen window with its assignee; after it a new ticket opens', async () => {
    const { world, inbound, move, ticket } = await setup({ reopenWindowMinutes: 30 });
    const first = await inbound('Oi');
    await move(first.ticket!.id, { type: 'assign', agentId: 'agent-1', by: 'api' });
    await move(first.ticket!.id, { type: 'changeStatus', to: 'closed' });
    world.clock.advance(30 * MINUTE);
    const reopened = await inbound('Esqueci uma coisa');
    expect(reopened.ticket).toMatchObject({ id: first.ticket!.id, status: 'open', reopened: true, created: false });
    expect(await ticket(first.ticket!.id)).toMatchObject({ status: 'open', agentId: 'agent-1', closedAt: null });
    await move(first.ticket!.id, { type: 'changeStatus', to: 'closed' });
    world.clock.advance(30 * MINUTE + 1);
    const fresh = await inbound('Outra dúvida');
    expect(fresh.ticket).toMatchObject({ number: 2, created: true, status: 'open' });
    expect(fresh.ticket!.id).not.toBe(first.ticket!.id);
  });

  it('a reopen window of 0 never reopens', async () => {
    const { world, inbound, move } = await setup({ reopenWindowMinutes: 0 });
    const first = await inbound('Oi');
    await move(first.ticket!.id, { type: 'changeStatus', to: 'closed' });
    world.clock.advance(1000);
    expect((await inbound('Oi de novo')).ticket).toMatchObject({ number: 2, created: true });
  });

  it('a repeated provider message id is dropped: one message, one set of events', async () => {
    const { world, inbound } = await setup();
    const first = await inbound('Oi', { providerMessageId: 'wamid.1', name: 'Maria' });
    const count = world.uow.store.events.length;
    const again = await inbound('Oi', { providerMessageId: 'wamid.1', name: 'Maria' });
    expect(again).toMatchObject({ duplicate: true, messageId: first.messageId, ticket: null });
    expect(world.uow.store.events).toHaveLength(count);
    expect(await world.repos.contacts.findById(first.companyId, first.contactId)).toMatchObject({ name: 'Maria' });
  });

  it('the push name fills an empty name only; media and options are stored as their content', async () => {
    const { world, inbound } = await setup();
    const first = await inbound('Oi');
    expect((await world.repos.contacts.findById(first.companyId, first.contactId))!.name).toBeNull();
    await inbound('', { text: null, name: 'Ana', mediaUrl: 'https://cdn.example.com/a.jpg', mediaType: 'image' });
    await inbound('Sim', { name: 'Outra', optionId: 'confirmar' });
    expect((await world.repos.contacts.findById(first.companyId, first.contactId))!.name).toBe('Ana');
    const received = world.events('message.received').map((e) => e.data);
    expect(received[1]).toMatchObject({ contentType: 'image', mediaUrl: 'https://cdn.example.com/a.jpg', text: '', contactName: 'Ana' });
    expect(received[2]).toMatchObject({ contentType: 'option', optionId: 'confirmar', text: 'Sim' });
  });
});
