import { lookup as dnsLookup } from 'node:dns/promises';
import { ValidationError, type WebhookUrlPolicy } from '@carteiro/core';
import { bareHost, isIpLiteral, isPublicAddress } from './address-policy.js';

/** One resolved address of a host name. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses; injected so that tests need no network. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface UrlSafetyOptions {
  /** `ALLOW_PRIVATE_WEBHOOKS=1`: `http`, loopback and private targets allowed (development, tests). */
  allowPrivate: boolean;
  resolve?: HostResolver;
}

/** Reads `ALLOW_PRIVATE_WEBHOOKS` the way every process of the service does. */
export function allowPrivateWebhooks(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.ALLOW_PRIVATE_WEBHOOKS === '1' || env.ALLOW_PRIVATE_WEBHOOKS === 'true';
}

const invalid = (message: string, reason: string) => new ValidationError(message, { field: 'url', reason });

/** Parses and checks the form of a webhook URL; returns it parsed. */
export function parseWebhookUrl(url: string, allowPrivate: boolean): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('url is not a valid absolute URL', 'invalid_url');
  }
  if (parsed.protocol !== 'https:' && !(allowPrivate && parsed.protocol === 'http:')) {
    throw invalid(allowPrivate ? 'url must use http or https' : 'url must use https', 'scheme_not_allowed');
  }
  if (parsed.username || parsed.password) throw invalid('url must not carry credentials', 'credentials_in_url');
  if (!parsed.hostname) throw invalid('url has no host', 'invalid_url');
  return parsed;
}

/**
 * The production rule for webhook and callback URLs: `https` to a host whose every address is
 * public. The sender checks the address again when it connects, so a name that later resolves
 * to a private address (DNS rebinding) is still refused.
 */
export class WebhookUrlSafety implements WebhookUrlPolicy {
  private readonly resolve: HostResolver;
  constructor(private readonly options: UrlSafetyOptions) {
    this.resolve = options.resolve ?? systemResolver;
  }

  async check(url: string): Promise<void> {
    const parsed = parseWebhookUrl(url, this.options.allowPrivate);
    if (this.options.allowPrivate) return;
    const host = bareHost(parsed.hostname);
    if (isIpLiteral(host)) {
      if (!isPublicAddress(host)) throw invalid('url must point to a public address', 'private_address');
      return;
    }
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolve(host);
    } catch {
      throw invalid(`url host ${host} could not be resolved`, 'unresolvable_host');
    }
    if (addresses.length === 0) throw invalid(`url host ${host} could not be resolved`, 'unresolvable_host');
    if (!addresses.every((a) => isPublicAddress(a.address))) {
      throw invalid('url must resolve to a public address', 'private_address');
    }
  }
}
