import type { Deps } from '../app/deps.js';
import type { SweepRegistry } from './registry.js';

export interface SweepLoop {
  /** A whole round that starts after this call (waits for one in progress first). */
  runNow(): Promise<void>;
  /** No more rounds; waits for the one in progress. */
  stop(): Promise<void>;
}

/** Once a minute: "at least once a minute" with a round's own time on top. */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * Runs the registered sweeps now and then every `intervalMs`, one round at a time. A sweep
 * that throws is logged and the others still run; the next round tries it again. On stop, the
 * sweep in progress is told (its AbortSignal) to end after its current batch.
 */
export function startSweeps(deps: Deps, sweeps: SweepRegistry, intervalMs = SWEEP_INTERVAL_MS): SweepLoop {
  let running: Promise<void> | undefined;
  let stopped = false;
  // Tells a sweep in progress to stop after its current batch, so shutdown does not wait for a long round.
  const stopping = new AbortController();
  const round = async (): Promise<void> => {
    for (const sweep of sweeps) {
      if (stopped) return;
      try {
        await (await sweep.run())(deps, stopping.signal);
      } catch (error) {
        deps.log.error('sweep failed', error, { sweep: sweep.name });
      }
    }
  };
  const trigger = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    running ??= round().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => void trigger(), intervalMs);
  timer.unref();
  void trigger();
  return {
    async runNow() {
      await running;
      await trigger();
    },
    async stop() {
      stopped = true;
      stopping.abort();
      clearInterval(timer);
      await running;
    },
  };
}
