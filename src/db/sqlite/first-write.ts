import { AsyncLocalStorage } from 'node:async_hooks';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * A write that must commit together with a request's own first write, or not at all: the
 * idempotency key's row (modules/idempotency). The request runs inside `withFirstWrite`; the
 * driver (db/sqlite/connect.ts) runs the pending write right after it begins the request's first
 * transaction, inside it, so both land in the same commit. If it throws (the key is taken),
 * the transaction is undone before it did anything else and the error reaches the caller.
 */
export interface FirstWrite {
  write(sqlite: BetterSqlite3.Database): void;
  /** Set once `write` ran inside a transaction. */
  done: boolean;
}

const pending = new AsyncLocalStorage<FirstWrite>();

/** Runs `fn` with `first` pending for its first transaction. */
export const withFirstWrite = <T>(first: FirstWrite, fn: () => Promise<T>): Promise<T> => pending.run(first, fn);

/** Called by the driver just after a transaction began; `undo` ends it when the write throws. */
export function runFirstWrite(sqlite: BetterSqlite3.Database, undo: () => void): void {
  const first = pending.getStore();
  if (!first || first.done) return;
  try {
    first.write(sqlite);
    first.done = true;
  } catch (error) {
    undo();
    throw error;
  }
}
