import { date, limit, matching, oneOf, order, querySchema, text, type QueryOf } from '../../lib/query-params.js';
import { CAMPAIGN_TYPES, EVENT_CATEGORIES, isFilterableEventType } from './events.types.js';

/** The `order` values of GET /v1/customers/{id}/activity (each also with a leading `-`). */
export const ACTIVITY_ORDER_FIELDS = ['created_at'] as const;

const activityParams = {
  limit: limit(),
  order: order(ACTIVITY_ORDER_FIELDS),
  starting_after_id: text(),
  start_date: date(),
  end_date: date(),
  campaign_id: text(),
  campaign_type: oneOf(CAMPAIGN_TYPES),
  category: oneOf(EVENT_CATEGORIES),
  type: matching(
    isFilterableEventType,
    (raw) => `must be a customer event name such as customer.created; ${raw} is not one`,
  ),
};

/** The query of GET /v1/customers/{id}/activity (the reference's "List Customer Activity"); newest first unless order=created_at. */
export const activityQuerySchema = querySchema(activityParams);
export type ActivityQuery = QueryOf<typeof activityParams>;
