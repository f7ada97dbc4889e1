import type { Deps } from '../app/deps.js';
import type { JobRegistry } from './registry.js';
import type { JobView } from './jobs.presenter.js';
import { getJobView } from './jobs.service.js';
import { QUIET_PORTION_MS } from './portion-size.js';
import { startJobRunner } from './runner.js';

/**
 * A command's worker heap (RunnerOptions.workerHeapMb): a 100,000-order import then peaked at
 * 243-261 MB of RSS against 274-316 MB (runs alternating), at the same CPU. A portion's live
 * data is bounded by its length (hundreds of milliseconds), far below it.
 */
const COMMAND_WORKER_HEAP_MB = 128;

/**
 * Runs one job in this process (a command line's own job) and waits for its end, reporting
 * its state as it goes. A server on the same file may claim the job first; the lease decides,
 * and this waits for the end either way. Meanwhile this thread, otherwise idle, copies the WAL
 * the job's writes fill back into the database (copyWalBack), and the worker thread skips its
 * own copy before each portion (callerCopiesWal): an order import's worker spent about an
 * eighth of its time on that copy, which now runs on the other core.
 */
export async function runJobToEnd(
  deps: Deps,
  registry: JobRegistry,
  jobId: string,
  options: {
    workers?: number;
    pollMs?: number;
    onProgress?: (job: JobView) => void;
    /**
     * What must happen before the job can run (`promo import` staging its file into the job):
     * meanwhile a worker thread starts and loads the job's step, ~0.4 s it would otherwise
     * spend after.
     */
    preparing?: () => Promise<unknown>;
  } = {},
): Promise<JobView> {
  const runner = startJobRunner(deps, {
    workers: options.workers ?? 1,
    registry,
    only: [jobId],
    pollMs: 100,
    quietPortionMs: QUIET_PORTION_MS,
    callerCopiesWal: true,
    workerHeapMb: COMMAND_WORKER_HEAP_MB,
  });
  try {
    if (options.preparing) {
      runner.warmUp((await getJobView(deps, jobId)).type);
      await options.preparing();
    }
    for (;;) {
      const job = await getJobView(deps, jobId);
      options.onProgress?.(job);
      const ended = job.status === 'DONE' || job.status === 'FAILED';
      // The checkpoints below run in a later tick than that read: the read's snapshot (db/
      // read-snapshot.ts) lasts until its tick ends, and a checkpoint waiting for the lock
      // beside it kept the worker's restart of the WAL from ever finding the readers gone
      // (it held the write gate for its whole wait, up to a second, then gave up).
      await new Promise((resolve) => (ended ? setImmediate(resolve) : setTimeout(resolve, options.pollMs ?? 200)));
      if (ended) {
        // The worker lets the WAL restart at zero bytes after the last portion, unless this
        // thread's checkpoint held the checkpoint lock at that moment: so this thread does too.
        await deps.engine.storage.emptyLog();
        return job;
      }
      await runner.copyWalBack();
    }
  } finally {
    await runner.stop();
  }
}
