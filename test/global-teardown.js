import { rm } from 'node:fs/promises';
import pg from 'pg';

export default async function globalTeardown() {
  if (globalThis.__carteiroPg) {
    const { server, dir } = globalThis.__carteiroPg;
    await server.stop();
    await rm(dir, { recursive: true, force: true });
    return;
  }
  // An external server keeps running: drop this run's template.
  const client = new pg.Client({ connectionString: process.env.CARTEIRO_TEST_ADMIN_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS carteiro_template_${process.env.CARTEIRO_TEST_RUN} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
