import type BetterSqlite3 from 'better-sqlite3';

type RowMaker = (values: unknown[]) => Record<string, unknown>;

/** A function that builds a row object from its values, with one literal shape (null: a name a literal cannot carry). */
function rowMaker(names: string[]): RowMaker | null {
  if (names.includes('__proto__')) return null;
  const fields = names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${fields} };`) as RowMaker;
}

/**
 * A reading statement's rows as objects, built in JavaScript from better-sqlite3's raw rows
 * (arrays): an object literal of one shape per statement costs a fraction of the objects
 * better-sqlite3 builds key by key (a 39-column voucher row: 3.6 us less; docs/performance.md "Hot paths").
 * Same keys, order and values: a name given twice keeps its first place and its last value,
 * as there. A row whose length no longer matches (the statement was re-prepared after a
 * schema change) rebuilds the maker from the statement's columns.
 */
export function rowsOf(
  stmt: BetterSqlite3.Statement,
  stats: { statements: number },
): (parameters: ReadonlyArray<unknown>) => unknown[] {
  const raw = stmt.raw(true);
  let names = raw.columns().map((column) => column.name);
  let make = rowMaker(names);
  if (!make) {
    stmt.raw(false);
    return (parameters) => (stats.statements++, stmt.all(parameters as unknown[]));
  }
  return (parameters) => {
    stats.statements++;
    const rows = raw.all(parameters as unknown[]) as unknown[][];
    for (let i = 0; i < rows.length; i++) {
      const values = rows[i] as unknown[];
      if (values.length !== names.length) {
        names = raw.columns().map((column) => column.name);
        make = rowMaker(names) ?? make;
      }
      (rows as unknown[])[i] = (make as RowMaker)(values);
    }
    return rows;
  };
}
