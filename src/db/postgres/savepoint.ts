import { sql } from 'kysely';
import type { Tx } from '../engine.js';

/** Runs `fn` in the savepoint `name` of `trx`: on a throw, its writes are undone and the transaction stays usable. */
export async function inSavepoint<T>(trx: Tx, name: string, fn: () => Promise<T>): Promise<T> {
  await sql.raw(`SAVEPOINT ${name}`).execute(trx);
  try {
    const value = await fn();
    await sql.raw(`RELEASE SAVEPOINT ${name}`).execute(trx);
    return value;
  } catch (error) {
    await sql.raw(`ROLLBACK TO SAVEPOINT ${name}`).execute(trx);
    await sql.raw(`RELEASE SAVEPOINT ${name}`).execute(trx);
    throw error;
  }
}
