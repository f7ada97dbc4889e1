import { backupDatabase, restoreDatabase } from '../../modules/maintenance/backup.service.js';
import { requireDatabase, requireFolderOf } from '../mistakes.js';
import { printJson, runCommand, type CommonOptions } from '../run.js';

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `promo backup <file>`: an online, checked copy beside a running server. */
export const backupCommand = (target: string, options: CommonOptions) =>
  runCommand(options, async (dbFile) => {
    requireDatabase(dbFile);
    requireFolderOf(target);
    const report = await backupDatabase(dbFile, target);
    if (options.json) return printJson(report);
    process.stdout.write(`${report.file}: ${mb(report.bytes)}, schema version ${report.version}, integrity ok, in ${report.ms} ms\n`);
  });

/** `promo restore <file>`: puts a backup in place of the database; refused while it is open. */
export const restoreCommand = (source: string, options: CommonOptions) =>
  runCommand(options, (dbFile) => {
    const report = restoreDatabase(source, dbFile);
    if (options.json) return printJson(report);
    const kept = report.replaced ? `; the database it replaced is kept as ${report.replaced}` : '';
    process.stdout.write(`${report.file} restored from ${report.from} (${mb(report.bytes)}, schema version ${report.version}) in ${report.ms} ms${kept}\n`);
  });
