import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * Reads run straight on a handle's reader connection, without Kysely's executor around them
 * (docs/performance.md "Hot paths": its connection provider, driver and plugin steps cost more than a
 * one-row SELECT itself). Any engine: an engine registers these for a handle it can serve so,
 * and a handle without them goes through Kysely. SQLite (db/sqlite/connect.ts) registers them for
 * handles with a reader connection only: there every SELECT outside a transaction runs on the reader already (db/sqlite/driver.ts), so
 * these run the same statement on the same connection, in the same per-tick snapshot. Anything
 * else (a transaction, a handle without a reader, whose reads wait for the writer's turn) has
 * none, and its callers go through Kysely.
 */
export interface DirectReads {
  /** A number that moves whenever anyone commits (SQLite: `PRAGMA data_version` on the reader connection). */
  dataVersion(): number;
  /** A compiled SELECT's rows. */
  select(sql: string, parameters: ReadonlyArray<unknown>): unknown[];
}

const handles = new WeakMap<Kysely<Database>, DirectReads>();

export const registerDirectReads = (db: Kysely<Database>, reads: DirectReads): void => {
  handles.set(db, reads);
};

export const directReads = (db: Kysely<Database>): DirectReads | undefined => handles.get(db);
