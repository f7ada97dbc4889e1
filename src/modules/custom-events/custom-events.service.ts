import type { Tx } from '../../db/engine.js';
import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { presentSimpleCampaign, getCampaign } from '../campaigns/index.js';
import { upsertSimpleCustomer } from '../customers/index.js';
import { emit } from '../events/index.js';
import { earnOnCustomEvent, findEarningCard, type HeldCard } from '../loyalty/index.js';
import { getVoucher } from '../vouchers/index.js';
import {
  presentEventActivity,
  presentSimpleCard,
  presentTrackedEvent,
  type CustomEventObject,
  type EventLoyalty,
} from './custom-events.presenter.js';
import type { TrackEventBody } from './custom-events.schemas.js';

type WriteDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

/** The card and program the event is attributed to, for its activity. */
async function loyaltyOf(trx: Tx, card: HeldCard): Promise<EventLoyalty> {
  const [voucher, campaign] = await Promise.all([
    getVoucher({ db: trx }, card.code),
    getCampaign({ db: trx }, card.campaign_id),
  ]);
  return { voucher: presentSimpleCard(voucher), campaign: presentSimpleCampaign(campaign) };
}

/**
 * Tracks a custom event (POST /v1/events, /client/v1/events), in one transaction: the
 * customer upserted by id or source_id (created when unknown; an unknown `id` is 404), the
 * card `loyalty.code` names (an active card the customer holds, else 404), the customer's
 * `customer.custom_event` activity (EventCustomerCustomEvent), and the earning rules of that
 * event name (earning-custom.service.ts). Anything refused leaves nothing behind.
 */
export async function trackCustomEvent(deps: WriteDeps, actor: Actor, body: TrackEventBody) {
  const at = isoNow(deps.clock);
  const event = await deps.db.transaction().execute(async (trx) => {
    const customer = await upsertSimpleCustomer(trx, { actor, at, seams: deps.seams }, body.customer);
    const code = body.loyalty?.code ?? undefined;
    const card = code === undefined ? undefined : await findEarningCard(trx, customer.id, code);
    const tracked: CustomEventObject = {
      id: newId('event_'),
      object: 'event',
      type: body.event,
      customer,
      // The reference's CustomEvent requires both objects: empty when the request had none.
      referral: body.referral ?? {},
      loyalty: body.loyalty ?? {},
      metadata: body.metadata ?? {},
      created_at: at,
    };
    const data = presentEventActivity(tracked, card ? await loyaltyOf(trx, card) : null);
    // Attributed to a card, the event is also the program's: the member's activity shows it.
    const campaign = card && { id: card.campaign_id, type: 'LOYALTY_PROGRAM' as const };
    await emit(trx, {
      type: 'customer.custom_event',
      customer_id: customer.id,
      data,
      actor,
      created_at: at,
      ...(campaign && { campaign }),
    });
    await earnOnCustomEvent(deps, trx, {
      id: tracked.id,
      type: tracked.type,
      customerId: customer.id,
      metadata: tracked.metadata,
      card,
      actor,
      at,
    });
    return tracked;
  });
  return presentTrackedEvent(event);
}
