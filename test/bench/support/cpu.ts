import { readFileSync } from 'node:fs';
import type { LoadResult } from './load.js';

/** The process's user + system CPU seconds so far; null where /proc is missing. */
export function cpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
  } catch {
    return null;
  }
}

/**
 * One measurement with the server's CPU time per request it answered: on a shared machine
 * req/s moves with the neighbours' load, CPU time per request much less.
 */
export async function measured(pid: number | undefined, run: () => Promise<LoadResult>) {
  const cpu0 = cpuSeconds(pid);
  const result = await run();
  const cpu1 = cpuSeconds(pid);
  const cpuUs = cpu0 === null || cpu1 === null ? null : Math.round(((cpu1 - cpu0) * 1e6) / result.requests);
  return { rps: result.rps, p99_ms: result.p99_ms, server_cpu_us_per_req: cpuUs };
}
