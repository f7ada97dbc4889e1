import { flagsSchema, limit, text } from '../../lib/query-params.js';
import { parse } from '../../lib/validate.js';
import { listCardTransactions } from '../../modules/ledgers/index.js';
import { printJson, runWithDeps, type CommonOptions } from '../run.js';
import { textTable } from '../table.js';

const transactionsFlags = flagsSchema({ limit: limit(), startingAfterId: text(), campaign: text() });

/**
 * `promo loyalty transactions <card>`: one page of the card's ledger, newest first, as
 * GET /v1/loyalties/members/{card}/transactions answers it (--json: exactly that), else a
 * table, with the cursor of the next page when there is one.
 */
export const loyaltyTransactionsCommand = (card: string, options: CommonOptions & Record<string, unknown>) =>
  runWithDeps(options, async (deps) => {
    const flags = parse(transactionsFlags, options, 'flags');
    const page = await listCardTransactions(
      deps,
      { code: card, campaign: flags.campaign },
      { limit: flags.limit, starting_after_id: flags.startingAfterId },
    );
    if (options.json) return printJson(page);
    const rows = page.data.map((t) => {
      const { balance } = t.details;
      const change =
        (balance as { points?: number; amount?: number }).points ?? (balance as { amount?: number }).amount ?? 0;
      return [
        t.id,
        t.created_at,
        t.type,
        `${change > 0 ? '+' : ''}${change}`,
        String(balance.balance),
        t.source_id ?? '',
        t.source ?? '',
        t.reason ?? '',
      ];
    });
    process.stdout.write(
      `${textTable(['ID', 'CREATED', 'TYPE', 'CHANGE', 'BALANCE', 'SOURCE ID', 'SOURCE', 'REASON'], rows)}\n`,
    );
    if (page.has_more) process.stdout.write(`more: --starting-after-id ${page.more_starting_after}\n`);
  });
