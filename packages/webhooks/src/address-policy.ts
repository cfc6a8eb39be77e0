import ipaddr from 'ipaddr.js';

/**
 * Whether an IP address is an ordinary public unicast address. Loopback, private, link-local,
 * carrier-grade NAT, multicast, reserved, documentation and the IPv6 forms that embed an IPv4
 * address (mapped, 6to4, Teredo, NAT64) are not; an IPv4-mapped IPv6 address is judged as the
 * IPv4 address it carries. The ranges come from ipaddr.js (IANA special-purpose registries).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** Whether a URL host (brackets of IPv6 literals removed) is an IP literal rather than a name. */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host);
}

/** `[::1]` → `::1`: WHATWG URL keeps the brackets of IPv6 hosts. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
