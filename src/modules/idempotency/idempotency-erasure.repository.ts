import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';

/**
 * Deletes the stored answers that mention `text`. No index serves a search inside bodies: it
 * reads the table, which holds at most a day of keyed requests. Raw SQL for instr().
 */
export async function deleteAnswersMentioning(db: Kysely<Database>, text: string): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where(sql<number>`instr(body, ${text})`, '>', 0)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
