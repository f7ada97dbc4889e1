import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * Statements of a transaction run straight on the writer, without Kysely's executor around
 * them (as db/direct-reads.ts does for reads outside transactions). Inside a transaction,
 * Kysely's connection provider, driver and plugin steps cost ~8 us a statement, several times
 * what SQLite takes for most of them, and a redemption runs about twenty (docs/performance.md "Hot paths").
 * Any engine may register such a runner; SQLite (db/sqlite/connect.ts) registers each transaction its handle begins, with a runner that answers only
 * while that transaction is the writer's open one: after its commit or rollback the runner
 * answers undefined and the caller goes through Kysely (which refuses a finished transaction).
 */
export type TransactionRunner = (sql: string, parameters: ReadonlyArray<unknown>) => unknown[] | undefined;

const transactions = new WeakMap<Kysely<Database>, TransactionRunner>();

export const registerTransaction = (trx: Kysely<Database>, runner: TransactionRunner): void => {
  transactions.set(trx, runner);
};

export const transactionRunner = (trx: Kysely<Database>): TransactionRunner | undefined => transactions.get(trx);
