/** A query string as Koa parses it. */
export type Query = Record<string, string | string[] | undefined>;

export interface OrderBy<F extends string> {
  field: F;
  direction: 'asc' | 'desc';
}

/** The list envelope of the reference's list answers (`object` `list`, `data_ref`, the array, `total`). */
export function listEnvelope<K extends string, T>(
  dataRef: K,
  items: T[],
  extra: { total?: number; has_more?: boolean; more_starting_after?: string } = {},
): { object: 'list'; data_ref: K } & Record<K, T[]> & typeof extra {
  return { object: 'list', data_ref: dataRef, [dataRef]: items, ...extra } as { object: 'list'; data_ref: K } & Record<
    K,
    T[]
  > &
    typeof extra;
}
