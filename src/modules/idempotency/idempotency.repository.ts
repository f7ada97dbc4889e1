import type { CompiledQuery, Kysely, Selectable } from 'kysely';
import type { IdempotencyKeyTable } from './idempotency.table.js';
import type { Db } from '../../db/engine.js';

export type IdempotencyRow = Selectable<IdempotencyKeyTable>;
export interface KeyRef {
  credential: string;
  key: string;
}

export const findKey = (db: Db, ref: KeyRef): Promise<IdempotencyRow | undefined> =>
  db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('credential', '=', ref.credential)
    .where('key', '=', ref.key)
    .executeTakeFirst();

/**
 * The insert of the key's row, compiled: the engine runs it inside the transaction it just
 * began (db/engine.ts FirstWrite). Fails with a unique-key error when the key is taken.
 */
export const insertKeyStatement = (db: Db, row: Omit<IdempotencyRow, 'status' | 'body'>): CompiledQuery =>
  db.insertInto('idempotency_keys').values(row).compile();

export const saveAnswer = async (db: Db, ref: KeyRef, status: number, body: string | null): Promise<void> => {
  await db
    .updateTable('idempotency_keys')
    .set({ status, body })
    .where('credential', '=', ref.credential)
    .where('key', '=', ref.key)
    .execute();
};

/**
 * Forgets the key if it is still expired (created before `before`): one guarded statement, so a
 * row that another request (another process) wrote since the expired one was read stays.
 */
export const deleteExpiredKey = async (db: Db, ref: KeyRef, before: string): Promise<void> => {
  await db
    .deleteFrom('idempotency_keys')
    .where('credential', '=', ref.credential)
    .where('key', '=', ref.key)
    .where('created_at', '<', before)
    .execute();
};

/**
 * Deletes keys created before `before`, at most about `limit` of them (the oldest: those
 * created at or before the limit-th oldest one's time). Returns how many went.
 */
export async function deleteExpired(db: Db, before: string, limit: number): Promise<number> {
  const nth = await db
    .selectFrom('idempotency_keys')
    .select('created_at')
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(1)
    .offset(limit - 1)
    .executeTakeFirst();
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', before)
    .$if(nth !== undefined, (q) => q.where('created_at', '<=', nth!.created_at))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
