import { ChannelGateway, Clock, IdGenerator, Random, Repositories } from '@carteiro/core';
import { createChannelGateway } from '@carteiro/channels';
import { KyselyChannelSimulatorStore, type Database, type ServiceRepositories } from '@carteiro/postgres';
import { ContainerModule } from 'inversify';
import type { Kysely } from 'kysely';

/** The simulator as the channel gateway, its outbox in the test's database. */
export function simulatorOverride(db: Kysely<Database>): ContainerModule {
  return new ContainerModule(({ bind, isBound }) => {
    if (isBound(ChannelGateway)) return;
    bind(ChannelGateway)
      .toResolvedValue(
        (clock: Clock, ids: IdGenerator, random: Random, repos: ServiceRepositories) =>
          createChannelGateway(
            { simulatorScanDelayMs: 0 },
            { clock, ids, random, simulatorStore: new KyselyChannelSimulatorStore(db), conversationWindows: repos.conversationWindows },
          ),
        [Clock, IdGenerator, Random, Repositories],
      )
      .inSingletonScope();
  });
}

