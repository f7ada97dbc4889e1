import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import type { QueryStats } from '../engine.js';
import { rowsOf } from './raw-rows.js';

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every statement anew; preparing costs about as much as running a simple
 * query. This wrapper caches statements by SQL text (with the object Kysely calls, so a run
 * creates no closures: tsx wraps each one it creates to keep its name). A cached statement
 * cannot serve two iterations at once, so streamed reads (`iterate`) always prepare their own.
 */
export function withStatementCache(
  sqlite: BetterSqlite3.Database,
  stats: QueryStats = { statements: 0, compiles: 0 },
): SqliteDatabase {
  type Cached = ReturnType<SqliteDatabase['prepare']>;
  const cache = new Map<string, Cached>();
  const wrap = (sql: string, stmt: BetterSqlite3.Statement): Cached => ({
    reader: stmt.reader,
    // better-sqlite3 binds an array's elements as the anonymous parameters.
    all: stmt.reader ? rowsOf(stmt, stats) : (parameters: ReadonlyArray<unknown>) => stmt.all(parameters as unknown[]),
    run: (parameters: ReadonlyArray<unknown>) => {
      stats.statements++;
      return stmt.run(parameters as unknown[]);
    },
    iterate: (parameters: ReadonlyArray<unknown>) => {
      stats.statements++;
      return sqlite.prepare(sql).iterate(parameters as unknown[]);
    },
  });
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let cached = cache.get(sql);
      if (!cached) {
        cached = wrap(sql, sqlite.prepare(sql));
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
        cache.set(sql, cached);
      }
      return cached;
    },
  };
}
