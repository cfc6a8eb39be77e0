import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/** A forward-only migration: Kysely runs `up` once, in name order across every area. */
export interface ForwardOnlyMigration {
  up(db: Kysely<unknown>): Promise<void>;
}

/**
 * What one area keeps in PostgreSQL: its migrations (named `NNNN-<what>`, the numbers global to
 * the service) and its repositories over one connection or transaction. `postgresAreas` in
 * `../areas.ts` lists them; the unit of work and the migrator are built from that list.
 */
export interface PostgresArea<Repositories extends object = object> {
  migrations: Record<string, ForwardOnlyMigration>;
  repositories(db: Kysely<Database>): Repositories;
}

/** Type helper: declares an area and keeps its repositories' exact type. */
export function postgresArea<Repositories extends object>(area: PostgresArea<Repositories>): PostgresArea<Repositories> {
  return area;
}
