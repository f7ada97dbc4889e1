/**
 * Whether `requested` more codes can be drawn from a space of `capacity` codes of which
 * `taken` are already used (or reserved by unfinished jobs). At most half of what is left may
 * be requested: beyond that, random draws collide so often that generation slows to a crawl,
 * and the last codes of a space can take forever to find.
 */
export interface Feasibility {
  ok: boolean;
  capacity: bigint;
  taken: bigint;
  /** The largest request that would pass. */
  maxRequest: bigint;
}

export function checkFeasibility(capacity: bigint, taken: bigint, requested: bigint): Feasibility {
  const left = capacity > taken ? capacity - taken : 0n;
  const maxRequest = left / 2n;
  return { ok: requested <= maxRequest, capacity, taken, maxRequest };
}

/** The sentence for a refused request, with the numbers. */
export function infeasibleDetails(requested: bigint, f: Feasibility): string {
  return (
    `Cannot generate ${requested} code(s): the code config allows ${f.capacity} distinct code(s), ` +
    `${f.taken} of them are already taken or reserved, and a request may use at most half of what is left ` +
    `(${f.maxRequest}).`
  );
}
