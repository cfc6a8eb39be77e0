import { createHash } from 'node:crypto';

/** One proxy of `QR_PROVIDER_PROXIES`, in the shape of Evolution's `/proxy/set` body. */
export interface EvolutionProxy {
  protocol: 'http' | 'https' | 'socks4' | 'socks5';
  host: string;
  /** Evolution takes the port as a string. */
  port: string;
  username?: string;
  password?: string;
}

const PROTOCOLS = new Set(['http', 'https', 'socks4', 'socks5']);

/**
 * Parses `QR_PROVIDER_PROXIES`: proxy URLs separated by commas or white space
 * (`http://user:password@host:port`, `socks5://host:port`). A malformed entry throws, so that a
 * process does not start with fewer proxies than the operator listed.
 */
export function parseProxyList(value: string | undefined): EvolutionProxy[] {
  if (!value || !value.trim()) return [];
  return value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new Error(`QR_PROVIDER_PROXIES: ${JSON.stringify(redact(entry))} is not a URL (protocol://[user:password@]host:port)`);
      }
      const protocol = url.protocol.replace(/:$/, '');
      if (!PROTOCOLS.has(protocol) || !url.hostname || !url.port) {
        throw new Error(`QR_PROVIDER_PROXIES: ${JSON.stringify(redact(entry))} needs an http, https, socks4 or socks5 protocol, a host and a port`);
      }
      return {
        protocol: protocol as EvolutionProxy['protocol'],
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port,
        ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
        ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      };
    });
}

function redact(entry: string): string {
  return entry.replace(/\/\/[^@/]*@/, '//***@');
}

/**
 * The proxy of one session: picked by a hash of the instance id, so a number keeps its proxy (and
 * its address as WhatsApp sees it) across restarts and processes while the list stays the same,
 * and the numbers spread evenly over the proxies. Null without proxies.
 */
export function proxyForInstance(instanceId: string, proxies: readonly EvolutionProxy[]): EvolutionProxy | null {
  if (proxies.length === 0) return null;
  const index = createHash('sha256').update(instanceId).digest().readUInt32BE(0) % proxies.length;
  return proxies[index]!;
}
