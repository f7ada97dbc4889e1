/**
 * SQLite caps bound parameters per statement (32,766 here, 999 in old builds). A lookup of an
 * unbounded list of keys runs in batches that stay well under the cap.
 */
const BATCH_SIZE = 400;

export async function inBatches<K, R>(keys: readonly K[], fetch: (batch: K[]) => Promise<R[]>): Promise<R[]> {
  const rows: R[] = [];
  for (let i = 0; i < keys.length; i += BATCH_SIZE) rows.push(...(await fetch(keys.slice(i, i + BATCH_SIZE))));
  return rows;
}

/**
 * A list of keys for an IN list, padded (with its last key) to one of a few lengths: a lookup
 * of any number of keys then runs one of a few statements, instead of one statement (and one
 * entry of the connection's statement cache) per length. IN ignores the repeats. Lists of up
 * to 8 keys stay as they are.
 */
export function padToBucket<K>(keys: readonly K[]): K[] {
  if (keys.length <= 8) return [...keys];
  let length = 16;
  while (length < keys.length && length < BATCH_SIZE) length *= 2;
  const size = Math.min(length, BATCH_SIZE);
  return Array.from({ length: Math.max(size, keys.length) }, (_, i) => keys[Math.min(i, keys.length - 1)] as K);
}
