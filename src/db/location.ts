import { AppError } from '../lib/errors.js';

/**
 * Where the database is: `--db` / PROMO_DB name a SQLite file by its path, or a PostgreSQL
 * database by a `postgres://` or `postgresql://` URL.
 */
export const isPostgresUrl = (location: string): boolean => /^postgres(ql)?:\/\//i.test(location);

/** What to use on PostgreSQL instead of promo's commands that work on a database file. */
export const POSTGRES_INSTEAD = {
  backup: 'use pg_dump / pg_restore, or pgBackRest for continuous backups',
  vacuum: 'autovacuum keeps the tables; run VACUUM (ANALYZE), or VACUUM FULL in a maintenance window',
} as const;

/**
 * Commands that copy, replace or rewrite the database file (backup, restore, vacuum) have no
 * meaning for a PostgreSQL server's database: refused, with the tools that do it there.
 */
export function requireDatabaseFile(location: string, command: string, instead: string): void {
  if (isPostgresUrl(location))
    throw new AppError(
      'file_database_only',
      `promo ${command} works on a SQLite database file; on PostgreSQL ${instead}`,
    );
}
