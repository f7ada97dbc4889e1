import type { SelectQueryBuilder } from 'kysely';
import type { DynamicSchema } from './database.js';

/** Where a newest-first walk stands: strictly before this (created_at, seq). */
export interface WalkPosition {
  created_at: string;
  seq: number;
}

/**
 * A batch of a newest-first walk over `table`'s (created_at, seq): created before `createdBefore`
 * (a page cursor), strictly past `after` (where the last batch ended: a range on created_at the
 * index walks from, then that instant's rows below its seq), `limit` rows. The caller's index
 * must end with (created_at) and the table's rowid (seq).
 */
export function newestFirst<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  table: string,
  walk: { createdBefore: string | null; after: WalkPosition | null; limit: number },
): SelectQueryBuilder<DB, TB, O> {
  // Kysely cannot type a column of a table named at run time: the references are built as strings.
  const q = query as unknown as SelectQueryBuilder<DynamicSchema, string, O>;
  const createdAt = `${table}.created_at`;
  const seq = `${table}.seq`;
  let out = walk.createdBefore === null ? q : q.where(createdAt, '<', walk.createdBefore);
  const after = walk.after;
  if (after)
    out = out
      .where(createdAt, '<=', after.created_at)
      .where((eb) => eb.or([eb(createdAt, '<', after.created_at), eb(seq, '<', after.seq)]));
  return out.orderBy(createdAt, 'desc').orderBy(seq, 'desc').limit(walk.limit) as unknown as SelectQueryBuilder<
    DB,
    TB,
    O
  >;
}
