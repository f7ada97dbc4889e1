import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { fannedOut } from './fanout.repository.js';

type Db = Kysely<Database>;

/**
 * The retention sweep's statements (retention.sweep.ts). Its walks go in seq order and stop at
 * the first page too young to go: rows are inserted in commit order, so created_at grows with
 * seq (to within a request's time).
 */
/** A walk's next page: the next `limit` rows of the table after `afterSeq`, oldest first. */
export const pageFrom = (db: Db, table: 'webhook_deliveries' | 'webhook_events', afterSeq: number, limit: number) =>
  db.selectFrom(table).select(['seq', 'created_at']).where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();

/** Deletes the finished deliveries with seq in [from, to] past their retention; how many went. */
export async function deleteFinishedDeliveries(
  trx: Db,
  range: { from: number; to: number },
  before: { delivered: string; failed: string },
): Promise<number> {
  const result = await trx
    .deleteFrom('webhook_deliveries')
    .where('seq', '>=', range.from)
    .where('seq', '<=', range.to)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'DELIVERED'), eb('finished_at', '<', before.delivered)]),
        eb.and([eb('status', '=', 'FAILED'), eb('finished_at', '<', before.failed)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes the events with seq in [from, to] created before `before` that no delivery is owed or
 * kept for any more (webhook_deliveries_event), once fanned out (an event still waiting for its
 * deliveries to be made has none yet); how many went.
 */
export async function deleteUnreferencedEvents(
  trx: Db,
  range: { from: number; to: number },
  before: string,
): Promise<number> {
  const result = await trx
    .deleteFrom('webhook_events as e')
    .where('e.seq', '>=', range.from)
    .where('e.seq', '<=', range.to)
    .where('e.created_at', '<', before)
    .where(fannedOut(trx))
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('webhook_deliveries as d').select('d.seq').whereRef('d.event_seq', '=', 'e.seq'))),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
