import { expect, it } from '@jest/globals';
import { eventually } from '../../worker/src/testing/test-worker.js';
import { fleetOnTestDatabase } from './testing/server-process.js';

/** The real server's metrics wiring: a ROLE=worker process on METRICS_PORT, a ROLE=all process with one registry. */
const TOKEN = 'fleet-metrics-token';
const setup = fleetOnTestDatabase({ env: { METRICS_TOKEN: TOKEN }, timeoutMs: 60_000 });

const scrape = (url: string, token?: string) => fetch(`${url}/metrics`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});

it('a ROLE=worker process serves its metrics on METRICS_PORT, behind METRICS_TOKEN', async () => {
  const worker = await setup.fleet.start('worker', { METRICS_PORT: '0' });
  const line = await eventually(async () => worker.output().split('\n').find((l) => l.includes('metrics listening')));
  const port = (JSON.parse(line) as { port: number }).port;
  expect(port).toBeGreaterThan(0);
  const url = `http://127.0.0.1:${port}`;
  const refused = await scrape(url);
  expect(refused.status).toBe(401);
  expect(await refused.json()).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Missing or invalid metrics token' } });
  const res = await scrape(url, TOKEN);
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(text).toMatch(/^carteiro_campaign_lanes_active 0$/m);
  expect(text).toMatch(/^carteiro_queue_jobs\{queue="campaign-lane",state="ready"\} \d+$/m);
  expect(text).toMatch(/^carteiro_db_pool_max_connections\{pool="app"\} 8$/m);
  // A worker has no HTTP metrics of its own.
  expect(text).not.toContain('carteiro_http_requests_total');
}, 60_000);

it('a ROLE=all process shows the API and the worker in one registry on its API port', async () => {
  const all = await setup.fleet.start('all');
  expect((await scrape(all.url!)).status).toBe(401);
  const text = await (await scrape(all.url!, TOKEN)).text();
  expect(text).toContain('carteiro_http_requests_total{method="GET",route="/metrics",status="401"} 1');
  expect(text).toMatch(/^carteiro_campaign_lanes_active 0$/m);
  // One pool per name, however many containers share it.
  expect(text.match(/^carteiro_db_pool_max_connections\{pool="app"\} 8$/gm)).toHaveLength(1);
}, 60_000);
