import { statSync } from 'node:fs';
import type { Piscina } from 'piscina';
import type { Logger } from '../app/logger.js';
import type { CheckpointReport, CheckpointTask } from './worker.js';

/**
 * Checkpoints while no job runs, for a server whose API connection never checkpoints
 * (wal_autocheckpoint = 0, so no request copies the WAL back on the event loop). While a job
 * runs, its worker connections checkpoint after their commits and the job's end truncates;
 * between jobs, the API's own writes grow the WAL, and this copies it back on a worker
 * thread once it passes `minBytes` (SQLite's default autocheckpoint of 1,000 pages is
 * about 4 MB), letting it restart at zero bytes.
 */
export interface IdleCheckpointOptions {
  dbFile: string;
  /** True when no job is held and no portion runs. */
  idle: () => boolean;
  pool: () => Piscina;
  log: Logger;
  everyMs?: number;
  minBytes?: number;
  onCheckpoint?: (report: CheckpointReport) => void;
}

export interface IdleCheckpoints {
  stop(): Promise<void>;
}

export const IDLE_CHECKPOINT_BYTES = 4 * 1024 * 1024;
const IDLE_CHECKPOINT_EVERY_MS = 1000;

const walBytes = (dbFile: string): number => {
  try {
    return statSync(`${dbFile}-wal`).size;
  } catch {
    return 0;
  }
};

export function startIdleCheckpoints(options: IdleCheckpointOptions): IdleCheckpoints {
  const minBytes = options.minBytes ?? IDLE_CHECKPOINT_BYTES;
  let running: Promise<void> | undefined;
  const check = () => {
    if (running || !options.idle() || walBytes(options.dbFile) < minBytes) return;
    const task: CheckpointTask = { dbFile: options.dbFile, checkpoint: true };
    running = (options.pool().run(task) as Promise<CheckpointReport>)
      .then((report) => options.onCheckpoint?.(report), (error: unknown) => options.log.error('idle checkpoint failed', error))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(check, options.everyMs ?? IDLE_CHECKPOINT_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
