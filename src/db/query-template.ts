import type { CompiledQuery, Compilable, Kysely } from 'kysely';
import type { Database } from './database.js';

type Db = Kysely<Database>;

/** Where a compiled parameter comes from: a named value of the call, or a constant of the query. */
type Slot = { param: string } | { value: unknown };

interface Template {
  compiled: CompiledQuery;
  slots: Slot[];
}

const TOKEN = '\u0000param:';

/** Names a parameter inside a template's builder: stands for the call's value of that name. */
export type Param<P> = <K extends keyof P & string>(name: K) => P[K];

function templateOf(compiled: CompiledQuery, names: ReadonlySet<string>): Template {
  const slots = compiled.parameters.map((value): Slot =>
    typeof value === 'string' && value.startsWith(TOKEN) ? { param: value.slice(TOKEN.length) } : { value },
  );
  const bound = new Set(slots.flatMap((slot) => ('param' in slot ? [slot.param] : [])));
  const lost = [...names].filter((name) => !bound.has(name));
  // A builder that wrote a value into the SQL text instead of binding it would run every
  // later call with the first call's value: refuse it.
  if (lost.length > 0) throw new Error(`query template: ${lost.join(', ')} not bound as parameters in: ${compiled.sql}`);
  return { compiled, slots };
}

/**
 * A query that Kysely builds and compiles once per shape, then runs with each call's values
 * bound: for statements run once per item of a bulk job (each order of an import), where
 * building and compiling the query anew costs more than SQLite's own work. The builder puts
 * `param('name')` wherever a value of the call goes; anything else in it is a constant of
 * the statement. `shape` tells apart queries whose text depends on the call (the columns an
 * insert sets, the length of an IN list); the builder gets it back. The compiled query runs
 * through the caller's Kysely (its transaction and the connection's statement cache).
 */
export function queryTemplate<P extends Record<string, unknown>, O>(
  build: (db: Db, param: Param<P>, shape: string) => Compilable<O>,
): (db: Db, params: P, shape?: string) => Promise<O[]> {
  const templates = new Map<string, Template>();
  return async (db, params, shape = '') => {
    let template = templates.get(shape);
    if (!template) {
      const names = new Set<string>();
      const param = ((name: string) => {
        names.add(name);
        return `${TOKEN}${name}`;
      }) as Param<P>;
      template = templateOf(build(db, param, shape).compile(), names);
      templates.set(shape, template);
    }
    const { compiled, slots } = template;
    const parameters: unknown[] = new Array(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i] as Slot;
      parameters[i] = 'param' in slot ? params[slot.param] : slot.value;
    }
    return (await db.executeQuery<O>({ sql: compiled.sql, query: compiled.query, queryId: compiled.queryId, parameters })).rows;
  };
}

/** The shape of an insert: the columns it sets (Kysely leaves out undefined values), in order. */
export const columnsShape = (row: Record<string, unknown>): string =>
  Object.keys(row)
    .filter((key) => row[key] !== undefined)
    .join(',');
