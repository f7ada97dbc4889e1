import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { parseIsoDate } from '../../lib/dates.js';
import { AppError } from '../../lib/errors.js';
import { creditGift, debitGift } from './gift-ledger.service.js';
import type { LedgerChangeInput, LedgerResult } from './ledger-write.service.js';
import { presentBalance } from './ledgers.presenter.js';
import type { MemberBalanceBody } from './ledgers.schemas.js';
import { requireLedgerCard } from './member-card.service.js';
import { creditPoints, debitPoints, type PointsExpiration } from './points-ledger.service.js';

type BalanceDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

/** A manual balance change as the endpoints and `promo balance` ask for it. */
export interface BalanceChange {
  code: string;
  /** The member form's campaign (id or name): the card must be of it. */
  campaign?: string;
  /** Signed, non-zero: points for a loyalty card, credits (minor units) for a gift card. */
  amount: number;
  expiration_type?: MemberBalanceBody['expiration_type'];
  expiration_date?: string | null;
  reason?: string | null;
  source_id?: string | null;
  /** The channel: X-Voucherify-Channel, or `promo balance`. */
  source?: string | null;
  actor: Actor;
}

function expirationOf(change: BalanceChange): PointsExpiration {
  if (change.expiration_type === 'NON_EXPIRING') return { type: 'NON_EXPIRING' };
  if (change.expiration_type === 'CUSTOM_DATE') {
    const date = parseIsoDate(change.expiration_date);
    if (!date)
      throw new AppError(
        'invalid_payload',
        'Property .expiration_date cannot be recognized as a ISO-8601 compliant date',
      );
    return { type: 'CUSTOM_DATE', date: date.slice(0, 10) };
  }
  return { type: 'PROGRAM_RULES' };
}

/**
 * Adds (amount > 0) or removes points or credits by hand: one IMMEDIATE transaction with the
 * ledger's guarded change. A repeated source_id on the card replays the first change's result.
 */
export async function changeBalance(deps: BalanceDeps, change: BalanceChange): Promise<LedgerResult> {
  const expiration = expirationOf(change);
  const at = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const card = await requireLedgerCard(trx, change.code, change.campaign);
    const input: LedgerChangeInput = {
      voucherId: card.id,
      amount: Math.abs(change.amount),
      reason: change.reason,
      sourceId: change.source_id,
      source: change.source,
      actor: change.actor,
      at,
      card,
    };
    if (card.type === 'LOYALTY_CARD') {
      return change.amount > 0 ? creditPoints(deps, trx, { ...input, expiration }) : debitPoints(deps, trx, input);
    }
    if (card.type === 'GIFT_VOUCHER')
      return change.amount > 0 ? creditGift(deps, trx, input) : debitGift(deps, trx, input);
    throw new AppError(
      'invalid_voucher',
      `${card.code} is a ${card.type}: only loyalty cards and gift cards have a balance`,
    );
  });
}

/** The balance answer of one change (the 4.6 paths say `points`, /vouchers/{code}/balance `amount`). */
export async function changeBalanceAnswer(deps: BalanceDeps, change: BalanceChange, field: 'points' | 'amount') {
  return presentBalance((await changeBalance(deps, change)).entry, field);
}
