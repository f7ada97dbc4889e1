import type { Condition, FieldCatalog, Filter } from './types.js';
import { validateFilter } from './validate.js';

/**
 * The reference's `filters` deep object of a list's query string
 * (`filters[<field>][conditions][<$op>]=value`, `filters[junction]=and`), as the vouchers and
 * redemptions lists take it: read from the flat keys Koa parses, checked by the condition
 * engine against the list's catalog, then limited to the conditions the list's indexes serve.
 * Everything else is refused by name, never ignored: a client that filters must never get the
 * unfiltered list as if it were the filtered one.
 */
export interface QueryFilterRules {
  catalog: FieldCatalog;
  /** Whether an index serves this condition (its field, operator and number of operands). */
  accepts: (condition: Condition) => boolean;
  /** What is served, for the refusal's message. */
  served: string;
  /**
   * Lists that check what no index serves in a bounded window of rows (db/filter-window.ts):
   * which conditions that window can check. Those, and an `or` of several of them, come back
   * as `residual` instead of being refused.
   */
  windowable?: (condition: Condition) => boolean;
}

export type QueryFilters =
  | {
      ok: true;
      conditions: Condition[];
      /** Conditions for the bounded window, joined by their junction (windowable lists only). */
      residual?: Filter;
      /** the query without its `filters[...]` keys */
      rest: Record<string, unknown>;
    }
  | { ok: false; error: string };

/** `a[b][c][0]` -> ['a', 'b', 'c', '0']. */
const pathOf = (key: string): string[] => [
  key.slice(0, key.indexOf('[')),
  ...Array.from(key.matchAll(/\[([^\]]*)\]/g), (m) => m[1] as string),
];

/** The `filters[...]` keys as one object; an operator's values are always an array. */
function nest(query: Record<string, unknown>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    if (!key.startsWith('filters[')) continue;
    const [, ...path] = pathOf(key);
    // `[$in][0]` and `[$in][]` (repeated) name items of the operator's array.
    if (path.length === 4 && /^\d*$/.test(path[3] as string)) path.pop();
    let node = root;
    for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    const last = path[path.length - 1] as string;
    const values = Array.isArray(raw) ? raw : [raw];
    node[last] =
      last === 'junction' || path.length < 3 ? raw : [...((node[last] as unknown[] | undefined) ?? []), ...values];
  }
  return root;
}

/**
 * The query's filter conditions, or why they are refused: an unknown field or operator, an
 * `or` of several conditions (no index serves a union in order), or a condition the rules
 * do not accept.
 */
export function readQueryFilters(query: Record<string, unknown>, rules: QueryFilterRules): QueryFilters {
  const filters = nest(query);
  const rest = Object.fromEntries(Object.entries(query).filter(([key]) => !key.startsWith('filters[')));
  if (Object.keys(filters).length === 0) return { ok: true, conditions: [], rest };
  const checked = validateFilter({ junction: 'and', ...filters }, rules.catalog, 'filters');
  if (!checked.ok) return { ok: false, error: checked.errors.join('; ') };
  const { junction, conditions } = checked.filter;
  const windowable = rules.windowable ?? (() => false);
  const refused = conditions.find((condition) => !rules.accepts(condition) && !windowable(condition));
  if (refused !== undefined) {
    return {
      ok: false,
      error: `filters.${refused.field}.conditions.${refused.operator} is not served by an index; the filters served are ${rules.served}`,
    };
  }
  if (junction === 'or' && conditions.length > 1) {
    if (rules.windowable === undefined)
      return { ok: false, error: 'filters.junction "or" of several conditions is not served by an index; use "and"' };
    const unwindowable = conditions.find((condition) => !windowable(condition));
    if (unwindowable !== undefined)
      return {
        ok: false,
        error: `filters.${unwindowable.field}.conditions.${unwindowable.operator} cannot be joined by "or"; the filters served are ${rules.served}`,
      };
    return { ok: true, conditions: [], residual: { junction, conditions }, rest };
  }
  const others = conditions.filter((condition) => !rules.accepts(condition));
  return {
    ok: true,
    conditions: conditions.filter(rules.accepts),
    ...(others.length > 0 ? { residual: { junction: 'and', conditions: others } } : {}),
    rest,
  };
}
