import type { Kysely, Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001-foundation.js';
import * as m0002 from './0002-channel.js';
import * as m0003 from './0003-messages.js';
import * as m0004 from './0004-campaigns.js';
import * as m0005 from './0005-webhooks.js';

type ForwardOnly = { up(db: Kysely<unknown>): Promise<void> };

/** Every migration in order. Listed statically so that builds and tests need no file-system scan. */
const migrations: Record<string, ForwardOnly> = {
  '0001-foundation': m0001,
  '0002-channel': m0002,
  '0003-messages': m0003,
  '0004-campaigns': m0004,
  '0005-webhooks': m0005,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  },
};
