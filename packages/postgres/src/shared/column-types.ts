import type { ColumnType } from 'kysely';

/** A `timestamptz` column: read as a Date, written as a Date or an ISO string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** A `bigint` column, read as a number (see `db.ts`). */
export type BigInt = ColumnType<number, number, number>;

/** A `jsonb` column read as `T` and written as its JSON text (`JSON.stringify`). */
export type Json<T = unknown> = ColumnType<T, string, string>;
