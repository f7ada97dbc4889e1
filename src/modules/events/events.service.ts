import type { Tx } from '../../db/engine.js';
import type { Deps } from '../../app/deps.js';
import type { Actor } from '../../lib/actor.js';
import { AppError, invalidQueryParams } from '../../lib/errors.js';
import { timeOrderedId } from '../../lib/ids.js';
import { stringifyJson } from '../../lib/raw-json.js';
import { listEnvelope } from '../../lib/pagination.js';
import {
  CAMPAIGN_TYPES,
  defaultCategoryOf,
  isCustomerEventType,
  type CampaignType,
  type CustomerEventType,
  type EventCategory,
} from './events.types.js';
import * as repo from './events.repository.js';
import { presentEvent, type CustomerActivity } from './events.presenter.js';
import type { ActivityQuery } from './events.schemas.js';
import { REDEMPTION_EVENT_DATA } from './redemption-events.seam.js';

type ReadDeps = Pick<Deps, 'db' | 'seams'>;

/**
 * What an event shows as its data.data: the customer and the related objects, as the API shows
 * them (`data`), or, for a redemption event, the record it is (`redemption_id`,
 * redemption-events.seam.ts): the feed shows that record as written, not a copy of it.
 */
type EventData = { data: Record<string, unknown>; redemption_id?: never } | { redemption_id: string; data?: never };

/** A customer event, as the change that causes it describes it. */
export type CustomerEventInput = EventData & {
  type: CustomerEventType;
  customer_id: string;
  /** Who caused it: gives data.event_source and group_id (the request id). */
  actor: Actor;
  /** When the change happened (the time the cause stored). */
  created_at: string;
  /** The campaign the event relates to, for the campaign_id / campaign_type filters. */
  campaign?: { id: string; type?: CampaignType | null };
  /** Defaults by type: see defaultCategoryOf. */
  category?: EventCategory;
};

function checkInput(event: CustomerEventInput): void {
  // Emitters are our own code: a wrong name is a bug, not a client error.
  if (!isCustomerEventType(event.type)) {
    throw new AppError('invalid_event', `Unknown customer event type ${event.type}`);
  }
  const campaignType = event.campaign?.type;
  if (campaignType && !CAMPAIGN_TYPES.includes(campaignType)) {
    throw new AppError('invalid_event', `Unknown campaign type ${campaignType}`);
  }
}

/** The stored row of an event (checked: emitters are our own code). */
function eventRow(event: CustomerEventInput) {
  checkInput(event);
  return {
    id: timeOrderedId('evcus_', event.created_at),
    customer_id: event.customer_id,
    type: event.type,
    category: event.category ?? defaultCategoryOf(event.type),
    campaign_id: event.campaign?.id ?? null,
    campaign_type: event.campaign?.type ?? null,
    ...(event.redemption_id === undefined
      ? { data: stringifyJson(event.data), redemption_id: null }
      : { data: '{}', redemption_id: event.redemption_id }),
    channel: event.actor.channel,
    api_key_name: event.actor.api_key?.name ?? null,
    api_key_app_id: event.actor.api_key?.app_id ?? null,
    group_id: event.actor.request_id,
    created_at: event.created_at,
  };
}

/**
 * Writes a customer event inside the caller's transaction, so the event exists exactly when
 * its cause does: if the transaction rolls back, so does the event.
 */
export async function emit(trx: Tx, event: CustomerEventInput): Promise<void> {
  await repo.insertEvent(trx, eventRow(event));
}

/** Writes many events in one statement (a sweep's batch), in the caller's transaction, in the order given. */
export async function emitMany(trx: Tx, events: CustomerEventInput[]): Promise<void> {
  await repo.insertEvents(trx, events.map(eventRow));
}

/** Events as the feed shows them, a redemption event's data read from its record (one question for the page). */
async function presentEvents(deps: ReadDeps, rows: repo.CustomerEventRow[]): Promise<CustomerActivity[]> {
  const ids = rows.flatMap((row) => (row.redemption_id === null ? [] : [row.redemption_id]));
  const records = ids.length === 0 ? undefined : await deps.seams.ask(REDEMPTION_EVENT_DATA, deps.db, ids);
  return rows.map((row) => presentEvent(row, row.redemption_id === null ? undefined : records?.get(row.redemption_id)));
}

/** The filters of an activity query, for the repository. */
const filtersOf = (customerId: string, query: ActivityQuery) => ({
  customerId,
  startDate: query.start_date,
  endDate: query.end_date,
  campaignId: query.campaign_id,
  campaignType: query.campaign_type,
  category: query.category,
  type: query.type,
});

/**
 * One page of a customer's activity (the reference's "List Customer Activity"). The customer is resolved by the caller.
 * `starting_after_id` must name an event of this customer.
 */
export async function listCustomerEvents(deps: ReadDeps, customerId: string, query: ActivityQuery) {
  const direction = query.order?.direction ?? 'desc';
  let after: repo.FeedPosition | undefined;
  if (query.starting_after_id !== undefined) {
    after = await repo.findEventPosition(deps.db, customerId, query.starting_after_id);
    if (!after) {
      throw invalidQueryParams(
        `Query parameter starting_after_id: ${query.starting_after_id} is not an event of customer ${customerId}`,
      );
    }
  }
  const rows = await repo.listEvents(deps.db, {
    ...filtersOf(customerId, query),
    take: query.limit + 1,
    direction,
    after,
  });
  const hasMore = rows.length > query.limit;
  const data = await presentEvents(deps, rows.slice(0, query.limit));
  const last = data.at(-1);
  return listEnvelope(
    'data',
    data,
    hasMore && last ? { has_more: true, more_starting_after: last.id } : { has_more: false },
  );
}

/**
 * The deprecated `/activities` forms (docs/deviations.md): the page listCustomerEvents gives,
 * with `total`, how many events the filters match (the deprecated lists' field).
 */
export async function listCustomerEventsWithTotal(deps: ReadDeps, customerId: string, query: ActivityQuery) {
  const { object, data_ref, data, ...more } = await listCustomerEvents(deps, customerId, query);
  const total = await repo.countEvents(deps.db, filtersOf(customerId, query));
  return { object, data_ref, data, total, ...more };
}
