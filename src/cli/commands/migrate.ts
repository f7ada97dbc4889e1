import { isPostgresUrl } from '../../db/location.js';
import type { MigrateResult } from '../../db/migrations.js';
import { migrateFile } from '../../db/sqlite/migrate.js';
import { databaseToCreate } from '../mistakes.js';
import { printJson, runCommand, type CommonOptions } from '../run.js';

/** `promo migrate`: applies pending migrations, making the database file when there is none (a PostgreSQL database must exist). */
export const migrateCommand = (options: CommonOptions) =>
  runCommand(options, async (file) => {
    let result: MigrateResult;
    if (isPostgresUrl(file)) result = await (await import('../../db/postgres/migrate.js')).migratePostgres(file);
    else {
      databaseToCreate(file);
      result = migrateFile(file);
    }
    if (options.json) printJson(result);
    else if (result.applied.length === 0) process.stdout.write(`${file} is up to date (version ${result.version})\n`);
    else process.stdout.write(`applied ${result.applied.join(', ')}; ${file} is at version ${result.version}\n`);
  });
