import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { AttemptOutcome, WebhookRequest, WebhookSender } from '@carteiro/core';
import { bareHost, isIpLiteral, isPublicAddress } from './address-policy.js';
import { parseWebhookUrl, systemResolver, type HostResolver } from './url-safety.js';

const BLOCKED = 'ERR_WEBHOOK_ADDRESS_BLOCKED';

class BlockedAddressError extends Error {
  readonly code = BLOCKED;
}

/**
 * The `lookup` of every connection the sender opens: resolves the name, refuses the connection
 * when any address is not public, and hands the checked address to the socket, which connects to
 * exactly that address. Checking and connecting on one resolution closes the DNS-rebinding gap
 * between a check at registration and a second resolution at connection time.
 */
export function guardedLookup(resolve: HostResolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const reply = callback as (error: NodeJS.ErrnoException | null, address: unknown, family?: number) => void;
    resolve(hostname).then(
      (found) => {
        if (found.length === 0) {
          reply(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        if (!allowPrivate) {
          const blocked = found.find((a) => !isPublicAddress(a.address));
          if (blocked) {
            reply(new BlockedAddressError(`${hostname} resolves to ${blocked.address}, which is not a public address`), '', 0);
            return;
          }
        }
        const family = typeof options === 'object' ? options.family : undefined;
        const usable = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
        const chosen = usable.length > 0 ? usable : found;
        if (typeof options === 'object' && options.all) reply(null, chosen);
        else reply(null, chosen[0]!.address, chosen[0]!.family);
      },
      (error: NodeJS.ErrnoException) => reply(error, '', 0),
    );
  };
}

export interface HttpWebhookSenderOptions {
  /** `ALLOW_PRIVATE_WEBHOOKS=1`. */
  allowPrivate: boolean;
  resolve?: HostResolver;
  /** Open connections per receiver host (keep-alive); defaults to 64. */
  maxSocketsPerHost?: number;
}

/**
 * Delivers over HTTP(S) with keep-alive connections, a hard time-out (the receiver must answer
 * within it) and the address check on every new connection. Redirects are not followed.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: HttpWebhookSenderOptions) {
    const lookup = guardedLookup(options.resolve ?? systemResolver, options.allowPrivate);
    const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerHost ?? 64, maxFreeSockets: 16, lookup };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
  }

  send(request: WebhookRequest): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    let url: URL;
    try {
      url = parseWebhookUrl(request.url, this.options.allowPrivate);
    } catch (error) {
      return Promise.resolve({ kind: 'blocked', error: (error as Error).message, durationMs: 0 });
    }
    const host = bareHost(url.hostname);
    // Connections to IP literals skip `lookup`, so their address is checked here.
    if (!this.options.allowPrivate && isIpLiteral(host) && !isPublicAddress(host)) {
      return Promise.resolve({ kind: 'blocked', error: `${host} is not a public address`, durationMs: 0 });
    }
    const secure = url.protocol === 'https:';
    return new Promise<AttemptOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: AttemptOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const req = (secure ? https : http).request(
        url,
        {
          method: 'POST',
          agent: secure ? this.httpsAgent : this.httpAgent,
          headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        },
        (res) => {
          finish({ kind: 'response', statusCode: res.statusCode ?? 0, durationMs: elapsed() });
          // Drain the answer so the connection goes back to the pool, but not forever.
          const drain = setTimeout(() => res.destroy(), Math.max(1000, request.timeoutMs - elapsed()));
          res.on('close', () => clearTimeout(drain));
          res.resume();
        },
      );
      const timer = setTimeout(() => {
        finish({ kind: 'timeout', durationMs: elapsed() });
        req.destroy(new Error('timeout'));
      }, request.timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === BLOCKED) finish({ kind: 'blocked', error: error.message, durationMs: elapsed() });
        else finish({ kind: 'network_error', error: [error.code, error.message].filter(Boolean).join(': '), durationMs: elapsed() });
      });
      req.end(request.body);
    });
  }

  /** Closes the pooled connections. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
