import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * SQLite's `PRAGMA data_version` read straight from a handle's reader connection, without
 * Kysely's executor around it (README "Hot paths": authentication reads it on every request).
 * Registered by db/connect.ts for handles with a reader connection only: there every SELECT
 * outside a transaction runs on the reader already, so this reads the same connection's value
 * as the query it replaces. Anything else (a transaction, a handle without a reader, whose
 * reads wait for the writer's turn) has none, and its callers run the query.
 */
const readers = new WeakMap<Kysely<Database>, () => number>();

export const registerDataVersion = (db: Kysely<Database>, read: () => number): void => {
  readers.set(db, read);
};

export const dataVersionReader = (db: Kysely<Database>): (() => number) | undefined => readers.get(db);
