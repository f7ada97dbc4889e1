import { readdirSync, readFileSync } from 'node:fs';
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

/** The parent's pid of `pid` (from /proc); null where /proc is missing. */
function parentOf(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  } catch {
    return null;
  }
}

/**
 * The CPU seconds so far of every child of `parent` (a PostgreSQL postmaster's backends: the
 * pool's connections live through a storm, so the difference of two readings is their work).
 */
export function childrenCpuSeconds(parent: number): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && parentOf(pid) === parent) total += cpuSeconds(pid) ?? 0;
  }
  return total;
}

/** The postmaster of the server a long-lived server process (the checkpointer) runs in: its parent. */
export const postmasterOf = (backendPid: number): number | null => parentOf(backendPid);
