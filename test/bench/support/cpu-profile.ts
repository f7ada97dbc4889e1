/** What the profiling benches read of a V8 `.cpuprofile` (the inspector's Profiler.stop, or --cpu-prof). */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  /** µs on CLOCK_MONOTONIC, the clock of process.hrtime in every process of the machine. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
export type Frame = ProfileNode['callFrame'];

/**
 * Each sample with its time (µs, the profile's clock), the time it stands for (until the next
 * sample) and its stack from the leaf to the root.
 */
export function eachSample(profile: Profile, visit: (at: number, us: number, stack: Frame[]) => void): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const stack: Frame[] = [];
    for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id))
      stack.push((byId.get(id) as ProfileNode).callFrame);
    visit(at, profile.timeDeltas[i + 1] ?? 0, stack);
  }
}

/** Time per unit (µs) and share (%) of each key, largest first. */
export function shares(times: Map<string, number>, units: number, total: number, top: number) {
  return [...times]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, us]) => [key, Math.round((us / units) * 10) / 10, Math.round((us / total) * 1000) / 10]);
}
