import type { Migration, MigrationProvider } from 'kysely';
import { postgresAreas } from './areas.js';

/** Every area's migrations, in name order. Listed statically so that builds and tests need no file-system scan. */
export const migrationProvider: MigrationProvider = {
  async getMigrations(): Promise<Record<string, Migration>> {
    const all = postgresAreas.flatMap((area) => Object.entries(area.migrations));
    all.sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(all);
  },
};
