import type BetterSqlite3 from 'better-sqlite3';
import { gateWalFrames, holdingCheckpointLock } from './write-gate.js';
import { copyWalBack, truncateWal, walBytes, type WalReset } from './wal.js';

/**
 * Who copies the WAL back into the database, and when (issue 15 point 6). A bulk job writes
 * pages all over big indexes (about 8 KiB of WAL per generated code), and a checkpoint of them
 * on the request thread stalls every request while it copies. So the API's connection
 * checkpoints only past WAL_SIZE_LIMIT_BYTES (a safety net: app/deps.ts), and:
 *
 * - while jobs run, each worker copies the WAL back before its portion, beside the other
 *   worker's portion and the API's writes (PASSIVE: no one waits for it; about one portion's
 *   pages each time; one bench run each: 11,759 codes/s against 10,165 with one large copy past
 *   the threshold). Past `jobBytes` of WAL content, holding the write gate (other workers wait,
 *   the API does not), it copies what was written meanwhile and lets the WAL restart from its
 *   first frame (RESTART: writers wait for that short rest only). The file keeps its size (its
 *   largest content so far): TRUNCATE, which cut it to zero bytes, cost a file-system truncation
 *   of ~20-40 ms each time while writers waited;
 * - at a job's end, and when no job runs (past `idleBytes`, on a worker thread), the same with
 *   TRUNCATE: the file goes back to zero bytes; but while the API writes (no job running), every
 *   WRITING_CHECK_MS with RESTART, which leaves the file its size.
 *
 * Both wait for readers to leave the WAL while holding writers off: at most RESTART_WAIT_MS,
 * then they give up and the next attempt waits RETRY_MS, unless the WAL holds HARD_LIMIT times
 * the threshold: the portion then waits (up to HARD_WAIT_MS) for the restart. The content is
 * the frame count the last copy of any worker thread found (db/sqlite/write-gate.ts); while idle, the
 * file's size (it restarts at zero bytes).
 */
export interface WalThresholds {
  /** While jobs run: past this many bytes of WAL, a worker copies it back and restarts it. */
  jobBytes: number;
  /** While no job runs: past this many, the runner has a worker thread do it. */
  idleBytes: number;
}

/**
 * 32 MiB while jobs run: a restart every few portions of a large generation, and the WAL stays
 * under 64 MiB with the portion another thread writes before the restart (its copy counted
 * the WAL before that portion). 4 MiB while idle: SQLite's own default.
 */
export const DEFAULT_WAL_THRESHOLDS: WalThresholds = { jobBytes: 32 * 1024 * 1024, idleBytes: 4 * 1024 * 1024 };
/** How often the runner looks at the WAL's size while no job runs and the API does not write. */
const IDLE_CHECK_MS = 1000;
/**
 * How often while the API writes (a write storm: stacked redemptions at 32 clients write
 * ~60-100 MB of WAL a second). Copied back every quarter second and restarted (RESTART), the
 * WAL holds a few MiB; looked at once a second, it reached the API connection's own 64 MiB
 * checkpoint, which then ran inside a COMMIT on the request thread (40-83 ms), and a TRUNCATE
 * of 64 MiB held the writers off.
 */
const WRITING_CHECK_MS = 250;
const RESTART_WAIT_MS = 50;
const RETRY_MS = 250;
const WAL_FRAME_HEADER_BYTES = 24;
const HARD_LIMIT = 1.5;
const HARD_WAIT_MS = 1000;

export interface WalKeeper {
  /** Before the write gate: copies back what was written since the last copy. */
  copyBack(): void;
  /**
   * Holding the write gate, while jobs run: past `threshold` bytes of WAL content (as the last
   * copy of any worker thread found it), the rest, and the WAL restarts from its first frame.
   * Answers how long it took, if it ran.
   */
  restart(threshold: number): number | undefined;
  /**
   * At a job's end and while idle: the rest, and the WAL starts over: TRUNCATE cuts the file to
   * zero bytes (at a job's end, or no API write since the last look), RESTART keeps its size
   * (while the API writes: the file would soon grow again, and cutting it holds writers off).
   */
  reset(mode: WalReset): number | undefined;
}

/**
 * Copies the WAL back on `sqlite` (PASSIVE), taking turns with the other checkpoints of the
 * runner whose gate this is, and records the frames it found for their restart threshold
 * (`unknown`: what to record when another connection's checkpoint ran meanwhile; else nothing).
 */
export function copyBackCounted(sqlite: BetterSqlite3.Database, gate: SharedArrayBuffer, unknown?: () => number): void {
  const copy = holdingCheckpointLock(gate, () => copyWalBack(sqlite));
  const frames = copy.frames >= 0 ? copy.frames : unknown?.();
  if (frames !== undefined) Atomics.store(gateWalFrames(gate), 0, frames);
}

/**
 * The WAL checkpoints of one worker connection. The worker threads of a runner share the WAL's
 * frame count and take turns to checkpoint (db/sqlite/write-gate.ts): SQLite fails a checkpoint that
 * finds another one running, and it would learn nothing of the WAL's size.
 */
export function walKeeper(sqlite: BetterSqlite3.Database, dbFile: string, gate: SharedArrayBuffer): WalKeeper {
  let retryAt = 0;
  const frames = gateWalFrames(gate);
  const frameBytes = (sqlite.pragma('page_size', { simple: true }) as number) + WAL_FRAME_HEADER_BYTES;
  const reset = (mode: WalReset, waitMs = RESTART_WAIT_MS) => {
    const started = performance.now();
    if (!holdingCheckpointLock(gate, () => truncateWal(sqlite, waitMs, mode))) retryAt = performance.now() + RETRY_MS;
    else Atomics.store(frames, 0, 0);
    return performance.now() - started;
  };
  return {
    // Another connection's checkpoint ran (a command's main thread: jobs/follow.ts): the
    // file's size is the most the WAL can hold.
    copyBack: () => copyBackCounted(sqlite, gate, () => Math.floor(walBytes(dbFile) / frameBytes)),
    // Past the threshold, a restart that failed waits RETRY_MS; past HARD_LIMIT times it, the
    // portion waits (up to HARD_WAIT_MS) until the WAL restarts.
    restart(threshold) {
      const content = Atomics.load(frames, 0) * frameBytes;
      if (content < threshold) return undefined;
      if (content >= threshold * HARD_LIMIT) return reset('RESTART', HARD_WAIT_MS);
      return performance.now() >= retryAt ? reset('RESTART') : undefined;
    },
    reset: (mode) => (performance.now() >= retryAt ? reset(mode) : undefined),
  };
}

/** The runner's last look at the WAL while no job runs: when, and the API's commits by then. */
export interface IdleLook {
  at: number;
  commits: number;
}

/**
 * While no job runs, whether the runner has a worker copy the WAL back now, and how the WAL
 * then starts over: looked at every IDLE_CHECK_MS, cut to zero bytes (TRUNCATE); while the API
 * commits (`commits` moved since the last look), every WRITING_CHECK_MS, restarted in place
 * (RESTART). Only past `idleBytes`.
 */
export function idleReset(
  last: IdleLook,
  commits: number,
  dbFile: string,
  thresholds: WalThresholds,
): WalReset | undefined {
  const writing = commits !== last.commits;
  const now = Date.now();
  if (now - last.at < (writing ? WRITING_CHECK_MS : IDLE_CHECK_MS)) return undefined;
  last.at = now;
  last.commits = commits;
  if (walBytes(dbFile) < thresholds.idleBytes) return undefined;
  return writing ? 'RESTART' : 'TRUNCATE';
}
