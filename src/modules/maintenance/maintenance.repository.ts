import type BetterSqlite3 from 'better-sqlite3';

/**
 * Database upkeep through pragmas, which Kysely's builder cannot express: raw SQL is the only
 * way here, and none of it takes user input.
 */
export interface SpaceFigures {
  pageSize: number;
  pageCount: number;
  freePages: number;
  autoVacuum: 'NONE' | 'FULL' | 'INCREMENTAL';
}

const AUTO_VACUUM = ['NONE', 'FULL', 'INCREMENTAL'] as const;

export function readSpace(sqlite: BetterSqlite3.Database): SpaceFigures {
  return {
    pageSize: sqlite.pragma('page_size', { simple: true }) as number,
    pageCount: sqlite.pragma('page_count', { simple: true }) as number,
    freePages: sqlite.pragma('freelist_count', { simple: true }) as number,
    autoVacuum: AUTO_VACUUM[sqlite.pragma('auto_vacuum', { simple: true }) as number] ?? 'NONE',
  };
}

/** Gives up to `pages` free pages back to the file system, in the caller's write transaction. */
export function releaseFreePages(sqlite: BetterSqlite3.Database, pages: number): void {
  sqlite.pragma(`incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
}

/** Rewrites the whole file (and sets incremental auto-vacuum). Holds the write lock throughout. */
export function rewriteFile(sqlite: BetterSqlite3.Database): void {
  sqlite.pragma('auto_vacuum = INCREMENTAL');
  sqlite.exec('VACUUM');
}
