import type { KeyMode, SigningProvider, SigningProviders } from '@carteiro/core';

/**
 * The providers of a process: the simulator always (test keys, and live keys unless another is
 * chosen), plus the live provider `SIGNING_PROVIDER` names when it is configured.
 */
export class ConfiguredSigningProviders implements SigningProviders {
  constructor(
    private readonly simulator: SigningProvider,
    private readonly live: SigningProvider | null = null,
  ) {}

  forMode(mode: KeyMode): SigningProvider {
    return mode === 'live' && this.live ? this.live : this.simulator;
  }

  byName(name: string): SigningProvider | null {
    if (name === this.simulator.name) return this.simulator;
    return this.live && name === this.live.name ? this.live : null;
  }
}

/** What the environment says about signing (`SIGNING_PROVIDER`, `ZAPSIGN_*`). */
export interface SigningConfig {
  provider: 'simulator' | 'zapsign';
  zapsign: { baseUrl: string; apiToken: string; webhookSecret: string; webhookHeader: string } | null;
}

/** Reads `SIGNING_PROVIDER` (simulator|zapsign) and `ZAPSIGN_API_URL`, `ZAPSIGN_API_TOKEN`, `ZAPSIGN_WEBHOOK_SECRET`, `ZAPSIGN_WEBHOOK_HEADER`. */
export function signingConfigFromEnv(env: Readonly<Record<string, string | undefined>>): SigningConfig {
  const provider = env.SIGNING_PROVIDER === 'zapsign' ? 'zapsign' : 'simulator';
  if (env.SIGNING_PROVIDER && !['simulator', 'zapsign'].includes(env.SIGNING_PROVIDER)) {
    throw new Error(`SIGNING_PROVIDER must be simulator or zapsign, not ${env.SIGNING_PROVIDER}`);
  }
  if (provider === 'simulator') return { provider, zapsign: null };
  const apiToken = env.ZAPSIGN_API_TOKEN;
  const webhookSecret = env.ZAPSIGN_WEBHOOK_SECRET;
  if (!apiToken || !webhookSecret) throw new Error('SIGNING_PROVIDER=zapsign needs ZAPSIGN_API_TOKEN and ZAPSIGN_WEBHOOK_SECRET');
  return {
    provider,
    zapsign: {
      baseUrl: env.ZAPSIGN_API_URL ?? 'https://api.zapsign.com.br',
      apiToken,
      webhookSecret,
      webhookHeader: env.ZAPSIGN_WEBHOOK_HEADER ?? 'x-zapsign-secret',
    },
  };
}
