import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { AppError } from '../../lib/errors.js';
import { parse } from '../../lib/validate.js';
import { createExport, type ExportView } from '../exports/index.js';
import { requireLedgerCard } from './member-card.service.js';
import { transactionsExportSchema } from './ledgers.schemas.js';

type ExportDeps = Pick<Deps, 'db' | 'clock' | 'exportsDir'>;

/**
 * The filters of one card's export: the request's, joined by `and` with the card's own
 * `voucher_id` condition (`$in`, as the reference's examples write it; promo's `voucher_id` is
 * the voucher's id, not its code). The path names the card, so the filters may not name
 * `voucher_id` nor join their conditions by `or` (400 invalid_export_params).
 */
function cardFilters(filters: Record<string, unknown> | null | undefined, voucherId: string): Record<string, unknown> {
  const given = filters ?? {};
  const problems: string[] = [];
  if ('voucher_id' in given)
    problems.push('parameters.filters.voucher_id: the export holds the transactions of the voucher the path names');
  const fields = Object.keys(given).filter((key) => key !== 'junction' && key !== 'voucher_id');
  if (String(given.junction ?? 'and').toLowerCase() === 'or' && fields.length > 0) {
    problems.push('parameters.filters.junction: the transactions of one voucher take filters joined by and');
  }
  if (problems.length > 0) throw new AppError('invalid_export_params', problems.join('; '));
  return { ...given, voucher_id: { conditions: { $in: [voucherId] } } };
}

/**
 * export-voucher-transactions and export-loyalty-card-transactions (the SDK's
 * `vouchers.exportTransactions`, `loyalties.exportCardTransactions`): a `voucher_transactions`
 * export (POST /v1/exports, docs/api.md "Exports") of one gift or loyalty card's ledger. With a
 * campaign, the card must be of it (404 otherwise).
 */
export async function exportCardTransactions(
  deps: ExportDeps,
  card: { code: string; campaign?: string },
  body: unknown,
  actor: Actor,
  origin: string,
): Promise<ExportView> {
  const { parameters } = parse(transactionsExportSchema, body ?? {}, 'body');
  const found = await requireLedgerCard(deps.db, card.code, card.campaign);
  const filters = cardFilters(parameters?.filters, found.id);
  return createExport(
    deps,
    { exported_object: 'voucher_transactions', parameters: { ...parameters, filters } },
    actor,
    origin,
  );
}
