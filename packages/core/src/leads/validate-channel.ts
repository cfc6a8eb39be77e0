import type { KeyMode } from '../api-keys/index.js';
import type { ChannelGateway, ChannelRepositories } from '../channel/index.js';
import { normalizePhone } from '../phone/index.js';
import type { Clock } from '../shared/clock.js';
import { NotFoundError } from '../shared/errors.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { SetorRepositories } from '../setores/index.js';
import type { LeadRepositories } from './lead-repositories.js';

/** Answers of the number check are kept this long per setor. */
export const CHANNEL_CHECK_TTL_MS = 7 * 24 * 3600_000;

/** One result of `POST /v1/leads/validate-channel`. */
export interface ChannelValidation {
  input: string;
  /** E.164, or null when the input is not a phone number. */
  phone: string | null;
  /** Null when the provider cannot tell (the official Cloud API) or the input is not a number. */
  hasChannel: boolean | null;
  /** `checked`, `cached` (within 7 days), `provider_cannot_tell` or `invalid_number`. */
  reason: string;
}

/**
 * `POST /v1/leads/validate-channel`: whether each phone has an account on the channel, asked through
 * the setor's connected session (`setor_id`; 404 when it has none connected). Live keys' answers are
 * cached 7 days per setor; test keys ask the simulator every time.
 */
export class ValidateChannel {
  constructor(
    private readonly repos: Repositories<LeadRepositories & SetorRepositories & ChannelRepositories>,
    private readonly gateway: ChannelGateway,
    private readonly clock: Clock,
  ) {}

  async execute(company: { id: string; defaultCountry?: string }, setorId: string, phones: readonly string[], mode: KeyMode): Promise<ChannelValidation[]> {
    const setor = await this.repos.setores.findByIdInCompany(company.id, setorId);
    const instance = setor ? await this.repos.channelInstances.findBySetor(setor.id) : null;
    if (!setor || !instance || instance.status !== 'connected') throw new NotFoundError('Connected box', { setor_id: setorId });
    const now = this.clock.now();
    const normalized = phones.map((input) => {
      try {
        return { input, phone: normalizePhone(input, 'phones', company.defaultCountry) };
      } catch {
        return { input, phone: null };
      }
    });
    const wanted = [...new Set(normalized.map((n) => n.phone).filter((p): p is string => p !== null))];
    const answers = new Map<string, { hasChannel: boolean | null; reason: string }>();
    if (mode === 'live') {
      for (const hit of await this.repos.channelChecks.find(company.id, setor.id, wanted, new Date(now.getTime() - CHANNEL_CHECK_TTL_MS))) {
        answers.set(hit.phone, { hasChannel: hit.hasChannel, reason: 'cached' });
      }
    }
    const ask = wanted.filter((p) => !answers.has(p));
    if (ask.length > 0) {
      const checks = await this.gateway.checkNumbers({ setor, instance, mode }, ask);
      for (const c of checks) answers.set(c.phone, { hasChannel: c.hasChannel, reason: c.hasChannel === null ? 'provider_cannot_tell' : 'checked' });
      const known = checks.filter((c) => c.hasChannel !== null);
      if (mode === 'live' && known.length > 0) await this.repos.channelChecks.save(company.id, setor.id, known.map((c) => ({ phone: c.phone, hasChannel: c.hasChannel, checkedAt: now })));
    }
    return normalized.map(({ input, phone }) => {
      if (phone === null) return { input, phone: null, hasChannel: null, reason: 'invalid_number' };
      const answer = answers.get(phone) ?? { hasChannel: null, reason: 'provider_cannot_tell' };
      return { input, phone, ...answer };
    });
  }
}
