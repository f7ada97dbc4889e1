import type { CompiledQuery, Kysely } from 'kysely';
import type { Deps } from '../../src/app/deps.js';
import type { Database } from '../../src/db/database.js';
import { kyselyOver } from '../../src/db/postgres/connect.js';
import type { PostgresEngine } from '../../src/db/postgres/engine.js';
import { onPostgres } from './engine.js';
import { recordingKysely } from './query-plans.js';
import { sqliteOf } from './sqlite.js';

/**
 * A query builder on the database of `deps` that hands every statement it runs to `sink`, as
 * the engine under test compiles it: SQLite's connection (recordingKysely), or on PostgreSQL a
 * second builder over the engine's own pool. For tests that count what a service runs.
 */
export function recordingDb(deps: Pick<Deps, 'engine'>, sink: (query: CompiledQuery) => void): Kysely<Database> {
  if (!onPostgres()) return recordingKysely(sqliteOf(deps), sink);
  const engine = deps.engine as PostgresEngine;
  return kyselyOver(engine.pool, engine.columns, {
    log: (event) => {
      if (event.level === 'query') sink(event.query);
    },
  });
}
