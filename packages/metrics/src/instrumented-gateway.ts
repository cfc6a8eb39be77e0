import type { ChannelGateway, SendRequest, SendResult } from '@carteiro/core';
import type { ProcessMetrics } from './process-metrics.js';

/**
 * The channel gateway with every `send` counted by outcome and timed: one counter increment and one
 * histogram observation per send, in memory. Every other call goes straight to the gateway (a proxy,
 * so that gateways with extra members, such as the test fakes, keep them).
 */
export function instrumentGateway(gateway: ChannelGateway, metrics: ProcessMetrics): ChannelGateway {
  const send = async (request: SendRequest): Promise<SendResult> => {
    const started = performance.now();
    try {
      const result = await gateway.send(request);
      metrics.channelSend(result.ok ? 'sent' : result.code, (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      metrics.channelSend('exception', (performance.now() - started) / 1000);
      throw error;
    }
  };
  return new Proxy(gateway, {
    get(target, property) {
      if (property === 'send') return send;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
