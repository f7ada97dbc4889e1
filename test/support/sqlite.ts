import type BetterSqlite3 from 'better-sqlite3';
import type { Deps } from '../../src/app/deps.js';
import type { PostgresEngine } from '../../src/db/postgres/engine.js';
import { isPostgresUrl } from '../../src/db/location.js';
import { openSqlite } from '../../src/db/sqlite/connect.js';
import { sqliteEngineOf } from '../../src/db/sqlite/engine.js';
import { numberedPlaceholders, type PostgresRows, postgresRows } from './postgres-rows.js';

/**
 * The SQLite connection behind a Deps' engine, for tests that look at the rows directly
 * (counts, seeds, fingerprints, plans, pragmas). Services never get it: they go through the
 * engine's port.
 *
 * On the PostgreSQL pass (test/support/engine.ts) it answers the same statements on the
 * test's PostgreSQL database through a synchronous bridge (postgres-rows.ts): prepare() with
 * get/all/run/iterate/pluck/raw, exec() and transaction(). What only SQLite has (pragma(),
 * plans, SQLite's own SQL) throws there: such a test is marked sqliteOnly.
 */
export function sqliteOf(deps: Pick<Deps, 'engine'>): BetterSqlite3.Database {
  if ('sqlite' in deps.engine) return sqliteEngineOf(deps.engine).sqlite;
  const url = (deps.engine as PostgresEngine).pool.options.connectionString;
  if (!url) throw new Error('sqliteOf: this PostgreSQL engine has no connection string');
  return rowsDatabase(postgresRows(url)) as unknown as BetterSqlite3.Database;
}

/**
 * The rows of the database at `location` on a connection of the test's own: a SQLite file
 * (openSqlite), or a postgres:// URL through the bridge, whose close() leaves the bridge open.
 */
export function openRows(location: string): BetterSqlite3.Database {
  if (!isPostgresUrl(location)) return openSqlite(location);
  return { ...rowsDatabase(postgresRows(location)), close: () => undefined } as unknown as BetterSqlite3.Database;
}

/** Whether `sqlite` is the PostgreSQL bridge sqliteOf answers on the PostgreSQL pass. */
export const isPostgresBridge = (sqlite: unknown): sqlite is { rows: PostgresRows } =>
  typeof sqlite === 'object' && sqlite !== null && 'rows' in sqlite;

function statement(rows: PostgresRows, text: string, shape: { pluck?: boolean; raw?: boolean } = {}) {
  const run = (params: unknown[]) => {
    const { text: numbered, values } = numberedPlaceholders(text, params);
    return rows.query(numbered, values);
  };
  const shaped = (row: Record<string, unknown>, fields: string[]): unknown => {
    if (shape.pluck) return row[fields[0] as string];
    if (shape.raw) return fields.map((f) => row[f]);
    return row;
  };
  return {
    get: (...params: unknown[]) => {
      const reply = run(params);
      return reply.rows[0] === undefined ? undefined : shaped(reply.rows[0], reply.fields);
    },
    all: (...params: unknown[]) => {
      const reply = run(params);
      return reply.rows.map((row) => shaped(row, reply.fields));
    },
    iterate: (...params: unknown[]) => {
      const reply = run(params);
      return reply.rows.map((row) => shaped(row, reply.fields))[Symbol.iterator]();
    },
    run: (...params: unknown[]) => ({ changes: run(params).rowCount, lastInsertRowid: 0 }),
    pluck: (on = true) => statement(rows, text, { pluck: on }),
    raw: (on = true) => statement(rows, text, { raw: on }),
  };
}

const sqliteOnly = (what: string) => (): never => {
  throw new Error(`${what} is SQLite's own: this test looks at SQLite itself (mark it sqliteOnly)`);
};

function rowsDatabase(rows: PostgresRows) {
  return {
    rows,
    prepare: (text: string) => statement(rows, text),
    exec(text: string) {
      rows.query(text);
    },
    /** A function run between BEGIN and COMMIT on the bridge's connection, as better-sqlite3's transaction(). */
    transaction:
      <A extends unknown[], R>(fn: (...args: A) => R) =>
      (...args: A): R => {
        rows.query('BEGIN');
        try {
          const value = fn(...args);
          rows.query('COMMIT');
          return value;
        } catch (error) {
          rows.query('ROLLBACK');
          throw error;
        }
      },
    pragma: sqliteOnly('PRAGMA'),
    function: sqliteOnly('a user-defined SQL function'),
  };
}
