import { randomBase62 } from '../../../lib/ids.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `lopp_` ids: the time in ms as 8 base62 characters (in ASCII order, so ids sort by time),
 * then 8 random ones: the reference orders pending-points lists by `id`, which is then the
 * order they were made in (within a millisecond, at random).
 */
export function pendingPointsId(nowMs: number): string {
  let time = '';
  for (let v = nowMs; time.length < 8; v = Math.floor(v / 62)) time = (BASE62[v % 62] as string) + time;
  return `lopp_${time}${randomBase62(8)}`;
}
