import type { Db } from '../../db/engine.js';
import { question, type Answerer, type Seams } from '../../lib/seams.js';

/**
 * The data of redemption events stored by reference (sql/0038: `redemption_id`, their data
 * '{}'): for each record id, the event's data.data as the event was written ({customer,
 * redemption, voucher, promotion_tier}). The redemptions module answers it (it owns the
 * records; it imports this module, so this one may not import it).
 */
export const REDEMPTION_EVENT_DATA = question<Db, readonly string[], Map<string, Record<string, unknown>>>(
  'events.redemption-event-data',
);

export const answerRedemptionEventData = (
  seams: Seams,
  answerer: Answerer<Db, readonly string[], Map<string, Record<string, unknown>>>,
): void => seams.answer(REDEMPTION_EVENT_DATA, answerer);
