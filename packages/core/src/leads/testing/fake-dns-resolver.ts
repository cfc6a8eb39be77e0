import type { DnsAnswer, DnsResolver, MxRecord } from '../dns-resolver.js';

/** A scripted resolver: answers per domain, NXDOMAIN for the rest; counts lookups. */
export class FakeDnsResolver implements DnsResolver {
  readonly lookups: string[] = [];
  constructor(
    private readonly mx: Record<string, DnsAnswer<MxRecord>>,
    private readonly addresses: Record<string, DnsAnswer<string>> = {},
  ) {}
  async resolveMx(domain: string): Promise<DnsAnswer<MxRecord>> {
    this.lookups.push(`mx:${domain}`);
    return this.mx[domain] ?? { status: 'nxdomain' };
  }
  async resolveAddresses(domain: string): Promise<DnsAnswer<string>> {
    this.lookups.push(`a:${domain}`);
    return this.addresses[domain] ?? { status: 'nxdomain' };
  }
}
