import type { CreditsCreditType, CreditsDebitType } from './ledger.types.js';
import type { Tx } from '../../db/engine.js';
import {
  applyEffects,
  checkAmount,
  findCardFor,
  findReplay,
  writeEntry,
  type Db,
  type LedgerChangeInput,
  type LedgerDeps,
  type LedgerResult,
} from './ledger-write.service.js';

/**
 * THE GIFT CREDITS LEDGER: the one way any module adds or takes a gift card's credits (minor
 * units), inside the caller's transaction, like the points ledger but without buckets. More
 * than the balance: 400 gift_amount_exceeded, nothing written.
 */
export interface GiftChangeInput<T> extends LedgerChangeInput {
  type?: T;
}

export async function creditGift(
  deps: LedgerDeps,
  trx: Tx,
  input: GiftChangeInput<CreditsCreditType>,
): Promise<LedgerResult> {
  return change(deps, trx, input, input.type ?? 'CREDITS_ADDITION');
}

export async function debitGift(
  deps: LedgerDeps,
  trx: Tx,
  input: GiftChangeInput<CreditsDebitType>,
): Promise<LedgerResult> {
  return change(deps, trx, input, input.type ?? 'CREDITS_REMOVAL');
}

async function change(
  deps: LedgerDeps,
  trx: Tx,
  input: LedgerChangeInput,
  type: CreditsCreditType | CreditsDebitType,
): Promise<LedgerResult> {
  checkAmount(input.amount);
  const replay = await findReplay(trx, input);
  if (replay) return replay;
  const card = await findCardFor(trx, input.voucherId, type, input.card);
  const result = await writeEntry(trx, card, type, input);
  await applyEffects(deps, trx, result, input.actor);
  return result;
}
