import type { Kysely } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { Database } from '../../db/database.js';

/**
 * Deletes the stored answers that mention `text`. No index serves a search inside bodies: it
 * reads the table, which holds at most a day of keyed requests.
 */
export async function deleteAnswersMentioning(db: Kysely<Database>, text: string): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where(dialectOf(db).contains('body', text)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
