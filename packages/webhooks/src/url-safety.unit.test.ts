import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '@carteiro/core';
import { isPublicAddress } from './address-policy.js';
import { WebhookUrlSafety, type HostResolver } from './url-safety.js';

const resolver =
  (table: Record<string, string[]>): HostResolver =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const dns = resolver({
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'sneaky.example.com': ['127.0.0.1'],
  'half.example.com': ['93.184.216.34', '10.0.0.7'],
  'metadata.example.com': ['169.254.169.254'],
});

describe('webhook URL safety', () => {
  it('knows public from loopback, private, link-local, CGNAT, multicast, reserved and mapped addresses', () => {
    expect(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'].map(isPublicAddress)).toEqual([true, true, true]);
    const notPublic = ['127.0.0.1', '127.8.9.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
      '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '192.0.2.1', 'not-an-ip'];
    expect(notPublic.filter(isPublicAddress)).toEqual([]);
  });

  describe('without ALLOW_PRIVATE_WEBHOOKS', () => {
    const safety = new WebhookUrlSafety({ allowPrivate: false, resolve: dns });
    const reason = async (url: string) => {
      const error = await safety.check(url).then(() => null, (e: unknown) => e);
      expect(error === null || error instanceof ValidationError).toBe(true);
      return error === null ? 'ok' : (error as ValidationError).details?.reason;
    };

    it('accepts https to a host whose every address is public', async () => {
      expect(await reason('https://hooks.example.com/carteiro?x=1')).toBe('ok');
      expect(await reason('https://93.184.216.34:8443/hook')).toBe('ok');
    });

    it('refuses http, credentials and malformed URLs', async () => {
      expect(await reason('http://hooks.example.com/')).toBe('scheme_not_allowed');
      expect(await reason('ftp://hooks.example.com/')).toBe('scheme_not_allowed');
      expect(await reason('https://user:pw@hooks.example.com/')).toBe('credentials_in_url');
      expect(await reason('not a url')).toBe('invalid_url');
    });

    it('refuses loopback and private literals, and names that resolve to them', async () => {
      for (const url of ['https://127.0.0.1/', 'https://[::1]/', 'https://10.0.0.1/', 'https://169.254.169.254/latest', 'https://[::ffff:7f00:1]/']) {
        expect(await reason(url)).toBe('private_address');
      }
      expect(await reason('https://sneaky.example.com/')).toBe('private_address');
      expect(await reason('https://half.example.com/')).toBe('private_address');
      expect(await reason('https://metadata.example.com/')).toBe('private_address');
      expect(await reason('https://nowhere.example.com/')).toBe('unresolvable_host');
    });
  });

  it('with ALLOW_PRIVATE_WEBHOOKS=1 accepts http and loopback without resolving', async () => {
    const safety = new WebhookUrlSafety({ allowPrivate: true, resolve: resolver({}) });
    await expect(safety.check('http://127.0.0.1:8080/hook')).resolves.toBeUndefined();
    await expect(safety.check('http://localhost:8080/hook')).resolves.toBeUndefined();
    await expect(safety.check('ftp://localhost/')).rejects.toThrow(ValidationError);
  });
});
