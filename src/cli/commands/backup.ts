import {
  backupDatabase,
  restoreDatabase,
  type RestoreReport,
  type ReturningKey,
} from '../../modules/maintenance/index.js';
import { POSTGRES_INSTEAD, requireDatabaseFile } from '../../db/location.js';
import { databaseToCreate, requireDatabase, requireFolderOf } from '../mistakes.js';
import { printJson, runCommand, type CommonOptions } from '../run.js';

interface RestoreOptions extends CommonOptions {
  keepKeys?: boolean;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `promo backup <file>`: an online, checked copy beside a running server. */
export const backupCommand = (target: string, options: CommonOptions) =>
  runCommand(options, async (dbFile) => {
    requireDatabaseFile(dbFile, 'backup', POSTGRES_INSTEAD.backup);
    requireDatabase(dbFile);
    requireFolderOf(target);
    const report = await backupDatabase(dbFile, target);
    if (options.json) return printJson(report);
    process.stdout.write(
      `${report.file}: ${mb(report.bytes)}, schema version ${report.version}, integrity ok, in ${report.ms} ms\n`,
    );
  });

const keyLines = (keys: ReturningKey[]): string =>
  keys
    .map(
      (key) =>
        `  ${key.app_id}  ${key.kind}  ${key.name}  (${key.in_replaced === 'revoked' ? `revoked at ${key.revoked_at}` : 'absent'} in the replaced database)\n`,
    )
    .join('');

/** What became of the keys the backup would have brought back. */
function keysNote(report: RestoreReport): string {
  if (report.revoked_keys.length > 0) {
    return `revoked again ${report.revoked_keys.length} key(s) that the replaced database had revoked or did not have (--keep-keys leaves them active):\n${keyLines(report.revoked_keys)}`;
  }
  if (report.kept_keys.length > 0) {
    return `kept active, as --keep-keys asked, ${report.kept_keys.length} key(s) that the replaced database had revoked or did not have:\n${keyLines(report.kept_keys)}`;
  }
  return '';
}

/**
 * `promo restore <file>`: puts a backup in place of the database; refused while it is open.
 * Keys revoked since the backup (or absent from the database it replaces) are revoked again
 * and listed, unless --keep-keys. A missing database is made from the backup: restoring onto
 * a new machine is what restore is for.
 */
export const restoreCommand = (source: string, options: RestoreOptions) =>
  runCommand(options, (dbFile) => {
    requireDatabaseFile(dbFile, 'restore', POSTGRES_INSTEAD.backup);
    const created = databaseToCreate(dbFile);
    const report = restoreDatabase(source, dbFile, { keepKeys: options.keepKeys });
    if (options.json) return printJson(report);
    const kept = report.replaced
      ? `; the database it replaced is kept as ${report.replaced}`
      : created
        ? '; there was no database there before'
        : '';
    process.stdout.write(
      `${report.file} restored from ${report.from} (${mb(report.bytes)}, schema version ${report.version}) in ${report.ms} ms${kept}\n${keysNote(report)}`,
    );
  });
