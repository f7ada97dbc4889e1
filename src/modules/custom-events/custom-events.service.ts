import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { upsertSimpleCustomer } from '../customers/customers.service.js';
import { emit } from '../events/events.service.js';
import { earnOnCustomEvent } from '../loyalty/earning-custom.service.js';
import { presentTrackedEvent, type CustomEventObject } from './custom-events.presenter.js';
import type { TrackEventBody } from './custom-events.schemas.js';

type WriteDeps = Pick<Deps, 'db' | 'clock' | 'seams'>;

/**
 * Tracks a custom event (POST /v1/events, /client/v1/events), in one transaction: the
 * customer upserted by id or source_id (created when unknown; an unknown `id` is 404), the
 * customer's `customer.custom_event` activity (data: the customer and the event), and the
 * earning rules of that event name on the customer's loyalty cards (earning-custom.service.ts).
 * Anything refused leaves nothing behind.
 */
export async function trackCustomEvent(deps: WriteDeps, actor: Actor, body: TrackEventBody) {
  const at = isoNow(deps.clock);
  const event = await deps.db.transaction().execute(async (trx) => {
    const customer = await upsertSimpleCustomer(trx, { actor, at }, body.customer);
    const tracked: CustomEventObject = {
      id: newId('event_'),
      object: 'event',
      type: body.event,
      customer,
      referral: body.referral ?? null,
      loyalty: body.loyalty ?? null,
      metadata: body.metadata ?? {},
      created_at: at,
    };
    await emit(trx, { type: 'customer.custom_event', customer_id: customer.id, data: { customer, custom_event: tracked }, actor, created_at: at });
    const cardCode = body.loyalty?.code ?? undefined;
    await earnOnCustomEvent(deps, trx, { id: tracked.id, type: tracked.type, customerId: customer.id, metadata: tracked.metadata, cardCode, actor, at });
    return tracked;
  });
  return presentTrackedEvent(event);
}
