import type { Deps } from '../../app/deps.js';
import { AppError } from '../../lib/errors.js';
import * as repo from './maintenance.repository.js';

type MaintenanceDeps = Pick<Deps, 'db' | 'engine'>;

/** Pages handed back per transaction: a few milliseconds of write lock, so API writes barely wait. */
const PAGES_PER_STEP = 1024;

export interface VacuumReport {
  /** Bytes of the database file before and after (the WAL aside). */
  bytes_before: number;
  bytes_after: number;
  pages_released: number;
  ms: number;
}

const fileBytes = (space: repo.SpaceFigures): number => space.pageCount * space.pageSize;

/**
 * `promo vacuum`: gives free pages back to the file system in short IMMEDIATE transactions,
 * so a running server keeps answering between steps, then lets the WAL restart at zero bytes.
 * A database made before incremental vacuum existed needs one `full` rewrite first.
 */
export async function vacuumDatabase(
  deps: MaintenanceDeps,
  options: { full?: boolean; onStep?: (freeLeft: number) => void } = {},
): Promise<VacuumReport> {
  const started = Date.now();
  const before = repo.readSpace(deps.engine.storage);
  if (options.full) deps.engine.storage.rewriteWhole();
  else if (before.autoVacuum !== 'INCREMENTAL') {
    throw new AppError(
      'vacuum_needs_full',
      'This database was created before online vacuum existed: stop the server and run promo vacuum --full once',
    );
  }
  const space = await releaseFreeSpace(deps, options.onStep);
  return {
    bytes_before: fileBytes(before),
    bytes_after: fileBytes(space),
    pages_released: Math.max(0, before.pageCount - space.pageCount),
    ms: Date.now() - started,
  };
}

/**
 * Hands every free page back to the file system in short steps, then lets the WAL restart at
 * zero bytes: afterwards no byte of a freed page or of an old page version is left in either
 * file (what a permanent deletion needs). A database without incremental vacuum keeps its
 * free pages (only `promo vacuum --full` can change that).
 */
export async function releaseFreeSpace(
  deps: MaintenanceDeps,
  onStep?: (freeLeft: number) => void,
): Promise<repo.SpaceFigures> {
  let space = repo.readSpace(deps.engine.storage);
  while (space.autoVacuum === 'INCREMENTAL' && space.freePages > 0) {
    await deps.db.transaction().execute(async (trx) => deps.engine.storage.releaseFreePages(trx, PAGES_PER_STEP));
    space = repo.readSpace(deps.engine.storage);
    onStep?.(space.freePages);
  }
  await deps.engine.storage.emptyLog();
  return space;
}
