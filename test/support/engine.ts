import { join } from 'node:path';
import type { Deps } from '../../src/app/deps.js';
import { type DepsOptions, openDeps } from '../../src/root/create-deps.js';
import { freshDbFile, tempDir } from './db.js';
import { postgresForTests, type TestPostgres } from './postgres.js';

/**
 * Which engine the suite runs on: the one switch every way a test gets a database honours.
 *
 *   PROMO_TEST_ENGINE=postgres   the suite runs on PostgreSQL (unset or `sqlite`: on SQLite files)
 *   PROMO_TEST_DB=postgres://…   the server PostgreSQL databases are made on, in either pass (the
 *                                PostgreSQL-only tests use it on the SQLite pass too); unset: a
 *                                scratch cluster per test process (test/support/postgres.ts)
 *
 * Two variables because they answer two questions (which engine, which server): CI's SQLite pass
 * keeps the server for its PostgreSQL-only tests without being switched to PostgreSQL.
 */
export type TestEngine = 'sqlite' | 'postgres';

export function testEngine(): TestEngine {
  const named = process.env.PROMO_TEST_ENGINE ?? 'sqlite';
  if (named !== 'sqlite' && named !== 'postgres') {
    throw new Error(`PROMO_TEST_ENGINE must be sqlite or postgres, not ${named}`);
  }
  return named;
}

export const onPostgres = (): boolean => testEngine() === 'postgres';

/**
 * Test options for a test (or suite) that only makes sense on SQLite: skipped on the PostgreSQL
 * pass with the reason printed. The reason says what of SQLite the test looks at (the file,
 * WAL, a plan), never "fails on PostgreSQL": an API behaviour runs on both engines.
 */
export const sqliteOnly = (reason: string): { skip?: string } =>
  onPostgres() ? { skip: `SQLite only: ${reason}` } : {};

let server: Promise<TestPostgres> | undefined;

/** The one PostgreSQL server of this test process on the PostgreSQL pass; its databases are dropped when the process ends. */
function postgresOfProcess(): Promise<TestPostgres> {
  server ??= postgresForTests().then((found) => {
    if (found.skip !== false) throw new Error(`PROMO_TEST_ENGINE=postgres: ${found.skip}`);
    // beforeExit, not exit: dropping the databases is asynchronous. A scratch cluster also
    // stops on exit (test/support/postgres.ts) if this never runs.
    process.once('beforeExit', () => void found.server.close());
    return found.server;
  });
  return server;
}

/** A fresh, migrated database of the engine under test: a file path, or a postgres:// URL. */
export async function freshDatabase(): Promise<string> {
  if (!onPostgres()) return freshDbFile();
  return (await postgresOfProcess()).migratedDatabase();
}

/** A new, empty (unmigrated) database: a path where no file is yet, or an empty PostgreSQL database's URL. */
export async function emptyDatabase(newFilePath: () => string): Promise<string> {
  if (!onPostgres()) return newFilePath();
  return (await postgresOfProcess()).emptyDatabase();
}

/** Where a test's exports go: beside a SQLite file (undefined: the default), a temp folder for a URL (not the working directory). */
export const testExportsDir = (): string | undefined =>
  onPostgres() ? join(tempDir('promo-exports-'), 'exports') : undefined;

/** The Deps of a fresh database of the engine under test (openDeps: either engine). */
export async function openTestDeps(options: Omit<DepsOptions, 'dbFile'> = {}): Promise<Deps> {
  return openDeps({ exportsDir: testExportsDir(), ...options, dbFile: await freshDatabase() });
}
