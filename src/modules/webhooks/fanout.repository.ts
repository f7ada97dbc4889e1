import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { sendoutId } from './webhooks.repository.js';

type Db = Kysely<Database>;

/** An event's place in the fan-out's order: (writer_xid, seq); writer_xid is null on SQLite. */
export interface EventPlace {
  xid: number | null;
  seq: number;
}

const isPostgres = (db: Db) => dialectOf(db).name === 'postgres';

/**
 * Events after `f`'s place and up to `to` (when given), in the fan-out's order. On SQLite seq
 * order is commit order. On PostgreSQL the order is (writer_xid, seq), read below the horizon of
 * running transactions (as the queues are, queue.repository.ts): an event committed later
 * always sorts after the fan-out's place, so none is passed over.
 */
function eventsAfter(db: Db, to?: EventPlace): RawBuilder<unknown> {
  if (!isPostgres(db)) return sql`e.seq > f.event_seq ${to === undefined ? sql`` : sql`AND e.seq <= ${to.seq}`}`;
  const upTo = to === undefined ? sql`` : sql`AND (e.writer_xid, e.seq) <= (${to.xid}::bigint, ${to.seq}::bigint)`;
  return sql`(e.writer_xid, e.seq) > (coalesce(f.event_xid, 0), f.event_seq) ${upTo}
    AND e.writer_xid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;
}

/** Whether `place` comes after `than` in the fan-out's order (a null xid, SQLite's, sorts first as there). */
const isAfter = (place: EventPlace, than: EventPlace): boolean => {
  const [a, b] = [Number(place.xid ?? -1), Number(than.xid ?? -1)];
  return a !== b ? a > b : Number(place.seq) > Number(than.seq);
};

/** Whether webhook `w` subscribes to event `e`'s type (webhooks.events is a JSON array). */
const subscribes = (db: Db): RawBuilder<unknown> =>
  isPostgres(db) ? sql`w.events::jsonb ? e.type` : sql`EXISTS (SELECT 1 FROM json_each(w.events) WHERE value = e.type)`;

/**
 * A new delivery's first attempt, due at once. On PostgreSQL by the database's clock, which the
 * claims compare with (queue.repository.ts databaseClockAhead): the event's created_at is its
 * writing server's clock, and a server whose clock ran ahead would hold its events back that long.
 */
const dueNow = (db: Db): RawBuilder<unknown> =>
  isPostgres(db)
    ? sql`to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql`e.created_at`;

/** The place of the `limit`th event waiting to be fanned out (or of the last one); undefined when none waits. */
export async function fanOutEnd(db: Db, limit: number): Promise<EventPlace | undefined> {
  const { rows } = await sql<EventPlace>`
    SELECT e.writer_xid AS xid, e.seq AS seq FROM webhook_events e, webhook_fanout f
    WHERE ${eventsAfter(db)}
    ORDER BY e.writer_xid NULLS FIRST, e.seq LIMIT ${limit}`.execute(db);
  return rows.at(-1);
}

/**
 * THE FAN-OUT, in the caller's transaction: one PENDING delivery per active webhook that
 * subscribes, for each event from the fan-out's place up to `to`, written in event order (so a
 * queue's (writer_xid, seq) order is the events'), then the place moves to `to`. The place is
 * read in the transaction, and the move guarded by it: if another sender moved it meanwhile
 * (to `to` or beyond, or during this transaction), nothing changes and this returns false (the
 * caller rolls back). On PostgreSQL the place's row is taken
 * `FOR UPDATE SKIP LOCKED` first, so servers fanning out at once never wait on each other.
 */
export async function fanOut(trx: Db, to: EventPlace): Promise<boolean> {
  const lock = isPostgres(trx) ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  const { rows } = await sql<EventPlace>`
    SELECT event_xid AS xid, event_seq AS seq FROM webhook_fanout WHERE id = 1 ${lock}`.execute(trx);
  const from = rows[0];
  // Taken (PostgreSQL), or moved to or past `to` by another sender since `to` was read: a move
  // back would fan those events out again.
  if (from === undefined || !isAfter(to, from)) return false;
  await sql`
    INSERT INTO webhook_deliveries (id, webhook_id, event_seq, status, next_attempt_at, created_at)
    SELECT ${sendoutId(trx)}, w.id, e.seq, 'PENDING', ${dueNow(trx)}, e.created_at
    FROM webhook_fanout f JOIN webhook_events e ON ${eventsAfter(trx, to)}
    JOIN webhooks w ON w.active = 1 AND ${subscribes(trx)}
    ORDER BY e.writer_xid NULLS FIRST, e.seq, w.seq`.execute(trx);
  const moved = await sql`
    UPDATE webhook_fanout SET event_xid = ${to.xid}, event_seq = ${to.seq}
    WHERE id = 1 AND event_seq = ${from.seq}`.execute(trx);
  return Number(moved.numAffectedRows ?? 0n) === 1;
}

/** Whether the event is past the fan-out's place, i.e. has had its deliveries made (retention keeps the others). */
export const fannedOut = (db: Db): RawBuilder<SqlBool> =>
  isPostgres(db)
    ? sql<SqlBool>`(e.writer_xid, e.seq) <= (SELECT coalesce(f.event_xid, 0), f.event_seq FROM webhook_fanout f)`
    : sql<SqlBool>`e.seq <= (SELECT f.event_seq FROM webhook_fanout f)`;
