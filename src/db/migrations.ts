import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../lib/errors.js';

/** Each engine's migrations: sql/sqlite/ and sql/postgres/, one number meaning one change on both. */
export const migrationsFolder = (engine: 'sqlite' | 'postgres'): string =>
  fileURLToPath(new URL(`../../sql/${engine}/`, import.meta.url));

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The migrations in `dir`: NNNN_<what>.sql, in order. */
export function migrationsIn(dir: string): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.replace(/\.sql$/, ''),
      sql: readFileSync(join(dir, file), 'utf8'),
    }));
}

export interface MigrateResult {
  applied: string[];
  version: number;
}

/** A database written by a newer binary is refused: this one does not know its schema. */
export function refuseNewer(found: number, migrations: readonly Migration[]): void {
  const latestKnown = migrations.at(-1)?.version ?? 0;
  if (found > latestKnown)
    throw new AppError(
      'schema_too_new',
      `The database is at schema version ${found}, but this promo knows only up to ${latestKnown}. Upgrade promo to open it.`,
    );
}
