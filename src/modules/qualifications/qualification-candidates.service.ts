import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { listQualifyingStackKeys, listQualifyingTierKeys } from '../campaigns/index.js';
import { listQualifyingVoucherKeys, type WalkPosition } from '../vouchers/index.js';

/**
 * A qualification's candidates, newest first: the sources a scenario names (the customer's
 * vouchers, the promotion tiers available now, the standalone vouchers nobody holds, the
 * stacks of the promotions available now), each read in SQL batch by batch in its created_at index and merged, so that only what the page
 * needs is ever read (a shop may hold millions of vouchers).
 */
export type SourceName = 'wallet' | 'tiers' | 'standalone' | 'stacks';

export interface Candidate {
  object: 'voucher' | 'promotion_tier' | 'promotion_stack';
  /** The voucher's code, the tier's or the stack's id. */
  id: string;
  created_at: string;
  seq: number;
  source: SourceName;
}

export interface WalkInput {
  sources: SourceName[];
  customerId: string | null;
  now: string;
  /** The page cursor (`starting_after`): candidates created strictly before it. */
  createdBefore: string | null;
}

type Reader = (after: WalkPosition | null, limit: number) => Promise<Candidate[]>;

function readerOf(db: Kysely<Database>, source: SourceName, input: WalkInput): Reader {
  const { createdBefore } = input;
  if (source === 'stacks') {
    return async (after, limit) =>
      (await listQualifyingStackKeys(db, { now: input.now, createdBefore, after, limit })).map((k) => ({
        object: 'promotion_stack',
        id: k.id,
        created_at: k.created_at,
        seq: k.seq,
        source,
      }));
  }
  if (source === 'tiers') {
    return async (after, limit) =>
      (await listQualifyingTierKeys(db, { now: input.now, createdBefore, after, limit })).map((k) => ({
        object: 'promotion_tier',
        id: k.id,
        created_at: k.created_at,
        seq: k.seq,
        source,
      }));
  }
  const holderId = source === 'wallet' ? input.customerId : null;
  return async (after, limit) =>
    (await listQualifyingVoucherKeys(db, { holderId, createdBefore, after, limit })).map((k) => ({
      object: 'voucher',
      id: k.code,
      created_at: k.created_at,
      seq: k.seq,
      source,
    }));
}

/** One source's stream: a buffer refilled a batch at a time, from where the last batch ended. */
class SourceStream {
  private buffer: Candidate[] = [];
  private after: WalkPosition | null = null;
  private done = false;

  constructor(
    private readonly read: Reader,
    readonly rank: number,
  ) {}

  async head(batch: number): Promise<Candidate | undefined> {
    if (this.buffer.length === 0 && !this.done) {
      this.buffer = await this.read(this.after, batch);
      this.done = this.buffer.length < batch;
      const last = this.buffer.at(-1);
      if (last) this.after = { created_at: last.created_at, seq: last.seq };
    }
    return this.buffer[0];
  }

  take(): Candidate {
    return this.buffer.shift() as Candidate;
  }
}

/** The newer of two heads; between sources at one instant, the scenario's source order. */
const newer = (a: { c: Candidate; s: SourceStream }, b: { c: Candidate; s: SourceStream }): boolean =>
  a.c.created_at !== b.c.created_at
    ? a.c.created_at > b.c.created_at
    : a.s.rank !== b.s.rank
      ? a.s.rank < b.s.rank
      : a.c.seq > b.c.seq;

/**
 * The candidates of every source, merged newest first, in chunks: the first of `first` (a
 * page's worth), each next one twice as large, up to `max` (a short page reads little), and
 * `budget` in all: past it, an empty chunk says that candidates are left.
 */
export async function* walkCandidates(
  db: Kysely<Database>,
  input: WalkInput,
  sizes: { first: number; max: number; budget: number },
): AsyncGenerator<Candidate[]> {
  const sources = input.sources.filter((s) => s !== 'wallet' || input.customerId !== null);
  const streams = sources.map((s, rank) => new SourceStream(readerOf(db, s, input), rank));
  const newest = async (size: number) => {
    let best: { c: Candidate; s: SourceStream } | null = null;
    for (const s of streams) {
      const c = await s.head(size);
      if (c && (best === null || newer({ c, s }, best))) best = { c, s };
    }
    return best;
  };
  let left = sizes.budget;
  for (let size = Math.min(sizes.first, sizes.max); ; size = Math.min(size * 2, sizes.max)) {
    const want = Math.min(size, left);
    if (want === 0) {
      if (await newest(size)) yield [];
      return;
    }
    const out: Candidate[] = [];
    for (let best = await newest(size); best !== null; best = out.length < want ? await newest(size) : null)
      out.push(best.s.take());
    if (out.length === 0) return;
    left -= out.length;
    yield out;
    if (out.length < want) return;
  }
}
