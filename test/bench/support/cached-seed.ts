import { existsSync, renameSync, rmSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqlite } from '../../../src/db/sqlite/connect.js';
import { migrate } from '../../../src/db/sqlite/migrate.js';
import { round } from './load.js';

/**
 * Builds a large benchmark database once and keeps it (the caller keys the file name by a
 * version string), so reruns skip seeding. Seeding runs without a journal and with the
 * tables' indexes dropped, then rebuilds them and runs ANALYZE; the file appears only when
 * complete (built under a temp name, then renamed).
 */
export function cachedSeed(
  dbFile: string,
  tables: readonly string[],
  seedRows: (sqlite: BetterSqlite3.Database) => void,
): { seconds: number; reused: boolean } {
  if (existsSync(dbFile)) return { seconds: 0, reused: true };
  const started = performance.now();
  const building = `${dbFile}.${process.pid}.tmp`;
  const sqlite = openSqlite(building, { synchronous: 'NORMAL' });
  try {
    migrate(sqlite);
    sqlite.pragma('journal_mode = OFF');
    sqlite.pragma('synchronous = OFF');
    sqlite.pragma('cache_size = -1000000');
    const indexes = sqlite
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => '?').join(', ')})`,
      )
      .all(...tables) as Array<{ name: string; sql: string }>;
    for (const index of indexes) sqlite.exec(`DROP INDEX ${index.name}`);
    seedRows(sqlite);
    for (const index of indexes) sqlite.exec(index.sql);
    sqlite.exec('ANALYZE');
    sqlite.pragma('journal_mode = WAL');
  } catch (error) {
    sqlite.close();
    rmSync(building, { force: true });
    throw error;
  }
  sqlite.close();
  renameSync(building, dbFile);
  return { seconds: round((performance.now() - started) / 1000, 1), reused: false };
}
