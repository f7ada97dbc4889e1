import type { Db } from '../../db/engine.js';
import { presentRedemption, type RedemptionRow } from './redemptions.presenter.js';
import { findRedemptionsByIds, NO_RELATED_REDEMPTIONS } from './redemptions.repository.js';

/**
 * A record as its redemption event was written: a later rollback sets its status to
 * ROLLED_BACK and lists itself in related_redemptions; the event shows the record before that.
 */
const asWritten = (row: RedemptionRow): RedemptionRow => ({
  ...row,
  status: row.result === 'SUCCESS' ? 'SUCCEEDED' : 'FAILED',
  related_redemptions: NO_RELATED_REDEMPTIONS,
});

/** A redemption event's data.data from its record: what redemption-write.service's eventOf wrote before sql/0038. */
export function redemptionEventData(row: RedemptionRow): Record<string, unknown> {
  const redemption = presentRedemption(asWritten(row));
  return {
    customer: redemption.customer,
    redemption,
    ...(redemption.voucher ? { voucher: redemption.voucher } : {}),
    ...(redemption.promotion_tier ? { promotion_tier: redemption.promotion_tier } : {}),
  };
}

/** The events module's REDEMPTION_EVENT_DATA, answered: each record's event data, by id. */
export async function answerRedemptionEvents(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const rows = await findRedemptionsByIds(db, [...new Set(ids)]);
  return new Map(rows.map((row) => [row.id, redemptionEventData(row)]));
}
