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
