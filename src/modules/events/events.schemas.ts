import { parseDateQuery } from '../../lib/dates.js';
import { invalidQueryParams } from '../../lib/errors.js';
import { parseLimit, parseOrder, parseString, type Query } from '../../lib/pagination.js';
import { parseQueryFields } from '../../lib/query-fields.js';
import {
  CAMPAIGN_TYPES,
  EVENT_CATEGORIES,
  isFilterableEventType,
  type CampaignType,
  type EventCategory,
  type FilterableEventType,
} from './event-types.js';

/** The `order` values of GET /v1/customers/{id}/activity (each also with a leading `-`). */
export const ACTIVITY_ORDER_FIELDS = ['created_at'] as const;

/** The query of GET /v1/customers/{id}/activity (SPEC.md 4.12), checked. */
export interface ActivityQuery {
  limit: number;
  order: 'created_at' | '-created_at';
  starting_after_id?: string;
  start_date?: string;
  end_date?: string;
  campaign_id?: string;
  campaign_type?: CampaignType;
  category?: EventCategory;
  type?: FilterableEventType;
}

function oneOf<T extends string>(query: Query, name: string, allowed: readonly T[]): T | undefined {
  const value = parseString(query, name);
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw invalidQueryParams(`Query parameter ${name} must be one of: ${allowed.join(', ')}`);
  return value as T;
}

function eventType(query: Query): FilterableEventType | undefined {
  const value = parseString(query, 'type');
  if (value === undefined) return undefined;
  if (!isFilterableEventType(value)) {
    throw invalidQueryParams(`Query parameter type must be a customer event name such as customer.created; ${value} is not one`);
  }
  return value;
}

/** Every parameter checked; a bad one is 400 invalid_query_params, never ignored or clamped. */
export function parseActivityQuery(query: Query): ActivityQuery {
  return parseQueryFields<ActivityQuery>({
    limit: () => parseLimit(query),
    order: () => (parseOrder(query, ACTIVITY_ORDER_FIELDS)?.direction === 'asc' ? 'created_at' : '-created_at'),
    starting_after_id: () => parseString(query, 'starting_after_id'),
    start_date: () => parseDateQuery(query, 'start_date'),
    end_date: () => parseDateQuery(query, 'end_date'),
    campaign_id: () => parseString(query, 'campaign_id'),
    campaign_type: () => oneOf(query, 'campaign_type', CAMPAIGN_TYPES),
    category: () => oneOf(query, 'category', EVENT_CATEGORIES),
    type: () => eventType(query),
  });
}
