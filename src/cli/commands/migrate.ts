import { dbFileFrom } from '../../app/config.js';
import { migrateFile } from '../../db/sqlite/migrate.js';
import { fail, printJson, type CommonOptions } from '../run.js';

export async function migrateCommand(options: CommonOptions): Promise<void> {
  const file = dbFileFrom(options.db);
  try {
    const result = migrateFile(file);
    if (options.json) printJson(result);
    else if (result.applied.length === 0) process.stdout.write(`${file} is up to date (version ${result.version})\n`);
    else process.stdout.write(`applied ${result.applied.join(', ')}; ${file} is at version ${result.version}\n`);
  } catch (error) {
    fail(error);
  }
}
