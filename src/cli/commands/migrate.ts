import { migrateFile } from '../../db/sqlite/migrate.js';
import { databaseToCreate } from '../mistakes.js';
import { printJson, runCommand, type CommonOptions } from '../run.js';

/** `promo migrate`: applies pending migrations, making the database file when there is none. */
export const migrateCommand = (options: CommonOptions) =>
  runCommand(options, (file) => {
    databaseToCreate(file);
    const result = migrateFile(file);
    if (options.json) printJson(result);
    else if (result.applied.length === 0) process.stdout.write(`${file} is up to date (version ${result.version})\n`);
    else process.stdout.write(`applied ${result.applied.join(', ')}; ${file} is at version ${result.version}\n`);
  });
