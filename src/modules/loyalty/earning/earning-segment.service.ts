import { pointsEarned, type EarningLoyalty } from '../../../engine/loyalty/points.js';
import { isActiveAt, presentValidity } from '../../../engine/validity/index.js';
import { findSimpleCustomer } from '../../customers/index.js';
import type { SegmentEntered } from '../../segments/index.js';
import type { Tx } from '../../../db/engine.js';
import { listActiveRulesForEvent } from './earning-rules.repository.js';
import { listHeldCards } from './earning.repository.js';
import { creditRulePoints, tierMappingsOf, type EarnDeps } from './earning.service.js';

const SEGMENT_ENTERED_EVENT = 'customer.segment.entered';

const segmentIdOf = (json: string | null): string | undefined =>
  json === null ? undefined : (JSON.parse(json) as { id?: string }).id;

/**
 * Earning on a customer's entry into an auto-update segment (the segments' seam, inside the
 * customer change that made it enter; once per entry): in each program where the customer
 * holds an active card, every active rule for `customer.segment.entered` whose `segment.id` is
 * that segment, valid at the entry's time, credits its points (FIXED or CUSTOMER_METADATA,
 * with the member's tier mapping) at once through the ledger as POINTS_ACCRUAL.
 */
export async function earnOnSegmentEntered(deps: EarnDeps, trx: Tx, entry: SegmentEntered): Promise<void> {
  const cards = await listHeldCards(trx, entry.customerId);
  if (cards.length === 0) return;
  const rules = (
    await listActiveRulesForEvent(trx, [...new Set(cards.map((card) => card.campaign_id))], SEGMENT_ENTERED_EVENT)
  ).filter((rule) => segmentIdOf(rule.segment) === entry.segmentId && isActiveAt(presentValidity(rule), entry.at));
  if (rules.length === 0) return;
  const customerMetadata = (await findSimpleCustomer(trx, entry.customerId))?.metadata ?? null;
  for (const card of cards) {
    const mappings = await tierMappingsOf(trx, card.id);
    for (const rule of rules.filter((r) => r.campaign_id === card.campaign_id)) {
      const points = pointsEarned(JSON.parse(rule.loyalty) as EarningLoyalty, {
        customerMetadata,
        tier: mappings[rule.id] ?? null,
      });
      if (points > 0)
        await creditRulePoints(deps, trx, { voucherId: card.id, rule, points, actor: entry.actor, at: entry.at });
    }
  }
}
