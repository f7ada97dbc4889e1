import type { CompiledQuery, Kysely, Transaction } from 'kysely';
import type { Database } from './database.js';

/** The query builder over promo's schema: a function that runs as well outside a transaction as inside one takes this. */
export type Db = Kysely<Database>;

/**
 * An open transaction. A function that must run inside one (its writes commit with the
 * caller's, its reads see the caller's writes, or it relies on the write lock the transaction
 * holds) takes this: passing the root handle is a type error.
 */
export type Tx = Transaction<Database>;

/** A statement prepared once and run many times inside the open transaction: bulk inserts. */
export interface BulkStatement {
  /** Runs it with these parameters; returns the rows it changed. */
  run(parameters: readonly unknown[]): number;
}

/** How much room the database takes and how much of it is free (engine units: pages). */
export interface SpaceFigures {
  pageSize: number;
  pageCount: number;
  freePages: number;
  autoVacuum: 'NONE' | 'FULL' | 'INCREMENTAL';
}

/**
 * A write that must commit together with a request's own first write, or not at all: the
 * idempotency key's row. The engine runs `statement` right after the request's first
 * transaction begins, inside it; if it fails (the key is taken) the transaction is undone and
 * the caller gets `refusal(error)`.
 */
export interface FirstWrite {
  /** The statement, compiled for this engine. */
  statement(): CompiledQuery;
  /** What the caller sees when the statement fails. */
  refusal(error: unknown): unknown;
  /** Set once the statement ran inside a transaction. */
  done: boolean;
}

/** Upkeep of the database's storage: `promo vacuum`, permanent deletion. */
export interface StorageUpkeep {
  space(): SpaceFigures;
  /** Gives up to `pages` free pages back to the file system, inside the caller's write transaction. */
  releaseFreePages(trx: Tx, pages: number): void;
  /** Rewrites the whole database at once; refused (database_in_use) while anyone else writes. */
  rewriteWhole(): void;
  /** Lets the write-ahead log restart empty, so no freed page lingers in it. */
  emptyLog(): void;
  /** Runs `fn` with freed space overwritten, not merely released (a permanent deletion). */
  erasingFreedSpace<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * The one port to the database engine. Everything a service or job step needs beyond Kysely's
 * builder goes through it; the SQLite engine (db/sqlite/engine.ts) implements it, a second
 * engine implements the same.
 */
export interface DatabaseEngine {
  readonly db: Db;
  /** Runs `fn` in a savepoint of `trx`: on a throw, its writes are undone and the transaction's others kept. */
  inSavepoint<T>(trx: Tx, fn: () => Promise<T>): Promise<T>;
  /** A bulk statement for `query`'s SQL (its parameters ignored), prepared once per connection. */
  prepareBulk(query: CompiledQuery): BulkStatement;
  /** Runs `fn` with `first` pending for its first transaction. */
  withFirstWrite<T>(first: FirstWrite, fn: () => Promise<T>): Promise<T>;
  /** Shrinks this connection's cache while a large staging runs; the returned function restores it. */
  shrinkCache(): () => void;
  readonly storage: StorageUpkeep;
  close(): Promise<void>;
}
