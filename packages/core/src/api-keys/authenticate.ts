import type { Company } from '../companies/company.js';
import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/errors.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { hashApiKey, hashesEqual, isKeyActive, looksLikeApiKey, type ApiKey } from './api-key.js';

/** Who is calling: the key and its company. */
export interface Principal {
  apiKey: ApiKey;
  company: Company;
}

const unauthorized = () => new DomainError('UNAUTHORIZED', 'Missing or invalid API key');

/** Resolves a bearer key to its principal; revoked and expired keys answer 401 at once. */
export class AuthenticateApiKey {
  constructor(
    private readonly repos: Repositories,
    private readonly clock: Clock,
  ) {}

  async execute(presented: string | undefined): Promise<Principal> {
    if (!presented || !looksLikeApiKey(presented)) throw unauthorized();
    const hash = hashApiKey(presented);
    const apiKey = await this.repos.apiKeys.findByHash(hash);
    if (!apiKey || !hashesEqual(apiKey.keyHash, hash) || !isKeyActive(apiKey, this.clock.now())) throw unauthorized();
    const company = await this.repos.companies.findById(apiKey.companyId);
    if (!company) throw unauthorized();
    return { apiKey, company };
  }
}

/** `Authorization: Bearer <key>` → the key, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
