import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes from crypto, drawn 4 KiB at a time: one randomBytes call per id cost ~6 us
 * (an imported order takes five ids). Each byte is used once, as Node's randomUUID does with
 * its own cache.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/** The pool's offset of `count` unused bytes, refilling it first when fewer are left. */
function takeBytes(count: number): number {
  if (pool.length - used < count) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  used += count;
  return used - count;
}

const randomByte = (): number => pool[takeBytes(1)] as number;

/**
 * Random base62 text from crypto. Bytes >= 248 are rejected so that every character is
 * equally likely (248 = 4 * 62).
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** A Voucherify-style id: the resource's prefix and 16 random base62 characters. */
export const newId = (prefix: string): string => `${prefix}${randomBase62(16)}`;

/** Request ids look like the reference's: `v-` and 18 hex digits (from the pool: one per request). */
export function newRequestId(): string {
  const start = takeBytes(9);
  return `v-${pool.toString('hex', start, start + 9)}`;
}
