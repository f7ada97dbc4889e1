import { pointsEarned, type EarningLoyalty } from '../../../engine/loyalty/points.js';
import { isActiveAt, presentValidity } from '../../../engine/validity/index.js';
import type { Actor } from '../../../lib/actor.js';
import { notFound } from '../../../lib/errors.js';
import { findSimpleCustomer } from '../../customers/index.js';
import { listActiveRulesForEvent, type EarningRuleRow } from './earning-rules.repository.js';
import { listHeldCards, type HeldCard } from './earning.repository.js';
export type { HeldCard } from './earning.repository.js';
import { creditRulePoints, tierMappingsOf, type EarnDeps } from './earning.service.js';
import type { Db, Tx } from '../../../db/engine.js';

/** A custom event as earning needs it (POST /v1/events, /client/v1/events). */
export interface TrackedCustomEvent {
  /** The event's own id (the activity's event.id). */
  id: string;
  /** The event's name: the rules whose `event` is this name fire. */
  type: string;
  customerId: string;
  metadata: Record<string, unknown>;
  /** The card the request's `loyalty.code` names (findEarningCard): only it earns. */
  card?: HeldCard;
  actor: Actor;
  at: string;
}

/** The active card of a live program that the customer holds under this code: 404 `voucher` otherwise (another's card included). */
export async function findEarningCard(trx: Tx, customerId: string, code: string): Promise<HeldCard> {
  const card = (await listHeldCards(trx, customerId)).find((held) => held.code === code);
  if (!card) throw notFound('voucher', code);
  return card;
}

/** The customer's metadata, read only when a rule measures it (CUSTOMER_METADATA). */
async function customerMetadataFor(
  trx: Tx,
  rules: EarningRuleRow[],
  customerId: string,
): Promise<Record<string, unknown> | null> {
  const needed = rules.some(
    (rule) => (JSON.parse(rule.loyalty) as EarningLoyalty).calculation_type === 'CUSTOMER_METADATA',
  );
  return needed ? ((await findSimpleCustomer(trx, customerId))?.metadata ?? null) : null;
}

/**
 * Earning on a custom event, inside the event's transaction, by the path paid orders take
 * (earning.service.ts): in each program where the customer holds an active card (or only on
 * the card `loyalty.code` names), every active custom-event rule for this event name, valid at
 * the event's time, earns on that card with the member's tier mapping (FIXED,
 * CUSTOM_EVENT_METADATA from the event's metadata, or CUSTOMER_METADATA), through the ledger
 * as POINTS_ACCRUAL with the event in the row's details. Pending periods belong to orders: a
 * custom event's points count at once, as a tier move's do.
 */
export async function earnOnCustomEvent(deps: EarnDeps, trx: Tx, event: TrackedCustomEvent): Promise<void> {
  const cards = event.card ? [event.card] : await listHeldCards(trx, event.customerId);
  if (cards.length === 0) return;
  const campaignIds = [...new Set(cards.map((card) => card.campaign_id))];
  const rules = (await listActiveRulesForEvent(trx, campaignIds, event.type)).filter(
    (rule) => rule.custom_event !== null && isActiveAt(presentValidity(rule), event.at),
  );
  if (rules.length === 0) return;
  const input = {
    customEventMetadata: event.metadata,
    customerMetadata: await customerMetadataFor(trx, rules, event.customerId),
  };
  const customEvent = { id: event.id, type: event.type };
  for (const card of cards) {
    const mappings = await tierMappingsOf(trx, card.id);
    for (const rule of rules.filter((r) => r.campaign_id === card.campaign_id)) {
      const points = pointsEarned(JSON.parse(rule.loyalty) as EarningLoyalty, {
        ...input,
        tier: mappings[rule.id] ?? null,
      });
      if (points > 0)
        await creditRulePoints(deps, trx, {
          voucherId: card.id,
          rule,
          points,
          customEvent,
          actor: event.actor,
          at: event.at,
        });
    }
  }
}
