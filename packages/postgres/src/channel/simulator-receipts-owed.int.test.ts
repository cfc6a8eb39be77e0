import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { sql, type Kysely } from 'kysely';
import { migrateToLatest } from '../db.js';
import { createTestDatabaseBefore, type TestDatabase } from '../testing/test-database.js';
import type { Database } from '../shared/database.js';

// A database of its own, migrated up to just before 0026, so that the upgrade meets receipts owed the old way.
let database: TestDatabase;
let db: Kysely<Database>;

beforeAll(async () => {
  database = await createTestDatabaseBefore('0026');
  db = database.db;
});
afterAll(async () => {
  await database?.destroy();
});

const owedIds = async () => (await sql<{ id: string }>`SELECT id FROM simulator_receipts_owed ORDER BY sent_at`.execute(db)).rows.map((r) => r.id);

it('the upgrade keeps the receipts owed before it, and every stored successful send owes one from then on (failures and operations none)', async () => {
  const setor = crypto.randomUUID();
  const at = new Date(Date.now() - 60_000);
  const old = (outcome: string, payload: object, pending: boolean) => ({ id: crypto.randomUUID(), outcome, payload, pending });
  const before = [old('sent', {}, true), old('sent', {}, false), old('failed', {}, true), old('sent', { operation: 'edit' }, true)];
  await sql`
    INSERT INTO simulator_messages (id, client_message_id, company_id, setor_id, instance_id, to_number, to_digits, kind, payload, outcome, sent_at, receipt_pending)
    SELECT id, 'c-' || id, gen_random_uuid(), ${setor}, gen_random_uuid(), '+5511900000001', '5511900000001', 'text', payload, outcome, ${at}, pending
    FROM unnest(${before.map((r) => r.id)}::uuid[], ${before.map((r) => r.outcome)}::text[], ${before.map((r) => JSON.stringify(r.payload))}::jsonb[], ${before.map((r) => r.pending)}::boolean[])
      AS x(id, outcome, payload, pending)
  `.execute(db);

  await migrateToLatest(db);

  expect(await owedIds()).toEqual([before[0]!.id]);
  const column = await sql`SELECT 1 FROM information_schema.columns WHERE table_name = 'simulator_messages' AND column_name = 'receipt_pending'`.execute(db);
  expect(column.rows).toEqual([]);

  const row = (clientId: string, outcome: string, payload: object) => ({
    id: crypto.randomUUID(), client_message_id: clientId, company_id: crypto.randomUUID(), setor_id: setor, instance_id: crypto.randomUUID(),
    to_number: '+5511900000002', to_digits: '5511900000002', kind: 'text', payload, outcome, provider_failure: false, sent_at: new Date().toISOString(),
  });
  const sends = [row('new-sent', 'sent', {}), row('new-failed', 'failed', {}), row('new-op', 'sent', { operation: 'react' }), row('new-sent', 'sent', {})];
  const stored = await sql<{ client_message_id: string }>`SELECT client_message_id FROM carteiro_simulator_record(${JSON.stringify(sends)}::jsonb) AS t(client_message_id)`.execute(db);
  expect(stored.rows.map((r) => r.client_message_id).sort()).toEqual(['new-failed', 'new-op', 'new-sent']);
  // The repeated client id was not stored, so it owes nothing: one owed receipt for the one new successful send.
  expect(await owedIds()).toEqual([before[0]!.id, sends[0]!.id]);
});
