import {
  AliasNode,
  IdentifierNode,
  type KyselyPlugin,
  OperationNodeTransformer,
  type OperationNode,
  type OrderByItemNode,
  RawNode,
  ReferenceNode,
  SelectQueryNode,
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

/** A FROM or JOIN item's columns, each true when NOT NULL; null where they are not known. */
type Columns = Record<string, boolean> | null;

/**
 * What an ORDER BY of one SELECT can name: its FROM and JOIN items by name or alias (a base
 * table's columns as the catalog has them, a subquery's as its select list makes them) and its
 * own output names.
 */
interface Scope {
  sources: Map<string, Columns>;
  outputNames: Set<string>;
}

const nameOf = (node: OperationNode): string | undefined => {
  if (IdentifierNode.is(node)) return node.name;
  if (TableNode.is(node)) return node.table.identifier.name;
  return undefined;
};

/** `sql.ref(x)`: a raw node that is one reference and nothing else. */
const referenceIn = (node: OperationNode): ReferenceNode | undefined => {
  if (ReferenceNode.is(node)) return node;
  if (RawNode.is(node) && node.sqlFragments.every((f) => f === '') && node.parameters.length === 1) {
    const inner = node.parameters[0] as OperationNode;
    return ReferenceNode.is(inner) ? inner : undefined;
  }
  return undefined;
};

/** Whether `node` is known to be a NOT NULL column in `scope`: a plain or qualified reference to one. */
function isNotNullIn(scope: Scope, node: OperationNode): boolean {
  const reference = referenceIn(node);
  if (!reference || reference.column.kind !== 'ColumnNode') return false;
  const column = reference.column.column.name;
  if (reference.table) return scope.sources.get(reference.table.table.identifier.name)?.[column] === true;
  if (scope.outputNames.has(column)) return false;
  const holders = [...scope.sources.values()].filter((columns) => columns === null || columns[column] !== undefined);
  return holders.length === 1 && holders[0]?.[column] === true;
}

/** A subquery's output columns from its select list (a column, renamed or not); unknown for `*` or a UNION. */
function subqueryColumns(node: SelectQueryNode, catalog: ColumnNullability): Columns {
  if (node.setOperations?.length) return null;
  const scope = scopeOf(node, catalog);
  const columns: Record<string, boolean> = {};
  for (const { selection } of node.selections ?? []) {
    if (selection.kind === 'SelectAllNode') return null;
    const [expression, alias] = AliasNode.is(selection)
      ? [selection.node, nameOf(selection.alias)]
      : [selection, undefined];
    const reference = referenceIn(expression);
    if (reference?.column.kind === 'SelectAllNode') return null;
    const name = alias ?? (reference?.column.kind === 'ColumnNode' ? reference.column.column.name : undefined);
    if (name !== undefined) columns[name] = isNotNullIn(scope, expression);
  }
  return columns;
}

function sourceColumns(node: OperationNode, catalog: ColumnNullability): Columns {
  if (TableNode.is(node)) return catalog[node.table.identifier.name] ?? null;
  if (SelectQueryNode.is(node)) return subqueryColumns(node, catalog);
  return null;
}

function addSource(scope: Scope, item: OperationNode, catalog: ColumnNullability): void {
  if (TableNode.is(item)) scope.sources.set(item.table.identifier.name, sourceColumns(item, catalog));
  else if (AliasNode.is(item)) {
    const alias = nameOf(item.alias);
    if (alias !== undefined) scope.sources.set(alias, sourceColumns(item.node, catalog));
  }
}

function scopeOf(node: SelectQueryNode, catalog: ColumnNullability): Scope {
  const scope: Scope = { sources: new Map(), outputNames: new Set() };
  for (const item of node.from?.froms ?? []) addSource(scope, item, catalog);
  for (const join of node.joins ?? []) addSource(scope, join.table, catalog);
  for (const selection of node.selections ?? []) {
    const alias = AliasNode.is(selection.selection) ? nameOf(selection.selection.alias) : undefined;
    if (alias !== undefined) scope.outputNames.add(alias);
  }
  return scope;
}

/**
 * Kysely's ORDER BY, compiled to sort NULL as SQLite does: before every value ascending, after
 * every value descending (PostgreSQL's default is the opposite). One place for every list and
 * walk: each key gets `NULLS FIRST` (ascending) or `NULLS LAST` (descending) unless it is known
 * to be a NOT NULL column, which keeps the plain order its index (default NULLS LAST) serves.
 * Nullable index columns are NULLS FIRST in sql/postgres (docs/postgres.md, decision 8), so the
 * same indexes serve both directions. A key it cannot resolve to a NOT NULL column of a table
 * or of a subquery's select list (an expression, a UNION's column, an output name) gets the
 * placement: the answer is right, at worst sorted.
 */
class SqliteNullOrder extends OperationNodeTransformer {
  readonly #scopes: Scope[] = [];

  constructor(private readonly columns: ColumnNullability) {
    super();
  }

  protected override transformSelectQuery(node: SelectQueryNode): SelectQueryNode {
    this.#scopes.push(scopeOf(node, this.columns));
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
    const scope = this.#scopes.at(-1);
    return scope !== undefined && isNotNullIn(scope, orderBy);
  }
}

/**
 * Whether a statement's tree has an ORDER BY anywhere: most statements (writes, look-ups by key)
 * have none and keep their tree, as the transformer would rebuild it whole (~6 us a compile).
 */
function holdsOrderBy(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(holdsOrderBy);
  if (typeof node !== 'object' || node === null) return false;
  if ((node as OperationNode).kind === 'OrderByNode') return true;
  for (const key in node) if (holdsOrderBy((node as Record<string, unknown>)[key])) return true;
  return false;
}

/** The plugin, over the schema's columns (readColumnNullability). */
export const sqliteNullOrder = (columns: ColumnNullability): KyselyPlugin => {
  const transformer = new SqliteNullOrder(columns);
  return {
    transformQuery: (args) => (holdsOrderBy(args.node) ? transformer.transformNode(args.node) : args.node),
    transformResult: (args) => Promise.resolve(args.result),
  };
};
