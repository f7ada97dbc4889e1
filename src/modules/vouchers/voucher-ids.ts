import { ALPHANUMERIC, codeGenerator } from '../../engine/codes/index.js';

const ID_SUFFIX = { prefix: '', postfix: '', pattern: '#'.repeat(8), charset: Array.from(ALPHANUMERIC) };
let randomSuffix: (() => string) | undefined;

/**
 * Bulk voucher ids: `v_`, the time in ms as 8 base62 characters, then 8 random ones (16 in
 * all, like newId). Ids of one portion land together at the end of the id index instead of on
 * a thousand random pages, which would each be written to the WAL at every commit.
 */
export function timeOrderedIds(nowMs: number): () => string {
  let time = '';
  for (let v = nowMs; time.length < 8; v = Math.floor(v / 62)) time = (ALPHANUMERIC[v % 62] as string) + time;
  const suffix = (randomSuffix ??= codeGenerator(ID_SUFFIX));
  return () => `v_${time}${suffix()}`;
}
