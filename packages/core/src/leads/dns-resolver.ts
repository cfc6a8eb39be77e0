/** One DNS answer: records, no such domain, no records of the type, or no answer in time. */
export type DnsAnswer<T> = { status: 'ok'; records: T[] } | { status: 'nxdomain' } | { status: 'nodata' } | { status: 'timeout' } | { status: 'error'; message: string };

export interface MxRecord {
  exchange: string;
  priority: number;
}

/**
 * DNS lookups for `POST /v1/leads/validate-email-mx`. The production adapter uses `node:dns`'s
 * `Resolver` (2 s per try, 2 tries); test keys use {@link SimulatedDnsResolver}.
 */
export interface DnsResolver {
  resolveMx(domain: string): Promise<DnsAnswer<MxRecord>>;
  /** A and AAAA addresses (the implicit MX of RFC 5321 §5.1). */
  resolveAddresses(domain: string): Promise<DnsAnswer<string>>;
}
export const DnsResolver = Symbol.for('carteiro.DnsResolver');
/** The resolver of test keys (bound beside the real {@link DnsResolver}). */
export const SimulatedDnsResolverToken = Symbol.for('carteiro.SimulatedDnsResolver');

/**
 * The DNS of test keys (business.md §5): `*.invalid` has no domain, `nullmx.test` publishes the
 * null MX of RFC 7505, `nomx.test` has an address but no MX (implicit MX), `timeout.test` never
 * answers in time; every other domain has one MX `mx.<domain>`.
 */
export class SimulatedDnsResolver implements DnsResolver {
  async resolveMx(domain: string): Promise<DnsAnswer<MxRecord>> {
    const d = domain.toLowerCase();
    if (d === 'invalid' || d.endsWith('.invalid')) return { status: 'nxdomain' };
    if (d === 'timeout.test') return { status: 'timeout' };
    if (d === 'nullmx.test') return { status: 'ok', records: [{ exchange: '', priority: 0 }] };
    if (d === 'nomx.test') return { status: 'nodata' };
    return { status: 'ok', records: [{ exchange: `mx.${d}`, priority: 10 }] };
  }
  async resolveAddresses(domain: string): Promise<DnsAnswer<string>> {
    const d = domain.toLowerCase();
    if (d === 'invalid' || d.endsWith('.invalid')) return { status: 'nxdomain' };
    if (d === 'timeout.test') return { status: 'timeout' };
    return { status: 'ok', records: ['192.0.2.10'] };
  }
}
