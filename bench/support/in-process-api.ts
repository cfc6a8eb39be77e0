// The real API in the bench's own process (Express over HTTP on 127.0.0.1), for benchmarks that
// time requests end to end without a child server.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import { buildApiContainer, createApp } from '@carteiro/api';
import { ensureDeclaredQueues } from '@carteiro/pgboss';

/** The API's container, its HTTP server and the base URL to call; `server.close()` when done. */
export interface InProcessApi {
  api: Container;
  server: Server;
  base: string;
}

/** Builds the API's container (always ready), creates the queues it declares, and listens on a free port. */
export async function startInProcessApi(options: Omit<Parameters<typeof buildApiContainer>[0], 'readiness'>): Promise<InProcessApi> {
  const api = buildApiContainer({ ...options, readiness: async () => true });
  await ensureDeclaredQueues(options.boss, api);
  const server = createApp(api).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { api, server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
