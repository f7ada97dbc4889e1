import { AppError } from '../lib/errors.js';

/**
 * Where the database is: `--db` / PROMO_DB name a SQLite file by its path, or a PostgreSQL
 * database by a `postgres://` or `postgresql://` URL.
 */
export const isPostgresUrl = (location: string): boolean => /^postgres(ql)?:\/\//i.test(location);

/**
 * Commands that copy or replace the database file (backup, restore) have no meaning for a
 * PostgreSQL server's database: refused, with the tools that do it there.
 */
export function requireDatabaseFile(location: string, command: string): void {
  if (isPostgresUrl(location))
    throw new AppError(
      'file_database_only',
      `promo ${command} works on a SQLite database file; for PostgreSQL use pg_dump / pg_restore, or pgBackRest for continuous backups`,
    );
}
