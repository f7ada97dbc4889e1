import { statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { sleepSync } from '../../lib/thread-wait.js';

/**
 * The write-ahead log's checkpoints (DESIGN 3). A checkpoint copies the WAL's pages back into
 * the database file; the WAL restarts at its beginning once every page is copied and no reader
 * still needs it. The API's connection does not checkpoint while bulk jobs run (a checkpoint on
 * the request thread stalls every request while it copies): the job workers do it, beside the
 * API's writes, and the job runner does it when no job runs (src/db/sqlite/wal-checkpoints.ts).
 */

/** The -wal file's size in bytes (0 when there is none). */
export const walBytes = (dbFile: string): number => statSync(`${dbFile}-wal`, { throwIfNoEntry: false })?.size ?? 0;

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

/** What a PASSIVE copy found: whether it copied every frame, and how many the WAL holds. */
export interface WalCopy {
  complete: boolean;
  /** Frames in the WAL (copied or not): its content, whatever the file's size; -1 when another checkpoint ran (unknown). */
  frames: number;
}

/**
 * Copies what it can of the WAL into the database without holding writers off (PASSIVE): other
 * connections keep writing meanwhile. Complete when every frame was copied (the next write then
 * restarts the WAL, unless a reader still holds it).
 */
export function copyWalBack(sqlite: BetterSqlite3.Database): WalCopy {
  const [row] = sqlite.pragma('wal_checkpoint(PASSIVE)') as CheckpointRow[];
  return { complete: row !== undefined && row.busy === 0 && row.log === row.checkpointed, frames: row?.log ?? -1 };
}

/**
 * How the WAL starts over once copied back: RESTART lets the next writer write it again from its
 * first frame (the file keeps its size: its largest content so far); TRUNCATE also cuts the file
 * to zero bytes, which costs a file-system truncation (about 20-40 ms for 40 MiB here) while
 * writers wait.
 */
export type WalReset = 'RESTART' | 'TRUNCATE';

/**
 * RESTART or TRUNCATE, trying every millisecond for up to `waitMs`. SQLite's busy handler sleeps longer
 * and longer between tries: beside API writes that take the write lock every few milliseconds,
 * it would miss every gap. Each try holds writers off only while it runs.
 */
function resetWithin(sqlite: BetterSqlite3.Database, waitMs: number, mode: WalReset): boolean {
  const timeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
  sqlite.pragma('busy_timeout = 0');
  try {
    const deadline = performance.now() + waitMs;
    for (;;) {
      const [row] = sqlite.pragma(`wal_checkpoint(${mode})`) as CheckpointRow[];
      if (row?.busy === 0) return true;
      if (performance.now() >= deadline) return false;
      sleepSync(1);
    }
  } finally {
    sqlite.pragma(`busy_timeout = ${timeout}`);
  }
}

/**
 * Copies the WAL into the database and lets it restart at zero bytes, when no reader holds
 * it (false then: it stays, bounded by journal_size_limit). The copy runs PASSIVE first,
 * beside other writers; TRUNCATE, which holds writers off while it runs, then has little
 * left to do. TRUNCATE also needs every reader out of the WAL: with `waitMs`, it tries for
 * that long (off the request thread only: it sleeps), else it waits the busy timeout. Run off
 * the request thread anyway: a large WAL takes a while to copy.
 */
export function truncateWal(sqlite: BetterSqlite3.Database, waitMs?: number, mode: WalReset = 'TRUNCATE'): boolean {
  sqlite.pragma('wal_checkpoint(PASSIVE)');
  if (waitMs !== undefined) return resetWithin(sqlite, waitMs, mode);
  const [row] = sqlite.pragma(`wal_checkpoint(${mode})`) as CheckpointRow[];
  return (row?.busy ?? 1) === 0;
}
