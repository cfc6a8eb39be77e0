import type { Clock } from '../shared/clock.js';
import type { DnsResolver } from './dns-resolver.js';

export type EmailMxStatus = 'deliverable' | 'undeliverable' | 'unknown';

/** One result of `POST /v1/leads/validate-email-mx`. */
export interface EmailMxResult {
  email: string;
  status: EmailMxStatus;
  /** Mail exchangers by priority (the domain itself for an implicit MX). */
  mx: string[];
  implicitMx: boolean;
  /** `mx`, `implicit_mx`, `invalid_syntax`, `no_domain`, `null_mx`, `no_mx`, `timeout`, `dns_error`, `deadline`. */
  reason: string;
}

type DomainVerdict = Omit<EmailMxResult, 'email'>;

const EMAIL = /^[^\s@]{1,64}@([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+)$/;

/** Domains looked up at once. */
export const MX_PARALLELISM = 10;
/** A call gives up on domains not started within this budget (they answer `unknown`, reason `deadline`). */
export const MX_CALL_BUDGET_MS = 10_000;

/**
 * The rules, per domain: NXDOMAIN → undeliverable `no_domain`; a single MX "." (empty exchange) →
 * undeliverable `null_mx` (RFC 7505); MX records → deliverable; no MX but an A/AAAA address →
 * deliverable with `implicit_mx` (RFC 5321 §5.1); neither → undeliverable `no_mx`; no answer in
 * time or a server failure → unknown.
 */
export async function verdictOf(dns: DnsResolver, domain: string): Promise<DomainVerdict> {
  const mx = await dns.resolveMx(domain);
  if (mx.status === 'nxdomain') return { status: 'undeliverable', mx: [], implicitMx: false, reason: 'no_domain' };
  if (mx.status === 'timeout') return { status: 'unknown', mx: [], implicitMx: false, reason: 'timeout' };
  if (mx.status === 'error') return { status: 'unknown', mx: [], implicitMx: false, reason: 'dns_error' };
  if (mx.status === 'ok' && mx.records.length > 0) {
    const isNull = (e: string) => e === '' || e === '.';
    if (mx.records.length === 1 && isNull(mx.records[0]!.exchange)) return { status: 'undeliverable', mx: [], implicitMx: false, reason: 'null_mx' };
    const hosts = [...mx.records].filter((r) => !isNull(r.exchange)).sort((a, b) => a.priority - b.priority).map((r) => r.exchange.replace(/\.$/, ''));
    return { status: 'deliverable', mx: hosts, implicitMx: false, reason: 'mx' };
  }
  const addresses = await dns.resolveAddresses(domain);
  if (addresses.status === 'ok' && addresses.records.length > 0) return { status: 'deliverable', mx: [domain], implicitMx: true, reason: 'implicit_mx' };
  if (addresses.status === 'timeout') return { status: 'unknown', mx: [], implicitMx: false, reason: 'timeout' };
  if (addresses.status === 'error') return { status: 'unknown', mx: [], implicitMx: false, reason: 'dns_error' };
  if (addresses.status === 'nxdomain') return { status: 'undeliverable', mx: [], implicitMx: false, reason: 'no_domain' };
  return { status: 'undeliverable', mx: [], implicitMx: false, reason: 'no_mx' };
}

/**
 * `POST /v1/leads/validate-email-mx`: one lookup per distinct domain, {@link MX_PARALLELISM} at a
 * time, within {@link MX_CALL_BUDGET_MS} per call; results in the order of the input.
 */
export class ValidateEmailMx {
  constructor(
    private readonly dns: { live: DnsResolver; test: DnsResolver },
    private readonly clock: Clock,
  ) {}

  async execute(emails: readonly string[], mode: 'live' | 'test'): Promise<EmailMxResult[]> {
    const dns = mode === 'test' ? this.dns.test : this.dns.live;
    const domainOf = (email: string) => EMAIL.exec(email.trim())?.[1]?.toLowerCase() ?? null;
    const domains = [...new Set(emails.map(domainOf).filter((d): d is string => d !== null))];
    const verdicts = new Map<string, DomainVerdict>();
    const started = this.clock.now().getTime();
    let next = 0;
    const worker = async () => {
      while (next < domains.length) {
        const domain = domains[next++]!;
        if (this.clock.now().getTime() - started > MX_CALL_BUDGET_MS) {
          verdicts.set(domain, { status: 'unknown', mx: [], implicitMx: false, reason: 'deadline' });
          continue;
        }
        verdicts.set(domain, await verdictOf(dns, domain));
      }
    };
    await Promise.all(Array.from({ length: Math.min(MX_PARALLELISM, domains.length) }, worker));
    return emails.map((email) => {
      const domain = domainOf(email);
      if (!domain) return { email, status: 'undeliverable', mx: [], implicitMx: false, reason: 'invalid_syntax' };
      return { email, ...verdicts.get(domain)! };
    });
  }
}
