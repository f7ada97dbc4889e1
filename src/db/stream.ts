import { CompiledQuery } from 'kysely';
import { dialectOf } from './dialect.js';
import type { Db } from './engine.js';

/** A query that can be streamed: Kysely's SELECT builder. */
interface StreamableQuery<R> {
  compile(): CompiledQuery<R>;
  stream(chunkSize?: number): AsyncIterableIterator<R>;
}

let cursors = 0;

/**
 * The query's rows, `chunk` at a time, never all in memory. SQLite: better-sqlite3's iterate
 * (Kysely's stream). PostgreSQL: Kysely streams only through pg-cursor, which promo does not
 * ship, so a server-side cursor (`DECLARE ... CURSOR` and `FETCH`), which lives in the open
 * transaction: `db` must be one there.
 */
export async function* streamRows<R>(db: Db, query: StreamableQuery<R>, chunk: number): AsyncGenerator<R> {
  if (dialectOf(db).name === 'sqlite') {
    yield* query.stream(chunk);
    return;
  }
  if (!db.isTransaction) throw new Error('A PostgreSQL cursor needs an open transaction');
  const name = `promo_rows_${++cursors}`;
  const compiled = query.compile();
  await db.executeQuery(
    CompiledQuery.raw(`DECLARE ${name} NO SCROLL CURSOR FOR ${compiled.sql}`, [...compiled.parameters]),
  );
  try {
    for (;;) {
      const { rows } = await db.executeQuery<R>(CompiledQuery.raw(`FETCH ${chunk} FROM ${name}`));
      yield* rows;
      if (rows.length < chunk) return;
    }
  } finally {
    await db.executeQuery(CompiledQuery.raw(`CLOSE ${name}`));
  }
}
