import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { loadMigrations } from '../../db/sqlite/migrate.js';
import { AppError } from '../../lib/errors.js';
import * as repo from './backup.repository.js';

export interface BackupReport {
  file: string;
  bytes: number;
  pages: number;
  /** The copy's schema version (its newest migration). */
  version: number;
  integrity: 'ok';
  ms: number;
}

export interface RestoreReport {
  file: string;
  from: string;
  /** Where the database that was replaced now lies (nothing is deleted), or null. */
  replaced: string | null;
  bytes: number;
  version: number;
  ms: number;
}

const SIDE_FILES = ['-wal', '-shm', '-journal'];

/**
 * `promo backup <file>`: an online copy of the live database, consistent to one moment, while
 * servers and workers keep writing. It is written beside the target, checked page by page, and
 * only then moved to its name, so a file under that name is always a whole, checked backup.
 * The database is opened without migrating it: a backup taken before an upgrade holds the
 * schema the old promo wrote.
 */
export async function backupDatabase(dbFile: string, target: string): Promise<BackupReport> {
  const started = Date.now();
  if (!existsSync(dbFile)) throw new AppError('invalid_backup', `${dbFile} does not exist: nothing to back up`);
  if (existsSync(target)) throw new AppError('file_exists', `${target} already exists; choose a new name for the backup`);
  const partial = `${target}.partial`;
  removeWithSideFiles(partial);
  try {
    const pages = await repo.copyLive(dbFile, partial);
    const check = repo.checkCopy(partial, { settle: true });
    if (check.integrity !== 'ok') throw new AppError('invalid_backup', `The copy failed its integrity check: ${check.integrity}`);
    renameSync(partial, target);
    return { file: target, bytes: statSync(target).size, pages, version: check.version, integrity: 'ok', ms: Date.now() - started };
  } finally {
    removeWithSideFiles(partial);
  }
}

/**
 * `promo restore <backup>`: puts a checked backup in place of the database file. Refused while
 * any process has the database open; the replaced file is kept beside it, renamed, never
 * deleted. The next `promo serve` migrates a backup made by an older promo.
 */
export function restoreDatabase(source: string, target: string, now: Date = new Date()): RestoreReport {
  const started = Date.now();
  const version = checkBackup(source);
  if (existsSync(target) && repo.isInUse(target)) {
    throw new AppError('database_in_use', `A process has ${target} open (promo serve, a worker or a command); stop it before promo restore`);
  }
  const incoming = `${target}.restoring`;
  copyFileSync(source, incoming);
  let replaced: string | null = null;
  if (existsSync(target)) {
    replaced = `${target}.replaced-${now.toISOString().replace(/[:.]/g, '-')}`;
    renameSync(target, replaced);
  }
  for (const side of SIDE_FILES) rmSync(`${target}${side}`, { force: true });
  renameSync(incoming, target);
  return { file: target, from: source, replaced, bytes: statSync(target).size, version, ms: Date.now() - started };
}

/** A restorable backup: a whole SQLite file of promo's, no newer than this binary. */
function checkBackup(source: string): number {
  if (!existsSync(source)) throw new AppError('invalid_backup', `${source} does not exist`);
  let check: repo.CopyCheck;
  try {
    check = repo.checkCopy(source, { settle: false });
  } catch (error) {
    throw new AppError('invalid_backup', `${source} is not a SQLite database: ${(error as Error).message}`);
  }
  if (check.integrity !== 'ok') throw new AppError('invalid_backup', `${source} failed its integrity check: ${check.integrity}`);
  if (check.version < 0) throw new AppError('invalid_backup', `${source} is not a promo database (it has no schema_migrations)`);
  const newest = loadMigrations().at(-1)?.version ?? 0;
  if (check.version > newest) throw new AppError('invalid_backup', `${source} is at schema version ${check.version}, newer than this promo knows (${newest}); upgrade promo first`);
  return check.version;
}

function removeWithSideFiles(file: string): void {
  for (const suffix of ['', ...SIDE_FILES]) rmSync(`${file}${suffix}`, { force: true });
}
