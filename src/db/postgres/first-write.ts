import { AsyncLocalStorage } from 'node:async_hooks';
import type { FirstWrite, Tx } from '../engine.js';

/**
 * The first write (db/engine.ts FirstWrite) on PostgreSQL: the request runs inside
 * `withFirstWrite`; its first transaction runs the pending statement right after BEGIN
 * (db/postgres/connect.ts), so both commit together. A re-run of that transaction (a lost
 * race) runs it again: the undone attempt took its row with it.
 */
const pending = new AsyncLocalStorage<FirstWrite>();

export const withFirstWrite = <T>(first: FirstWrite, fn: () => Promise<T>): Promise<T> => pending.run(first, fn);

/** The first write still to run, if the transaction about to begin is the request's first. */
export const pendingFirstWrite = (): FirstWrite | undefined => {
  const first = pending.getStore();
  return first && !first.done ? first : undefined;
};

/** Runs `first`'s statement in `trx`, just begun; on every attempt of that transaction. */
export async function runFirstWrite(trx: Tx, first: FirstWrite): Promise<void> {
  try {
    await trx.executeQuery(first.statement());
  } catch (error) {
    throw first.refusal(error);
  }
  first.done = true;
}
