import type { Deps } from '../app/deps.js';
import type { SweepEntry, SweepRegistry } from '../app/sweep-registry.js';

type SweepFn = (deps: Deps) => Promise<number>;

async function load(entry: SweepEntry): Promise<SweepFn> {
  const fn = ((await import(entry.run.module)) as Record<string, unknown>)[entry.run.export];
  if (typeof fn !== 'function') throw new Error(`${entry.run.export} of ${entry.run.module} is not a sweep function`);
  return fn as SweepFn;
}

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
 * that throws is logged and the others still run; the next round tries it again.
 */
export function startSweeps(deps: Deps, sweeps: SweepRegistry, intervalMs = SWEEP_INTERVAL_MS): SweepLoop {
  let running: Promise<void> | undefined;
  let stopped = false;
  const round = async (): Promise<void> => {
    for (const sweep of sweeps) {
      if (stopped) return;
      try {
        await (await load(sweep))(deps);
      } catch (error) {
        deps.log.error(`sweep ${sweep.name} failed`, error);
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
      clearInterval(timer);
      await running;
    },
  };
}
