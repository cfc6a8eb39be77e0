import { Clock, IdGenerator, Random } from '@carteiro/core';
import { ContainerModule } from 'inversify';
import { CryptoRandom, SystemClock, UuidGenerator } from './system-adapters.js';
import type { Config } from './config.js';

/** The process's configuration. */
export const AppConfig = Symbol.for('carteiro.Config');

/** The real clock, UUIDs and secure randomness, plus the configuration. Tests rebind Clock to a manual one. */
export function systemModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(AppConfig).toConstantValue(config);
    bind<Clock>(Clock).toConstantValue(new SystemClock());
    bind<IdGenerator>(IdGenerator).toConstantValue(new UuidGenerator());
    bind<Random>(Random).toConstantValue(new CryptoRandom());
  });
}
