import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { FakeDnsResolver } from './testing/fake-dns-resolver.js';
import { SimulatedDnsResolver } from './dns-resolver.js';
import { ValidateEmailMx } from './validate-email-mx.js';

const dns = new FakeDnsResolver(
  {
    'mx.com.br': { status: 'ok', records: [{ exchange: 'b.mx.com.br', priority: 20 }, { exchange: 'a.mx.com.br.', priority: 10 }] },
    'nullmx.org': { status: 'ok', records: [{ exchange: '', priority: 0 }] },
    'dotmx.org': { status: 'ok', records: [{ exchange: '.', priority: 0 }] },
    'aonly.net': { status: 'nodata' },
    'nothing.net': { status: 'nodata' },
    'slow.net': { status: 'timeout' },
    'broken.net': { status: 'error', message: 'ESERVFAIL' },
  },
  { 'aonly.net': { status: 'ok', records: ['192.0.2.1'] }, 'nothing.net': { status: 'nodata' } },
);

describe('validate-email-mx rules', () => {
  it('applies NXDOMAIN, null MX (RFC 7505), MX by priority, implicit MX (RFC 5321), no MX, timeouts and syntax', async () => {
    const use = new ValidateEmailMx({ live: dns, test: new SimulatedDnsResolver() }, new ManualClock());
    const results = await use.execute(
      ['a@mx.com.br', 'b@nullmx.org', 'c@dotmx.org', 'd@aonly.net', 'e@nothing.net', 'f@slow.net', 'g@broken.net', 'h@gone.example', 'sem-arroba', 'i@MX.com.br'],
      'live',
    );
    expect(results.map((r) => [r.status, r.reason, r.implicitMx])).toEqual([
      ['deliverable', 'mx', false],
      ['undeliverable', 'null_mx', false],
      ['undeliverable', 'null_mx', false],
      ['deliverable', 'implicit_mx', true],
      ['undeliverable', 'no_mx', false],
      ['unknown', 'timeout', false],
      ['unknown', 'dns_error', false],
      ['undeliverable', 'no_domain', false],
      ['undeliverable', 'invalid_syntax', false],
      ['deliverable', 'mx', false],
    ]);
    expect(results[0]!.mx).toEqual(['a.mx.com.br', 'b.mx.com.br']);
    expect(results[3]!.mx).toEqual(['aonly.net']);
    // One lookup per domain, whatever its case or how often it appears.
    expect(dns.lookups.filter((l) => l === 'mx:mx.com.br')).toHaveLength(1);
  });

  it('uses the simulated DNS for test keys', async () => {
    const use = new ValidateEmailMx({ live: dns, test: new SimulatedDnsResolver() }, new ManualClock());
    const results = await use.execute(['a@b.invalid', 'a@nullmx.test', 'a@nomx.test', 'a@timeout.test', 'a@anything.com'], 'test');
    expect(results.map((r) => r.reason)).toEqual(['no_domain', 'null_mx', 'implicit_mx', 'timeout', 'mx']);
  });
});
