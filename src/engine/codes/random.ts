import { randomBytes } from 'node:crypto';

/** A source of random bytes; tests pass a deterministic one. */
export type ByteSource = (size: number) => Uint8Array;

const POOL_BYTES = 16 * 1024;

/**
 * A function giving uniformly distributed integers in [0, n), from crypto randomness without
 * modulo bias: a draw that falls in the incomplete last block of the byte range is rejected
 * and drawn again. Sets of up to 256 use one byte per draw, larger ones four. Bytes are taken
 * from a pool refilled 16 KiB at a time, so a million codes cost few calls into crypto.
 */
export function uniformIndex(n: number, source: ByteSource = randomBytes): () => number {
  if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError(`uniformIndex: n must be 1..2^32, got ${n}`);
  if (n === 1) return () => 0;
  let pool: Uint8Array = new Uint8Array(0);
  let at = 0;
  const next = (size: number): number => {
    if (at + size > pool.length) {
      pool = source(POOL_BYTES);
      at = 0;
    }
    let value = 0;
    for (let i = 0; i < size; i++) value = value * 256 + (pool[at + i] as number);
    at += size;
    return value;
  };
  const size = n <= 256 ? 1 : 4;
  const range = 2 ** (8 * size);
  const limit = range - (range % n); // draws >= limit would favour the smallest values
  return () => {
    for (;;) {
      const value = next(size);
      if (value < limit) return value % n;
    }
  };
}
