import { ChannelGateway, DispatchObserver } from '@carteiro/core';
import { ContainerModule } from 'inversify';
import { instrumentGateway } from './instrumented-gateway.js';
import type { ProcessMetrics } from './process-metrics.js';

/** The process's `ProcessMetrics` (one per process: the combined server gives the same one to the API and the worker). */
export const Metrics = Symbol.for('carteiro.Metrics');

/**
 * Binds the process's metrics and their ports: the core's `DispatchObserver`, and every `ChannelGateway`
 * the container hands out wrapped by `instrumentGateway` (an activation hook, so that a gateway a test
 * rebinds is counted too).
 */
export function metricsModule(metrics: ProcessMetrics): ContainerModule {
  return new ContainerModule(({ bind, onActivation }) => {
    bind(Metrics).toConstantValue(metrics);
    bind<DispatchObserver>(DispatchObserver).toConstantValue(metrics.dispatchObserver);
    onActivation<ChannelGateway>(ChannelGateway, (_context, gateway) => instrumentGateway(gateway, metrics));
  });
}
