import { describe, expect, it } from '@jest/globals';
import { parseProxyList, proxyForInstance } from './evolution-proxy.js';

describe('QR_PROVIDER_PROXIES', () => {
  it('reads proxy URLs separated by commas or spaces, with optional credentials', () => {
    expect(parseProxyList('http://user:p%40ss@10.0.0.1:8080, socks5://proxy.example:1080\nhttps://[2001:db8::1]:3128')).toEqual([
      { protocol: 'http', host: '10.0.0.1', port: '8080', username: 'user', password: 'p@ss' },
      { protocol: 'socks5', host: 'proxy.example', port: '1080' },
      { protocol: 'https', host: '2001:db8::1', port: '3128' },
    ]);
    expect(parseProxyList(undefined)).toEqual([]);
    expect(parseProxyList('  ')).toEqual([]);
  });

  it('refuses an entry without protocol, host or port, without echoing its password', () => {
    expect(() => parseProxyList('proxy.example:8080')).toThrow(/QR_PROVIDER_PROXIES/);
    expect(() => parseProxyList('ftp://proxy.example:21')).toThrow(/http, https, socks4 or socks5/);
    expect(() => parseProxyList('http://user:secret@proxy.example')).toThrow(/\*\*\*@proxy\.example/);
    expect(() => parseProxyList('http://user:secret@proxy.example')).not.toThrow(/secret/);
  });

  it('gives each instance the same proxy every time and spreads instances over the list', () => {
    const proxies = parseProxyList('http://a.test:1,http://b.test:2,http://c.test:3');
    const ids = Array.from({ length: 300 }, (_, i) => `00000000-0000-4000-8000-${i.toString().padStart(12, '0')}`);
    expect(ids.map((id) => proxyForInstance(id, proxies))).toEqual(ids.map((id) => proxyForInstance(id, [...proxies])));
    const counts = new Map<string, number>();
    for (const id of ids) counts.set(proxyForInstance(id, proxies)!.host, (counts.get(proxyForInstance(id, proxies)!.host) ?? 0) + 1);
    expect([...counts.values()].every((n) => n > 60)).toBe(true);
    expect(proxyForInstance(ids[0]!, [])).toBeNull();
  });
});
