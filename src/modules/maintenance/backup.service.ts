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

/** A key the backup holds active that the replaced database had revoked, or did not have. */
export interface ReturningKey {
  app_id: string;
  kind: string;
  name: string;
  /** In the replaced database: revoked (at `revoked_at`) or absent. */
  in_replaced: 'revoked' | 'absent';
  revoked_at: string | null;
}

export interface RestoreReport {
  file: string;
  from: string;
  /** Where the database that was replaced now lies (nothing is deleted), or null. */
  replaced: string | null;
  bytes: number;
  version: number;
  ms: number;
  /** Returning keys revoked again in the restored database (their revocation time kept). */
  revoked_keys: ReturningKey[];
  /** Returning keys left active, as `keepKeys` asked. */
  kept_keys: ReturningKey[];
}

export interface RestoreOptions {
  /** Leave keys active that the replaced database had revoked (or did not have). */
  keepKeys?: boolean;
  now?: Date;
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
  if (existsSync(target))
    throw new AppError('file_exists', `${target} already exists; choose a new name for the backup`);
  const partial = `${target}.partial`;
  removeWithSideFiles(partial);
  try {
    const pages = await repo.copyLive(dbFile, partial);
    const check = repo.checkCopy(partial, { settle: true });
    if (check.integrity !== 'ok')
      throw new AppError('invalid_backup', `The copy failed its integrity check: ${check.integrity}`);
    renameSync(partial, target);
    return {
      file: target,
      bytes: statSync(target).size,
      pages,
      version: check.version,
      integrity: 'ok',
      ms: Date.now() - started,
    };
  } finally {
    removeWithSideFiles(partial);
  }
}

const refuseInUse = (target: string): void => {
  if (existsSync(target) && repo.isInUse(target)) {
    throw new AppError(
      'database_in_use',
      `A process has ${target} open (promo serve, a worker or a command); stop it before promo restore`,
    );
  }
};

/**
 * Keys the backup holds active that `target` had revoked or did not have at all: a key
 * revoked because it leaked must not come back with an old backup, nor one from another
 * installation's backup.
 */
function returningKeys(target: string, incoming: string): ReturningKey[] {
  if (!existsSync(target)) return [];
  const replaced = new Map(repo.readKeys(target).map((key) => [key.app_id, key]));
  // A database that never had a key (one `promo migrate` made for the restore) has no say.
  if (replaced.size === 0) return [];
  return repo.readKeys(incoming).flatMap((key) => {
    const there = replaced.get(key.app_id);
    if (key.revoked_at !== null || (there && there.revoked_at === null)) return [];
    return [
      {
        app_id: key.app_id,
        kind: key.kind,
        name: key.name,
        in_replaced: there ? ('revoked' as const) : ('absent' as const),
        revoked_at: there?.revoked_at ?? null,
      },
    ];
  });
}

/**
 * `promo restore <backup>`: puts a checked backup in place of the database file. Refused at
 * once while any process has the database open: before the backup is read, since checking a
 * large one takes seconds, and again just before the swap. The replaced file is kept beside
 * it, renamed, never deleted. Keys it had revoked come back revoked unless `keepKeys`. The
 * next `promo serve` migrates a backup made by an older promo.
 */
export function restoreDatabase(source: string, target: string, options: RestoreOptions = {}): RestoreReport {
  const started = Date.now();
  const now = options.now ?? new Date();
  refuseInUse(target);
  const version = checkBackup(source);
  const incoming = `${target}.restoring`;
  copyFileSync(source, incoming);
  try {
    const returning = returningKeys(target, incoming);
    if (!options.keepKeys)
      repo.revokeKeys(
        incoming,
        returning.map((key) => ({ app_id: key.app_id, revoked_at: key.revoked_at ?? now.toISOString() })),
      );
    refuseInUse(target);
    let replaced: string | null = null;
    if (existsSync(target)) {
      replaced = `${target}.replaced-${now.toISOString().replace(/[:.]/g, '-')}`;
      renameSync(target, replaced);
    }
    for (const side of SIDE_FILES) rmSync(`${target}${side}`, { force: true });
    renameSync(incoming, target);
    const [revoked_keys, kept_keys] = options.keepKeys ? [[], returning] : [returning, []];
    return {
      file: target,
      from: source,
      replaced,
      bytes: statSync(target).size,
      version,
      ms: Date.now() - started,
      revoked_keys,
      kept_keys,
    };
  } finally {
    removeWithSideFiles(incoming);
  }
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
  if (check.integrity !== 'ok')
    throw new AppError('invalid_backup', `${source} failed its integrity check: ${check.integrity}`);
  if (check.version < 0)
    throw new AppError('invalid_backup', `${source} is not a promo database (it has no schema_migrations)`);
  const newest = loadMigrations().at(-1)?.version ?? 0;
  if (check.version > newest)
    throw new AppError(
      'invalid_backup',
      `${source} is at schema version ${check.version}, newer than this promo knows (${newest}); upgrade promo first`,
    );
  return check.version;
}

function removeWithSideFiles(file: string): void {
  for (const suffix of ['', ...SIDE_FILES]) rmSync(`${file}${suffix}`, { force: true });
}
