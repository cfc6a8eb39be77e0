import type { ChannelSimulatorStore, Clock, ConversationWindowRepository, IdGenerator, Random } from '@carteiro/core';
import { ChannelGatewayRouter } from './channel-gateway-router.js';
import { CloudApiGateway } from './official/cloud-api-gateway.js';
import { EvolutionGateway } from './qr-provider/evolution-gateway.js';
import { parseProxyList, type EvolutionProxy } from './qr-provider/evolution-proxy.js';
import { ChannelSimulator } from './simulator/channel-simulator.js';

/** The channel settings of a process (from `QR_PROVIDER_URL`, `OFFICIAL_API_URL`, `SIMULATOR_SCAN_DELAY_MS`, …). */
export interface ChannelsConfig {
  simulatorScanDelayMs: number;
  qrProviderUrl?: string | undefined;
  qrProviderApiKey?: string | undefined;
  officialApiUrl?: string | undefined;
  /** `OFFICIAL_API_VERSION`, default v21.0. */
  officialApiVersion?: string | undefined;
  /** Per-call timeout of provider calls (ms). */
  providerTimeoutMs?: number;
  /** `QR_PROVIDER_PROXIES`: the proxies QR-provider sessions go through, one per session. */
  qrProviderProxies?: EvolutionProxy[];
  /** `QR_PROVIDER_WEBHOOK_SECRET`: what the QR provider's webhook calls must carry (unset: they are refused). */
  qrProviderWebhookSecret?: string | undefined;
  /** `OFFICIAL_APP_SECRET`: the Meta app secret that signs Cloud API webhooks (`X-Hub-Signature-256`; unset: refused). */
  officialAppSecret?: string | undefined;
  /** `OFFICIAL_VERIFY_TOKEN`: the token of the Cloud API's subscription check (`hub.verify_token`). */
  officialVerifyToken?: string | undefined;
  /** `SIMULATOR_RECEIPT_DELAY_MS` (default 1000; 0: never): simulated sends turn delivered this long after sending. */
  simulatorReceiptDelayMs?: number;
}

export interface ChannelGatewayDeps {
  clock: Clock;
  ids: IdGenerator;
  random: Random;
  simulatorStore: ChannelSimulatorStore;
  conversationWindows: ConversationWindowRepository;
}

/** Reads the optional channel settings that the shared configuration does not carry. */
export function channelsEnv(
  env: NodeJS.ProcessEnv = process.env,
): Pick<ChannelsConfig, 'officialApiVersion' | 'providerTimeoutMs' | 'qrProviderProxies' | 'qrProviderWebhookSecret' | 'officialAppSecret' | 'officialVerifyToken'> {
  const timeout = Number(env.CHANNEL_PROVIDER_TIMEOUT_MS);
  return {
    officialApiVersion: env.OFFICIAL_API_VERSION || undefined,
    providerTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
    qrProviderProxies: parseProxyList(env.QR_PROVIDER_PROXIES),
    qrProviderWebhookSecret: env.QR_PROVIDER_WEBHOOK_SECRET || undefined,
    officialAppSecret: env.OFFICIAL_APP_SECRET || undefined,
    officialVerifyToken: env.OFFICIAL_VERIFY_TOKEN || undefined,
  };
}

/**
 * The channel settings of a process: the shared configuration's channel fields (`loadConfig` of
 * @carteiro/system reads `QR_PROVIDER_URL`, `QR_PROVIDER_API_KEY`, `OFFICIAL_API_URL`,
 * `SIMULATOR_SCAN_DELAY_MS`, `SIMULATOR_RECEIPT_DELAY_MS`) plus the channel-only variables of `channelsEnv`
 * (`OFFICIAL_API_VERSION`, `CHANNEL_PROVIDER_TIMEOUT_MS`, `QR_PROVIDER_PROXIES`, the webhook secrets).
 */
export function channelsSettingsFrom(
  config: Pick<ChannelsConfig, 'simulatorScanDelayMs' | 'qrProviderUrl' | 'qrProviderApiKey' | 'officialApiUrl' | 'simulatorReceiptDelayMs'>,
  env: NodeJS.ProcessEnv = process.env,
): ChannelsConfig {
  return {
    simulatorScanDelayMs: config.simulatorScanDelayMs,
    simulatorReceiptDelayMs: config.simulatorReceiptDelayMs ?? 1000,
    qrProviderUrl: config.qrProviderUrl,
    qrProviderApiKey: config.qrProviderApiKey,
    officialApiUrl: config.officialApiUrl,
    ...channelsEnv(env),
  };
}

/** The router over the simulator and whichever providers are configured. */
export function createChannelGateway(config: ChannelsConfig, deps: ChannelGatewayDeps): ChannelGatewayRouter {
  const simulator = new ChannelSimulator(
    { clock: deps.clock, ids: deps.ids, random: deps.random, store: deps.simulatorStore, windows: deps.conversationWindows },
    // One session read per number every 5 s instead of one per send (1,000+ sends a second at PACING_SCALE=0; a
    // number sending once a second read it before every send at 1 s). A logout recorded by another process is seen
    // within 5 s, as a real provider's ban shows on a later send; this process sees its own at once.
    { scanDelayMs: config.simulatorScanDelayMs, sessionCacheMs: 5_000 },
  );
  const qrProvider = config.qrProviderUrl
    ? new EvolutionGateway(
        { baseUrl: config.qrProviderUrl, apiKey: config.qrProviderApiKey, timeoutMs: config.providerTimeoutMs, proxies: config.qrProviderProxies ?? [] },
        deps.clock,
      )
    : null;
  const official = config.officialApiUrl
    ? new CloudApiGateway({ baseUrl: config.officialApiUrl, version: config.officialApiVersion, timeoutMs: config.providerTimeoutMs }, deps.clock)
    : null;
  return new ChannelGatewayRouter({ simulator, qrProvider, official });
}
