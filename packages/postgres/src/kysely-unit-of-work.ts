import type { Repositories, UnitOfWork } from '@carteiro/core';
import type { Kysely } from 'kysely';
import { KyselyApiKeyRepository } from './repositories/kysely-api-key-repository.js';
import { KyselyChannelInstanceRepository } from './repositories/kysely-channel-instance-repository.js';
import { KyselyCompanyRepository } from './repositories/kysely-company-repository.js';
import { KyselyEventOutbox } from './repositories/kysely-event-outbox.js';
import { KyselySetorRepository } from './repositories/kysely-setor-repository.js';
import { KyselyTeamRepository } from './repositories/kysely-team-repository.js';
import { KyselyUsageRepository } from './repositories/kysely-usage-repository.js';
import type { Database } from './schema/database.js';

/** Every Kysely repository over one connection or transaction. */
export function kyselyRepositories(db: Kysely<Database>): Repositories {
  return {
    companies: new KyselyCompanyRepository(db),
    apiKeys: new KyselyApiKeyRepository(db),
    setores: new KyselySetorRepository(db),
    teams: new KyselyTeamRepository(db),
    usage: new KyselyUsageRepository(db),
    events: new KyselyEventOutbox(db),
    channelInstances: new KyselyChannelInstanceRepository(db),
  };
}

export class KyselyUnitOfWork implements UnitOfWork {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(kyselyRepositories(trx)));
  }
}
