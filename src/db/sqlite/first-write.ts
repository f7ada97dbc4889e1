import { AsyncLocalStorage } from 'node:async_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import type { FirstWrite } from '../engine.js';

/**
 * The first write (db/engine.ts FirstWrite) on SQLite: the request runs inside
 * `withFirstWrite`; the driver (db/sqlite/driver.ts) runs the pending write right after it
 * begins the request's first transaction, inside it, so both land in the same commit. The
 * write's statement runs on better-sqlite3 directly, as the driver holds Kysely's connection
 * while it begins.
 */
const pending = new AsyncLocalStorage<FirstWrite>();

/** Runs `fn` with `first` pending for its first transaction. */
export const withFirstWrite = <T>(first: FirstWrite, fn: () => Promise<T>): Promise<T> => pending.run(first, fn);

/** The first write pending for this request's first transaction, if one is. */
export const pendingFirstWrite = (): FirstWrite | undefined => pending.getStore();

/** Called by the driver just after a transaction began; `undo` ends it when the write throws. */
export function runFirstWrite(sqlite: BetterSqlite3.Database, undo: () => void): void {
  const first = pending.getStore();
  if (!first || first.done) return;
  const query = first.statement();
  try {
    sqlite.prepare(query.sql).run(query.parameters as unknown[]);
    first.done = true;
  } catch (error) {
    undo();
    throw first.refusal(error);
  }
}
