import { dbFileFrom } from '../../app/config.js';
import { backupDatabase, restoreDatabase } from '../../modules/maintenance/backup.service.js';
import { fail, printJson, type CommonOptions } from '../run.js';

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `promo backup <file>`: an online, checked copy beside a running server. */
export async function backupCommand(target: string, options: CommonOptions): Promise<void> {
  try {
    const report = await backupDatabase(dbFileFrom(options.db), target);
    if (options.json) return printJson(report);
    process.stdout.write(`${report.file}: ${mb(report.bytes)}, schema version ${report.version}, integrity ok, in ${report.ms} ms\n`);
  } catch (error) {
    fail(error);
  }
}

/** `promo restore <file>`: puts a backup in place of the database; refused while it is open. */
export async function restoreCommand(source: string, options: CommonOptions): Promise<void> {
  try {
    const report = restoreDatabase(source, dbFileFrom(options.db));
    if (options.json) return printJson(report);
    const kept = report.replaced ? `; the database it replaced is kept as ${report.replaced}` : '';
    process.stdout.write(`${report.file} restored from ${report.from} (${mb(report.bytes)}, schema version ${report.version}) in ${report.ms} ms${kept}\n`);
  } catch (error) {
    fail(error);
  }
}
