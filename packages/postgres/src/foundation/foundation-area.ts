import * as m0001 from './0001-foundation.js';
import * as m0006 from './0006-field-fixes.js';
import * as m0013 from './0013-company-overrides.js';
import { postgresArea } from '../shared/postgres-area.js';
import { KyselyApiKeyRepository } from './kysely-api-key-repository.js';
import { KyselyCompanyRepository } from './kysely-company-repository.js';
import { KyselySetorRepository } from './kysely-setor-repository.js';
import { KyselyTeamRepository } from './kysely-team-repository.js';
import { KyselyUsageRepository } from './kysely-usage-repository.js';

/** Companies, API keys, setores (setores), teams, daily usage and the rate-limit counters. */
export const foundationArea = postgresArea({
  migrations: { '0001-foundation': m0001, '0006-field-fixes': m0006, '0013-company-overrides': m0013 },
  repositories: (db) => ({
    companies: new KyselyCompanyRepository(db),
    apiKeys: new KyselyApiKeyRepository(db),
    setores: new KyselySetorRepository(db),
    teams: new KyselyTeamRepository(db),
    usage: new KyselyUsageRepository(db),
  }),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { FoundationTables } from './foundation-tables.js';
