import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type PgBoss from 'pg-boss';
import { createTestDatabase, type TestDatabase } from '@carteiro/postgres/testing';
import { createBoss, ensureQueues } from './boss.js';

let database: TestDatabase;
const bosses: PgBoss[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  for (let i = 0; i < 4; i += 1) {
    const boss = createBoss(database.url, { worker: false, poolSize: 2 });
    boss.on('error', () => undefined);
    await boss.start();
    bosses.push(boss);
  }
});
afterAll(async () => {
  await Promise.all(bosses.map((b) => b.stop({ graceful: false, wait: true })));
  await database?.destroy();
});

it('given four processes starting together on a database without their queues, then each creates what is missing and none fails', async () => {
  // The same new queues at once from every process: creations collide (and can deadlock on the job table's partitions).
  const queues = Array.from({ length: 12 }, (_, i) => ({ name: `startup-race-${i}`, policy: i % 2 === 0 ? ('stately' as const) : ('standard' as const) }));
  await Promise.all(bosses.map((boss) => ensureQueues(boss, queues)));
  const names = new Set((await bosses[0]!.getQueues()).map((q) => q.name));
  for (const queue of queues) expect(names.has(queue.name)).toBe(true);
});
