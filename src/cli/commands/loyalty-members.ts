import { flagsSchema, integer } from '../../lib/query-params.js';
import { parse } from '../../lib/validate.js';
import { listMembers } from '../../modules/loyalty/index.js';
import { printJson, runWithDeps, type CommonOptions } from '../run.js';

/** The same bounds as the endpoint's `limit`. */
const membersFlags = flagsSchema({ limit: integer(1, 100, 20) });

const COLUMNS = ['CODE', 'CUSTOMER', 'POINTS', 'BALANCE', 'CREATED'] as const;

/** Rows as a plain text table: each column as wide as its widest cell, two spaces between. */
function table(rows: string[][]): string {
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * `promo loyalty members <program>`: the program's newest members (cards), as GET
 * /v1/loyalties/{id}/members lists them: code, holder, points, balance, created. `--json`
 * prints that answer.
 */
export const loyaltyMembersCommand = (program: string, options: CommonOptions & { limit?: string }) =>
  runWithDeps(options, async (deps) => {
    const { limit } = parse(membersFlags, options, 'flags');
    const list = await listMembers(deps, program, { limit, page: 1 });
    if (options.json) return printJson(list);
    const rows = list.vouchers.map((card) => [
      card.code,
      card.holder_id ?? '-',
      String(card.loyalty_card?.points ?? 0),
      String(card.loyalty_card?.balance ?? 0),
      card.created_at,
    ]);
    process.stdout.write(`${table([[...COLUMNS], ...rows])}\n${rows.length} of ${list.total} member(s)\n`);
  });
