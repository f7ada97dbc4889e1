import type { Insertable, Selectable } from 'kysely';
import { insertTemplate } from '../../db/query-template.js';
import type { CustomerEventTable } from './events.table.js';
import type { Db } from '../../db/engine.js';

export type CustomerEventRow = Selectable<CustomerEventTable>;
export type NewCustomerEventRow = Insertable<CustomerEventTable>;

// On the redemption path: compiled once per set of columns and number of rows (docs/performance.md "Hot paths").
const insertRows = insertTemplate('customer_events');

export const insertEvent = (db: Db, row: NewCustomerEventRow): Promise<void> => insertRows(db, [row]);

/** Many events in one statement, in the order given. */
export const insertEvents = (db: Db, rows: NewCustomerEventRow[]): Promise<void> => insertRows(db, rows);

/** A position in a customer's feed: events are ordered by (created_at, seq). */
export interface FeedPosition {
  created_at: string;
  seq: number;
}

export const findEventPosition = (db: Db, customerId: string, eventId: string): Promise<FeedPosition | undefined> =>
  db
    .selectFrom('customer_events')
    .select(['created_at', 'seq'])
    .where('id', '=', eventId)
    .where('customer_id', '=', customerId)
    .executeTakeFirst();

export interface FeedQuery {
  customerId: string;
  /** Rows to read (the caller asks one more than it shows, to learn has_more). */
  take: number;
  direction: 'asc' | 'desc';
  /** Only events strictly after this position, in the direction of the listing. */
  after?: FeedPosition;
  startDate?: string;
  endDate?: string;
  campaignId?: string;
  campaignType?: string;
  category?: string;
  type?: string;
}

/** The filters of a feed query, on a query of the customer's events (each served by an index of sql/0003). */
type FeedFilters = Pick<
  FeedQuery,
  'customerId' | 'startDate' | 'endDate' | 'campaignId' | 'campaignType' | 'category' | 'type'
>;

function filtered(db: Db, q: FeedFilters) {
  let query = db.selectFrom('customer_events').where('customer_id', '=', q.customerId);
  if (q.startDate !== undefined) query = query.where('created_at', '>=', q.startDate);
  if (q.endDate !== undefined) query = query.where('created_at', '<=', q.endDate);
  if (q.campaignId !== undefined) query = query.where('campaign_id', '=', q.campaignId);
  if (q.campaignType !== undefined) query = query.where('campaign_type', '=', q.campaignType);
  if (q.category !== undefined) query = query.where('category', '=', q.category as CustomerEventRow['category']);
  if (q.type !== undefined) query = query.where('type', '=', q.type);
  return query;
}

/**
 * One page of a customer's feed. The (created_at, seq) pair is a total order, so a cursor
 * never skips nor repeats events that share a timestamp; each filter combination is served by
 * customer_events_feed, _type or _campaign without a sort.
 */
export function listEvents(db: Db, q: FeedQuery): Promise<CustomerEventRow[]> {
  let query = filtered(db, q).selectAll();
  if (q.after) {
    const { created_at, seq } = q.after;
    query = query.where((eb) =>
      eb(eb.refTuple('created_at', 'seq'), q.direction === 'asc' ? '>' : '<', eb.tuple(created_at, seq)),
    );
  }
  return query.orderBy('created_at', q.direction).orderBy('seq', q.direction).limit(q.take).execute();
}

/** How many of the customer's events the filters match (the deprecated `/activities` lists' `total`). */
export async function countEvents(db: Db, q: FeedFilters): Promise<number> {
  const row = await filtered(db, q)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}
