import type { Kysely } from 'kysely';

/** Tables of the messages feature. Forward-only: a released migration is never edited, a new one is added. */
export async function up(_db: Kysely<unknown>): Promise<void> {}
