import { Resolver } from 'node:dns/promises';
import type { DnsAnswer, DnsResolver, MxRecord } from '@carteiro/core';

/** NOTFOUND is NXDOMAIN; NODATA is a domain without records of the type (node:dns error codes). */
function classify<T>(error: unknown): DnsAnswer<T> {
  const code = (error as { code?: string }).code;
  if (code === 'ENOTFOUND') return { status: 'nxdomain' };
  if (code === 'ENODATA') return { status: 'nodata' };
  if (code === 'ETIMEOUT' || code === 'ECANCELLED') return { status: 'timeout' };
  return { status: 'error', message: code ?? String(error) };
}

/**
 * The {@link DnsResolver} on `node:dns`'s `Resolver`: 2 s per try, 2 tries (c-ares's `timeout` and
 * `tries`), the system's servers unless `servers` are given.
 */
export class NodeDnsResolver implements DnsResolver {
  private readonly resolver: Resolver;
  constructor(options: { timeoutMs?: number; tries?: number; servers?: string[] } = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: options.tries ?? 2 });
    if (options.servers) this.resolver.setServers(options.servers);
  }
  async resolveMx(domain: string): Promise<DnsAnswer<MxRecord>> {
    try {
      const records = await this.resolver.resolveMx(domain);
      return { status: 'ok', records: records.map((r) => ({ exchange: r.exchange, priority: r.priority })) };
    } catch (error) {
      return classify(error);
    }
  }
  async resolveAddresses(domain: string): Promise<DnsAnswer<string>> {
    const [v4, v6] = await Promise.all([
      this.resolver.resolve4(domain).then((r) => ({ status: 'ok' as const, records: r }), (e: unknown) => classify<string>(e)),
      this.resolver.resolve6(domain).then((r) => ({ status: 'ok' as const, records: r }), (e: unknown) => classify<string>(e)),
    ]);
    const records = [...(v4.status === 'ok' ? v4.records : []), ...(v6.status === 'ok' ? v6.records : [])];
    if (records.length > 0) return { status: 'ok', records };
    if (v4.status === 'nxdomain' || v6.status === 'nxdomain') return { status: 'nxdomain' };
    if (v4.status === 'timeout' || v6.status === 'timeout') return { status: 'timeout' };
    if (v4.status === 'error') return v4;
    return { status: 'nodata' };
  }
}
