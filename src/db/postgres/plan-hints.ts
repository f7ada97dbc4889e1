import { OperationNodeTransformer, type KyselyPlugin, type RawNode } from 'kysely';

/** The SQL notIndexed (db/sqlite/plan-hints.ts) writes around its column: `+col`. */
const isNotIndexed = (node: RawNode): boolean =>
  node.sqlFragments.length === 2 && node.sqlFragments[0] === '+' && node.sqlFragments[1] === '';

/**
 * Drops SQLite's planner hint `+column` (notIndexed): PostgreSQL has no unary plus on text and
 * chooses its plans from statistics, so the column stands for itself.
 */
class WithoutPlanHints extends OperationNodeTransformer {
  protected override transformRaw(node: RawNode): RawNode {
    const raw = super.transformRaw(node);
    return isNotIndexed(raw) ? { ...raw, sqlFragments: ['', ''] } : raw;
  }
}

export const withoutPlanHints = (): KyselyPlugin => {
  const transformer = new WithoutPlanHints();
  return {
    transformQuery: (args) => transformer.transformNode(args.node),
    transformResult: (args) => Promise.resolve(args.result),
  };
};
