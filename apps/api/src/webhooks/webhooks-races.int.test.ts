import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import request from 'supertest';
import { countOf, unthrottledTenant } from '../testing/races.js';
import { createTestApi, type TestApi } from '../testing/test-api.js';

/**
 * Concurrent webhook writes (messaging-api.md, webhooks): each PUT (every field optional) changes only the fields it names, so edits of
 * different fields at once all land; a delete racing edits answers 404 to the late ones, never a 500.
 */
let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

const tenant = () => unthrottledTenant(api);

describe('webhooks under concurrent writes', () => {
  it('ten registrations at once: ten webhooks, each with its own secret', async () => {
    const t = await tenant();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => request(api.app).post('/v1/webhooks').set(t.auth).send({ url: `http://127.0.0.1:9/hook/${i}`, events: ['message.sent'] })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array<number>(10).fill(201));
    expect(new Set(answers.map((a) => a.body.data.secret as string)).size).toBe(10);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM webhooks WHERE company_id = ${t.company.id}`)).toBe(10);
  });

  it('edits of the url, the events and active at once: every change lands', async () => {
    const t = await tenant();
    for (let round = 0; round < 5; round += 1) {
      const hook = (await request(api.app).post('/v1/webhooks').set(t.auth).send({ url: `http://127.0.0.1:9/old/${round}`, events: ['message.sent'] })).body.data as { id: string };
      const put = (body: Record<string, unknown>) => request(api.app).put(`/v1/webhooks/${hook.id}`).set(t.auth).send(body);
      const answers = await Promise.all([put({ url: `http://127.0.0.1:9/new/${round}` }), put({ events: ['message.failed'] }), put({ active: false })]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      const row = (await sql<{ url: string; events: string[]; active: boolean }>`SELECT url, events, active FROM webhooks WHERE id = ${hook.id}`.execute(api.database.db)).rows[0]!;
      expect(row).toEqual({ url: `http://127.0.0.1:9/new/${round}`, events: ['message.failed'], active: false });
    }
  });

  it('a delete racing edits: each edit answers 200 or 404, the webhook is gone', async () => {
    const t = await tenant();
    const hook = (await request(api.app).post('/v1/webhooks').set(t.auth).send({ url: 'http://127.0.0.1:9/x', events: ['message.sent'] })).body.data as { id: string };
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => request(api.app).put(`/v1/webhooks/${hook.id}`).set(t.auth).send({ active: false })),
      request(api.app).delete(`/v1/webhooks/${hook.id}`).set(t.auth),
      ...Array.from({ length: 4 }, () => request(api.app).put(`/v1/webhooks/${hook.id}`).set(t.auth).send({ events: ['message.failed'] })),
    ]);
    for (const a of answers) expect([200, 404]).toContain(a.status);
    expect(answers[4]!.status).toBe(200);
    expect(await countOf(api, sql`SELECT count(*) AS n FROM webhooks WHERE id = ${hook.id}`)).toBe(0);
  });
});
