import { describe, expect, it } from '@jest/globals';
import { MessagingWorld } from '../testing/messaging-world.js';
import { ReceiveInboundMessage } from '../messages/index.js';
import { withInboxSettings, type Setor } from '../setores/index.js';
import { tagRuleFixture } from '../tags/testing/index.js';
import { transition } from '../shared/decider.js';
import { TicketInboundThreads } from './inbound-ticket.js';
import { parseRatingReply } from './rating-reply.js';
import { ticketDecider } from './ticket.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('parseRatingReply', () => {
  it('reads csat_N options and texts starting with a digit 1-5, the rest being the comment', () => {
    expect(parseRatingReply({ text: 'Excelente', optionId: 'csat_5' })).toEqual({ score: 5, comment: null });
    expect(parseRatingReply({ text: '4', optionId: null })).toEqual({ score: 4, comment: null });
    expect(parseRatingReply({ text: ' 3 - demorou um pouco', optionId: null })).toEqual({ score: 3, comment: 'demorou um pouco' });
    expect(parseRatingReply({ text: `1 ${'x'.repeat(600)}`, optionId: null })!.comment).toHaveLength(500);
  });

  it('anything else is no rating', () => {
    for (const text of ['10', '0', '6 estrelas', 'obrigado', 'nota 5', '']) expect(parseRatingReply({ text, optionId: null })).toBeNull();
    expect(parseRatingReply({ text: '5', optionId: 'confirmar' })).toBeNull();
    expect(parseRatingReply({ text: null, optionId: 'csat_6' })).toBeNull();
  });
});

async function setup(inbox: Parameters<typeof withInboxSettings>[1] = {}) {
  const world = new MessagingWorld();
  const company = await world.company();
  let setor: Setor = await world.box(company);
  setor = withInboxSettings(setor, { csatEnabled: true, reopenWindowMinutes: 30, ...inbox }, world.clock.now());
  await world.repos.setores.update(setor);
  const receive = new ReceiveInboundMessage(world.uow, world.clock, world.ids, [], new TicketInboundThreads(world.ids));
  const inbound = (text: string | null, extra: Record<string, unknown> = {}) => receive.execute({ setorId: setor.id, from: '+5511987650042', text, ...extra });
  const ticket = (id: string) => world.repos.tickets.findById(company.id, id);
  const move = async (id: string, command: Record<string, unknown>) => {
    const current = (await ticket(id))!;
    const { state } = transition(ticketDecider, current, { at: world.clock.now(), ...command } as never);
    await world.repos.tickets.save({ ...state!, version: current.version + 1 }, current.version);
  };
  /** A ticket with an agent, closed with its rating requested. */
  const closedAndRequested = async () => {
    const first = await inbound('Oi');
    await move(first.ticket!.id, { type: 'assign', agentId: 'agent-1', by: 'api' });
    await move(first.ticket!.id, { type: 'changeStatus', to: 'closed' });
    await move(first.ticket!.id, { type: 'requestRating' });
    return first.ticket!.id;
  };
  return { world, company, setor, inbound, ticket, move, closedAndRequested };
}

describe('rating replies', () => {
  it('an option reply within 24 h is the rating: stored on the closed ticket, nothing reopens, conversation.rated, thanks queued', async () => {
    const { world, inbound, ticket, closedAndRequested } = await setup({ csatThanks: 'Obrigado, {{primeiro_nome}}!' });
    const id = await closedAndRequested();
    world.clock.advance(5 * MINUTE);
    const reply = await inbound('Excelente', { optionId: 'csat_5' });
    expect(reply).toMatchObject({ ratingRecorded: true, ticket: { id, status: 'closed', created: false, reopened: false }, tagsAdded: [] });
    expect(await ticket(id)).toMatchObject({ status: 'closed', rating: { status: 'rated', score: 5, comment: null, source: 'reply', agentId: 'agent-1' } });
    expect(world.events('conversation.rated').map((e) => e.data)).toEqual([
      expect.objectContaining({ ticketId: id, score: 5, comment: null, agentId: 'agent-1', source: 'reply' }),
    ]);
    expect(world.events('message.received').at(-1)!.data).toMatchObject({ ratingReply: true, ticketId: id, ticketStatus: 'closed' });
    expect(world.uow.store.jobs.filter((j) => j.queue === 'ticket-send')).toHaveLength(1);
  });

  it('the same rating again is a no-op; another within 24 h replaces it (thanks once); a text with a digit is a rating with comment', async () => {
    const { world, inbound, ticket, closedAndRequested } = await setup({ csatThanks: 'Obrigado!' });
    const id = await closedAndRequested();
    await inbound('4');
    await inbound('4');
    expect(world.events('conversation.rated')).toHaveLength(1);
    world.clock.advance(HOUR);
    await inbound('2 - demorou');
    expect(await ticket(id)).toMatchObject({ status: 'closed', rating: { score: 2, comment: 'demorou' } });
    expect(world.events('conversation.rated')).toHaveLength(2);
    expect(world.uow.store.jobs.filter((j) => j.queue === 'ticket-send')).toHaveLength(1);
  });

  it('no thanks without csat_thanks; after 24 h or with an active ticket a digit is an ordinary message', async () => {
    const { world, inbound, closedAndRequested } = await setup({ reopenWindowMinutes: 0 });
    const id = await closedAndRequested();
    world.clock.advance(24 * HOUR + 1);
    const late = await inbound('5');
    expect(late).toMatchObject({ ratingRecorded: false, ticket: { created: true } });
    expect(late.ticket!.id).not.toBe(id);
    expect(world.events('conversation.rated')).toEqual([]);
    // The new ticket is active: a digit joins it.
    expect((await inbound('3')).ticket).toMatchObject({ id: late.ticket!.id, created: false });
    expect(world.uow.store.jobs.filter((j) => j.queue === 'ticket-send')).toEqual([]);
  });

  it('a reply that is no rating, within the reopen window, reopens the ticket', async () => {
    const { inbound, closedAndRequested } = await setup();
    const id = await closedAndRequested();
    expect(await inbound('obrigado')).toMatchObject({ ratingRecorded: false, ticket: { id, reopened: true, status: 'open' } });
  });

  it('rating replies run no tag rules', async () => {
    const { world, company, inbound, closedAndRequested } = await setup();
    await world.repos.tags.insert({ id: 'tag-1', companyId: company.id, name: 'Cinco', description: null, color: null, createdAt: world.clock.now(), updatedAt: world.clock.now() } as never);
    await world.repos.tagRules.insert(tagRuleFixture('rule-1', company.id, 'tag-1', world.clock.now(), { matchType: 'starts_with', matchValue: '5' }));
    await closedAndRequested();
    expect(await inbound('5')).toMatchObject({ ratingRecorded: true, tagsAdded: [] });
    expect(world.events('contact.tagged')).toEqual([]);
    // The rule itself works: an ordinary message starting with 5 ("55" is no rating) is tagged.
    expect(await inbound('55 99999-0000')).toMatchObject({ ratingRecorded: false, tagsAdded: ['tag-1'] });
  });
});
