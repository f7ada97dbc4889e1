import { vacuumDatabase } from '../../modules/maintenance/index.js';
import { dbFileFrom } from '../../app/config.js';
import { POSTGRES_INSTEAD, requireDatabaseFile } from '../../db/location.js';
import { printJson, runWithDeps, type CommonOptions } from '../run.js';

interface VacuumOptions extends CommonOptions {
  full?: boolean;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `promo vacuum [--full]`: gives free space back to the disk; safe beside a running server without --full. */
export const vacuumCommand = (options: VacuumOptions) =>
  runWithDeps(options, async (deps) => {
    requireDatabaseFile(dbFileFrom(options.db), options.full ? 'vacuum --full' : 'vacuum', POSTGRES_INSTEAD.vacuum);
    const report = await vacuumDatabase(deps, { full: options.full });
    if (options.json) return printJson(report);
    process.stdout.write(
      `${mb(report.bytes_before)} -> ${mb(report.bytes_after)} (${report.pages_released} pages released) in ${report.ms} ms\n`,
    );
  });
