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

/** A time in ms as 8 base62 characters: their text order is the times' order (until year 8888). */
function base62Time(ms: number): string {
  let time = '';
  for (let v = Number.isFinite(ms) ? Math.max(0, Math.floor(ms)) : 0; time.length < 8; v = Math.floor(v / 62))
    time = (BASE62[v % 62] as string) + time;
  return time;
}

/**
 * Time-ordered ids of rows that are inserted in bulk (vouchers, orders, customers): the prefix,
 * the time in ms as 8 base62 characters, then 8 random ones (16 in all, like newId; 47.6 random
 * bits per millisecond). Rows written together land together at the end of the `id` index (and
 * of any index led by the id) instead of on random pages, each of which a commit writes to the
 * WAL again. The time it shows is the row's creation time, which its `created_at` shows anyway.
 */
export function timeOrderedIds(prefix: string, nowMs: number): () => string {
  const time = base62Time(nowMs);
  return () => `${prefix}${time}${randomBase62(8)}`;
}

/** One time-ordered id (timeOrderedIds) at an ISO time. */
export const timeOrderedId = (prefix: string, at: string): string =>
  `${prefix}${base62Time(Date.parse(at))}${randomBase62(8)}`;

/** Request ids look like the reference's: `v-` and 18 hex digits (from the pool: one per request). */
export function newRequestId(): string {
  const start = takeBytes(9);
  return `v-${pool.toString('hex', start, start + 9)}`;
}
