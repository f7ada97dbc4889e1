import { limit, order, querySchema, text, type QueryOf } from '../../../lib/query-params.js';

/** The pending-points lists' `order` (the reference's: `id` or `-id`; ids sort by creation). */
export const PENDING_POINTS_ORDER_FIELDS = ['id'] as const;

const listParams = { limit: limit(), order: order(PENDING_POINTS_ORDER_FIELDS), starting_after_id: text() };
export const pendingPointsListQuerySchema = querySchema(listParams);
export type PendingPointsListQuery = QueryOf<typeof listParams>;
