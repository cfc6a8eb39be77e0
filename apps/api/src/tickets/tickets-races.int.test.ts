import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Repositories, createContact, newConversation } from '@carteiro/core';
import { withoutTestFailures } from '../testing/no-test-failures.js';
import type { ServiceRepositories } from '@carteiro/postgres';
import { sql } from 'kysely';
import request from 'supertest';
import { concurrently, countOf, expectOneIdempotentEffect, sortedStatuses, unthrottledTenant } from '../testing/races.js';
import { createTestApi, type TestApi } from '../testing/test-api.js';

/**
 * Concurrent ticket writes (conversations.md: one active ticket per box and contact, `If-Match`, silent no-ops,
 * idempotency keys): every race is decided in PostgreSQL, one effect, the documented answers for the others, no 500.
 */
let api: TestApi;
let repos: ServiceRepositories;
/** Never under the simulator's 5 % test-key failure rate (a reply failing at the channel is not the race under test). */
beforeAll(async () => {
  api = await createTestApi({ overrides: withoutTestFailures() });
  repos = api.container.get<ServiceRepositories>(Repositories);
});
afterAll(() => api.close());

let phoneSeq = 0;
const nextPhone = () => `+55119${(60000000 + (++phoneSeq * 7919) % 10000000).toString().padStart(8, '0')}`;

async function tenant() {
  const t = await unthrottledTenant(api);
  /** A contact with a conversation on the tenant's box (as a first-contact send or an inbound message leaves it). */
  const contact = async () => {
    const now = new Date();
    const c = createContact(randomUUID(), t.company.id, nextPhone(), 'Ana', now);
    await repos.contacts.insert(c);
    const conv = await repos.conversations.findOrCreate(newConversation(randomUUID(), t.company.id, t.setor.id, c.id, now));
    await repos.conversations.touch(conv.id, 'inbound', now);
    return c;
  };
  const open = async () => {
    const c = await contact();
    const res = await request(api.app).post('/v1/tickets').set(t.auth).send({ client_id: c.id });
    expect(res.status).toBe(201);
    return { contact: c, ticket: res.body.data as { id: string; version: number } };
  };
  return { ...t, contact, open };
}

describe('tickets under concurrent writes', () => {
  it('fifteen opens for one contact and box: one 201, fourteen 409 TICKET_ACTIVE naming it, one active ticket', async () => {
    const t = await tenant();
    const c = await t.contact();
    const answers = await concurrently(15, () => request(api.app).post('/v1/tickets').set(t.auth).send({ client_id: c.id }));
    expect(sortedStatuses(answers)).toEqual([201, ...Array<number>(14).fill(409)]);
    const created = answers.find((a) => a.status === 201)!.body.data;
    for (const a of answers.filter((x) => x.status === 409)) expect([a.body.error.code, a.body.error.details.ticket_id]).toEqual(['TICKET_ACTIVE', created.id]);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM tickets WHERE contact_id = ${c.id}`)).toBe(1);
  });

  it('fifteen opens with one Idempotency-Key: one ticket; the others replay it or answer 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const t = await tenant();
    const c = await t.contact();
    const answers = await concurrently(15, () => request(api.app).post('/v1/tickets').set(t.auth).set('Idempotency-Key', 'abrir-1').send({ client_id: c.id }));
    expectOneIdempotentEffect(answers, 201);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM tickets WHERE contact_id = ${c.id}`)).toBe(1);
  });

  it('fifteen tickets opened at once for fifteen contacts get fifteen distinct numbers', async () => {
    const t = await tenant();
    const contacts = await concurrently(15, () => t.contact());
    const answers = await Promise.all(contacts.map((c) => request(api.app).post('/v1/tickets').set(t.auth).send({ client_id: c.id })));
    expect(sortedStatuses(answers)).toEqual(Array<number>(15).fill(201));
    expect(new Set(answers.map((a) => a.body.data.number as number)).size).toBe(15);
  });

  it('fifteen closes with one If-Match version: one 200 changed, fourteen 412 PRECONDITION_FAILED, one status event', async () => {
    const t = await tenant();
    const { ticket } = await t.open();
    const answers = await concurrently(15, () =>
      request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).set('If-Match', `"${ticket.version}"`).send({ status: 'closed', send_closing_message: false, request_rating: false }),
    );
    expect(sortedStatuses(answers)).toEqual([200, ...Array<number>(14).fill(412)]);
    for (const a of answers.filter((x) => x.status === 412)) expect(a.body.error.code).toBe('PRECONDITION_FAILED');
    expect(answers.find((a) => a.status === 200)!.body.data).toMatchObject({ status: 'closed', changed: true });
    expect(await countOf(api, sql`SELECT count(*) AS n FROM domain_events WHERE company_id = ${t.company.id} AND event = 'conversation.status_changed'`)).toBe(1);
  });

  it('fifteen closes without If-Match: one changes it, fourteen answer 200 changed false, one status event', async () => {
    const t = await tenant();
    const { ticket } = await t.open();
    const answers = await concurrently(15, () => request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'closed', send_closing_message: false, request_rating: false }));
    expect(sortedStatuses(answers)).toEqual(Array<number>(15).fill(200));
    expect(answers.filter((a) => a.body.data.changed === true)).toHaveLength(1);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM domain_events WHERE company_id = ${t.company.id} AND event = 'conversation.status_changed'`)).toBe(1);
  });

  it('a closed ticket reopened fifteen times while a new ticket is opened: at most one active ticket, the others 409 TICKET_ACTIVE', async () => {
    const t = await tenant();
    const { ticket, contact } = await t.open();
    expect((await request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'closed', send_closing_message: false, request_rating: false })).status).toBe(200);
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'open' })),
      ...Array.from({ length: 5 }, () => request(api.app).post('/v1/tickets').set(t.auth).send({ client_id: contact.id })),
    ]);
    for (const a of answers) expect([200, 201, 409]).toContain(a.status);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('TICKET_ACTIVE');
    expect(await countOf(api, sql`SELECT count(*) AS n FROM tickets WHERE contact_id = ${contact.id} AND status <> 'closed'`)).toBe(1);
  });

  it('fifteen adds of the same tags: each tag linked once, added reported once per tag', async () => {
    const t = await tenant();
    const { ticket } = await t.open();
    const tags = await concurrently(3, async (i) => (await request(api.app).post('/v1/tags').set(t.auth).send({ name: `fila-${i}` })).body.data.id as string);
    const answers = await concurrently(15, () => request(api.app).post(`/v1/tickets/${ticket.id}/tags`).set(t.auth).send({ tag_ids: tags }));
    expect(sortedStatuses(answers)).toEqual(Array<number>(15).fill(200));
    expect(answers.flatMap((a) => a.body.data.added as string[]).sort()).toEqual([...tags].sort());
    expect(await countOf(api, sql`SELECT count(*) AS n FROM ticket_tags WHERE ticket_id = ${ticket.id}`)).toBe(3);
  });

  it('tags added to tickets while the tag is deleted: each add answers 200 or 404, no link outlives the tag', async () => {
    const t = await tenant();
    const tickets = await concurrently(10, async () => (await t.open()).ticket);
    // Several rounds: the window between an add's read of the tag and its insert is short.
    for (let round = 0; round < 8; round += 1) {
      const tag = (await request(api.app).post('/v1/tags').set(t.auth).send({ name: `Passageira ${round}` })).body.data.id as string;
      const add = (k: { id: string }) => request(api.app).post(`/v1/tickets/${k.id}/tags`).set(t.auth).send({ tag_ids: [tag] });
      const answers = await Promise.all([...tickets.slice(0, 5).map(add), request(api.app).delete(`/v1/tags/${tag}`).set(t.auth), ...tickets.slice(5).map(add)]);
      for (const a of answers) expect([200, 404]).toContain(a.status);
      expect(await countOf(api, sql`SELECT count(*) AS n FROM ticket_tags WHERE tag_id = ${tag}`)).toBe(0);
    }
  });

  it('fifteen links of one opportunity: one 201 created, fourteen 200 already linked, one link row', async () => {
    const t = await tenant();
    const { ticket, contact } = await t.open();
    const opportunity = await request(api.app).post('/v1/crm/opportunities').set(t.auth).send({ client_id: contact.id, title: 'Venda' });
    expect(opportunity.status).toBe(201);
    const answers = await concurrently(15, () => request(api.app).post(`/v1/tickets/${ticket.id}/links`).set(t.auth).send({ type: 'crm_opportunity', id: opportunity.body.data.id }));
    expect(sortedStatuses(answers)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM ticket_links WHERE ticket_id = ${ticket.id}`)).toBe(1);
  });

  it('fifteen replies with one Idempotency-Key: one message sent; the others replay it or answer 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const t = await tenant();
    const { ticket } = await t.open();
    const answers = await concurrently(15, () =>
      request(api.app).post(`/v1/tickets/${ticket.id}/messages`).set(t.auth).set('Idempotency-Key', 'resposta-1').send({ message: { text: 'Uma vez só' } }),
    );
    expectOneIdempotentEffect(answers, 201);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM messages WHERE ticket_id = ${ticket.id} AND direction = 'outbound'`)).toBe(1);
  });

  it('ten ratings of one closed ticket at once: every answer 200, one conversation.rated per change; ten equal ratings change it once', async () => {
    const t = await tenant();
    const { ticket } = await t.open();
    expect((await request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'closed', send_closing_message: false, request_rating: false })).status).toBe(200);
    const answers = await concurrently(10, (i) => request(api.app).post(`/v1/tickets/${ticket.id}/rating`).set(t.auth).send({ score: 1 + (i % 5) }));
    expect(sortedStatuses(answers)).toEqual(Array<number>(10).fill(200));
    const changed = answers.filter((a) => a.body.data.changed === true).length;
    expect(await countOf(api, sql`SELECT count(*) AS n FROM domain_events WHERE company_id = ${t.company.id} AND event = 'conversation.rated'`)).toBe(changed);
    const same = await concurrently(10, () => request(api.app).post(`/v1/tickets/${ticket.id}/rating`).set(t.auth).send({ score: 5, comment: 'Igual' }));
    expect(same.filter((a) => a.body.data.changed === true)).toHaveLength(1);
  });

  it('handoffs, priority changes and a close at once: every answer 200 or 409, the ticket ends closed at its latest version', async () => {
    const t = await tenant();
    const { ticket } = await t.open();
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => request(api.app).post(`/v1/tickets/${ticket.id}/handoff`).set(t.auth).send({ summary: `Resumo ${i}`, priority: 'high' })),
      ...['low', 'urgent', 'medium'].map((priority) => request(api.app).patch(`/v1/tickets/${ticket.id}/priority`).set(t.auth).send({ priority })),
      request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'closed', send_closing_message: false, request_rating: false }),
    ]);
    for (const a of answers) expect([200, 201, 409]).toContain(a.status);
    const detail = (await request(api.app).get(`/v1/tickets/${ticket.id}`).set(t.auth)).body.data;
    expect(detail.status).toBe('closed');
    // Each answer shows the ticket as read after its change: never a version the ticket has moved back from.
    const versions = answers.filter((a) => a.status < 300 && typeof a.body.data?.version === 'number').map((a) => a.body.data.version as number);
    expect(versions.length).toBeGreaterThan(0);
    expect(Math.max(...versions)).toBeLessThanOrEqual(detail.version as number);
  });

  it('tickets assigned to an agent while the operator deactivates them: no open ticket is left with the inactive agent', async () => {
    const t = await tenant();
    for (let round = 0; round < 4; round += 1) {
      const agent = await request(api.app).post(`/admin/v1/companies/${t.company.id}/agents`).set(api.adminAuth).send({ name: 'Ana', email: `${randomUUID()}@example.com`, status: 'available' });
      expect(agent.status).toBe(201);
      const agentId = agent.body.data.id as string;
      const tickets = await concurrently(6, async () => (await t.open()).ticket);
      const assign = (k: { id: string }) => request(api.app).patch(`/v1/tickets/${k.id}/assignee`).set(t.auth).send({ agent_id: agentId });
      const answers = await Promise.all([
        ...tickets.slice(0, 3).map(assign),
        request(api.app).patch(`/admin/v1/agents/${agentId}`).set(api.adminAuth).send({ active: false }),
        ...tickets.slice(3).map(assign),
      ]);
      for (const a of answers) expect([200, 404]).toContain(a.status);
      expect(answers[3]!.status).toBe(200);
      expect(await countOf(api, sql`SELECT count(*) AS n FROM tickets WHERE agent_id = ${agentId} AND status <> 'closed'`)).toBe(0);
    }
  });

  it('tickets auto-assigned by a team while the operator deactivates its agent: none is left with the inactive agent', async () => {
    const t = await tenant();
    for (let round = 0; round < 4; round += 1) {
      const agent = await request(api.app).post(`/admin/v1/companies/${t.company.id}/agents`).set(api.adminAuth).send({ name: 'Bia', email: `${randomUUID()}@example.com`, status: 'available' });
      const team = await request(api.app).post(`/admin/v1/companies/${t.company.id}/teams`).set(api.adminAuth).send({ nome: `Fila ${round}` });
      const agentId = agent.body.data.id as string;
      expect((await request(api.app).patch(`/admin/v1/teams/${team.body.data.id}`).set(api.adminAuth).send({ agent_ids: [agentId], auto_assign: true, max_open_per_agent: 100 })).status).toBe(200);
      const contacts = await concurrently(6, () => t.contact());
      const open = (c: { id: string }) => request(api.app).post('/v1/tickets').set(t.auth).send({ client_id: c.id, team_id: team.body.data.id });
      const answers = await Promise.all([...contacts.slice(0, 3).map(open), request(api.app).patch(`/admin/v1/agents/${agentId}`).set(api.adminAuth).send({ active: false }), ...contacts.slice(3).map(open)]);
      expect(sortedStatuses(answers)).toEqual([200, 201, 201, 201, 201, 201, 201]);
      expect(await countOf(api, sql`SELECT count(*) AS n FROM tickets WHERE agent_id = ${agentId} AND status <> 'closed'`)).toBe(0);
    }
  });
});
