import {
  AliasNode,
  type KyselyPlugin,
  OperationNodeTransformer,
  type OperationNode,
  type OrderByItemNode,
  RawNode,
  ReferenceNode,
  type SelectQueryNode,
  TableNode,
} from 'kysely';
import type pg from 'pg';

/** Per table (or view), its columns, each true when it is NOT NULL. Plain data: it crosses to worker threads. */
export type ColumnNullability = Record<string, Record<string, boolean>>;

/** The columns of the database's own schema, as the catalog says (read once per pool, after migrating). */
export async function readColumnNullability(pool: Pick<pg.Pool, 'query'>): Promise<ColumnNullability> {
  const { rows } = await pool.query<{ table_name: string; column_name: string; is_nullable: string }>(
    `SELECT table_name, column_name, is_nullable FROM information_schema.columns
      WHERE table_schema = current_schema()`,
  );
  const columns: ColumnNullability = {};
  for (const row of rows) (columns[row.table_name] ??= {})[row.column_name] = row.is_nullable === 'NO';
  return columns;
}

/** What an ORDER BY of one SELECT can name: its FROM and JOIN items (a base table's name, or null for a subquery) and its output names. */
interface Scope {
  sources: Map<string, string | null>;
  outputNames: Set<string>;
}

const nameOf = (node: OperationNode): string | undefined => {
  if (node.kind === 'IdentifierNode') return (node as { name: string } & OperationNode).name;
  if (TableNode.is(node)) return node.table.identifier.name;
  return undefined;
};

function addSource(scope: Scope, item: OperationNode): void {
  if (TableNode.is(item)) scope.sources.set(item.table.identifier.name, item.table.identifier.name);
  else if (AliasNode.is(item)) {
    const alias = nameOf(item.alias);
    if (alias !== undefined) scope.sources.set(alias, TableNode.is(item.node) ? item.node.table.identifier.name : null);
  }
}

function scopeOf(node: SelectQueryNode): Scope {
  const scope: Scope = { sources: new Map(), outputNames: new Set() };
  for (const item of node.from?.froms ?? []) addSource(scope, item);
  for (const join of node.joins ?? []) addSource(scope, join.table);
  for (const selection of node.selections ?? []) {
    const alias = AliasNode.is(selection.selection) ? nameOf(selection.selection.alias) : undefined;
    if (alias !== undefined) scope.outputNames.add(alias);
  }
  return scope;
}

/** `sql.ref(x)`: a raw node that is one reference and nothing else. */
const referenceIn = (node: OperationNode): ReferenceNode | undefined => {
  if (ReferenceNode.is(node)) return node;
  if (RawNode.is(node) && node.sqlFragments.every((f) => f === '') && node.parameters.length === 1) {
    const inner = node.parameters[0] as OperationNode;
    return ReferenceNode.is(inner) ? inner : undefined;
  }
  return undefined;
};

/**
 * Kysely's ORDER BY, compiled to sort NULL as SQLite does: before every value ascending, after
 * every value descending (PostgreSQL's default is the opposite). One place for every list and
 * walk: each key gets `NULLS FIRST` (ascending) or `NULLS LAST` (descending) unless it is known
 * to be a NOT NULL column, which keeps the plain order its index (default NULLS LAST) serves.
 * Nullable index columns are NULLS FIRST in sql/postgres (docs/postgres.md, decision 8), so the
 * same indexes serve both directions. A key it cannot resolve to a base table's column (an
 * expression, a subquery's column, an output name) gets the placement: the answer is right, at
 * worst sorted.
 */
class SqliteNullOrder extends OperationNodeTransformer {
  readonly #scopes: Scope[] = [];

  constructor(private readonly columns: ColumnNullability) {
    super();
  }

  protected override transformSelectQuery(node: SelectQueryNode): SelectQueryNode {
    this.#scopes.push(scopeOf(node));
    try {
      return super.transformSelectQuery(node);
    } finally {
      this.#scopes.pop();
    }
  }

  protected override transformOrderByItem(node: OrderByItemNode): OrderByItemNode {
    const item = super.transformOrderByItem(node);
    if (item.nulls !== undefined || this.isNotNull(item.orderBy)) return item;
    const descending =
      item.direction !== undefined && RawNode.is(item.direction) && /desc/i.test(item.direction.sqlFragments.join(''));
    return { ...item, nulls: descending ? 'last' : 'first' };
  }

  private isNotNull(orderBy: OperationNode): boolean {
    const reference = referenceIn(orderBy);
    const scope = this.#scopes.at(-1);
    if (!reference || !scope || reference.column.kind !== 'ColumnNode') return false;
    const column = reference.column.column.name;
    const columns = this.columns;
    if (reference.table) {
      const table = scope.sources.get(reference.table.table.identifier.name);
      return table ? columns[table]?.[column] === true : false;
    }
    if (scope.outputNames.has(column)) return false;
    const holders = [...scope.sources.values()].filter(
      (table) => table === null || columns[table]?.[column] !== undefined,
    );
    const [holder] = holders;
    return holders.length === 1 && typeof holder === 'string' && columns[holder]?.[column] === true;
  }
}

/** The plugin, over the schema's columns (readColumnNullability). */
export const sqliteNullOrder = (columns: ColumnNullability): KyselyPlugin => {
  const transformer = new SqliteNullOrder(columns);
  return {
    transformQuery: (args) => transformer.transformNode(args.node),
    transformResult: (args) => Promise.resolve(args.result),
  };
};
