import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import type { DeliveryRow, EventRow, WebhookRow } from './webhooks.repository.js';
import type { DeliveryStatus } from './webhooks.table.js';

type Db = Kysely<Database>;
/** A delivery with its whole event, as the sender posts it. */
export type OutgoingDelivery = DeliveryRow & { event: EventRow };
export type ClaimedQueue = Pick<WebhookRow, 'id' | 'target_url' | 'secret'>;

/**
 * THE SENDING ORDER of a webhook's queue: (writer_xid, seq). On SQLite writer_xid is null (one
 * writer commits at a time, so seq order is commit order). On PostgreSQL seq is handed out at
 * insert, not at commit, so a queue is read only below the horizon: deliveries written by
 * transactions older than every transaction still running (`writer_xid`, the writer's
 * pg_current_xact_id(), below the snapshot's xmin). Any delivery that appears later comes from
 * a transaction at or above that horizon, so it sorts after everything read so far: a failed
 * head still holds back every later event of its webhook, and nothing is ever sent ahead of a
 * delivery that sorts before it. Ordering by seq alone under the horizon would not do: a
 * transaction that took its xid first may take its seq last.
 */
const belowHorizon = (db: Db): RawBuilder<unknown> =>
  dialectOf(db).name === 'postgres'
    ? sql`AND d.writer_xid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`
    : sql``;

/** The heads of queues a claim would take now: a cheap look on the reader before a claim takes the writer. */
const claimable = (db: Db, now: string) => sql`
  w.active = 1 AND (w.lease_until IS NULL OR w.lease_until <= ${now})
  AND (SELECT d.next_attempt_at FROM webhook_deliveries d
       WHERE d.webhook_id = w.id AND d.status = 'PENDING' ${belowHorizon(db)}
       ORDER BY d.writer_xid NULLS FIRST, d.seq LIMIT 1) <= ${now}`;

export const anyClaimable = async (db: Db, now: string): Promise<boolean> =>
  (await sql<{ one: number }>`SELECT 1 AS one FROM webhooks w WHERE ${claimable(db, now)} LIMIT 1`.execute(db)).rows
    .length > 0;

/**
 * THE CLAIM: one guarded statement takes the queues (webhooks) whose head delivery is due and
 * that no live lease holds, up to `max`, and leases them to `owner` until `until`. Whoever's
 * UPDATE changes a row holds that webhook's queue; two processes never both do. On PostgreSQL
 * the inner SELECT locks what it picks `FOR UPDATE SKIP LOCKED`: servers claiming at once each
 * take other queues instead of waiting on each other; the outer guard stays for the rows a
 * committed claim leased meanwhile. The pick is a materialized CTE, read once: as a plain
 * `IN (subquery)` PostgreSQL may rescan it per row, and each rescan skips the rows this statement
 * already leased and takes more, past `max` (the points-expiry claim did exactly that).
 */
export async function claimQueues(
  trx: Db,
  owner: string,
  now: string,
  until: string,
  max: number,
): Promise<ClaimedQueue[]> {
  const skipLocked = dialectOf(trx).name === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  const result = await sql<ClaimedQueue>`
    WITH picked AS MATERIALIZED (
      SELECT w.seq FROM webhooks w
      WHERE ${claimable(trx, now)}
      ORDER BY w.seq
      LIMIT ${max} ${skipLocked})
    UPDATE webhooks SET lease_owner = ${owner}, lease_until = ${until}
    WHERE seq IN (SELECT seq FROM picked)
    AND (lease_until IS NULL OR lease_until <= ${now})
    RETURNING id, target_url, secret`.execute(trx);
  return result.rows;
}

/** Gives a queue back (its sender is done with it), if this owner still holds it. */
export const releaseQueue = async (trx: Db, webhookId: string, owner: string): Promise<void> => {
  await trx
    .updateTable('webhooks')
    .set({ lease_owner: null, lease_until: null })
    .where('id', '=', webhookId)
    .where('lease_owner', '=', owner)
    .execute();
};

type HeadRow = DeliveryRow & {
  e_id: string;
  e_type: string;
  e_data: string;
  e_entity_id: string | null;
  e_group_id: string | null;
  e_channel: string;
  e_created_at: string;
};

/** The first `limit` PENDING deliveries of a webhook, in sending order, with their events. */
export async function queueHead(db: Db, webhookId: string, limit: number): Promise<OutgoingDelivery[]> {
  const { rows } = await sql<HeadRow>`
    SELECT d.*, e.id AS e_id, e.type AS e_type, e.data AS e_data, e.entity_id AS e_entity_id,
      e.group_id AS e_group_id, e.channel AS e_channel, e.created_at AS e_created_at
    FROM webhook_deliveries d JOIN webhook_events e ON e.seq = d.event_seq
    WHERE d.webhook_id = ${webhookId} AND d.status = 'PENDING' ${belowHorizon(db)}
    ORDER BY d.writer_xid NULLS FIRST, d.seq
    LIMIT ${limit}`.execute(db);
  return rows.map(({ e_id, e_type, e_data, e_entity_id, e_group_id, e_channel, e_created_at, ...d }) => ({
    ...d,
    event: {
      seq: d.event_seq,
      id: e_id,
      type: e_type,
      data: e_data,
      entity_id: e_entity_id,
      group_id: e_group_id,
      channel: e_channel,
      created_at: e_created_at,
    },
  }));
}

export interface Outcome {
  seq: number;
  status: DeliveryStatus;
  next_attempt_at: string;
  last_status: number | null;
  last_error: string | null;
  finished_at: string | null;
}

/** The batch's outcomes as rows: SQLite reads the JSON through json_each, PostgreSQL through json_to_recordset. */
const outcomeRows = (db: Db, json: string) =>
  dialectOf(db).name === 'postgres'
    ? sql`(SELECT o.seq, o.status, o.next_attempt_at, o.last_status, o.last_error, o.finished_at
        FROM json_to_recordset(${json}::json) AS o(seq bigint, status text, next_attempt_at text,
          last_status bigint, last_error text, finished_at text))`
    : sql`(SELECT o.value ->> 'seq' AS seq, o.value ->> 'status' AS status,
          o.value ->> 'next_attempt_at' AS next_attempt_at, o.value ->> 'last_status' AS last_status,
          o.value ->> 'last_error' AS last_error, o.value ->> 'finished_at' AS finished_at
        FROM json_each(${json}) AS o)`;

/**
 * A batch's outcomes in one statement, each on a delivery still PENDING (a replayed or deleted
 * one is left alone). One statement, not one per delivery: on SQLite the transaction holds the
 * one connection's writer, which the API's requests wait for, through a single step instead of
 * an await per delivery.
 */
export const recordOutcomes = async (trx: Db, outcomes: readonly Outcome[]): Promise<void> => {
  if (outcomes.length === 0) return;
  await sql`
    UPDATE webhook_deliveries AS d SET
      status = o.status,
      attempts = d.attempts + 1,
      next_attempt_at = o.next_attempt_at,
      last_status = o.last_status,
      last_error = o.last_error,
      finished_at = o.finished_at
    FROM ${outcomeRows(trx, JSON.stringify(outcomes))} AS o
    WHERE d.seq = o.seq AND d.status = 'PENDING'`.execute(trx);
};

/**
 * How far the database's clock is ahead of this process's (ms): on PostgreSQL leases and next
 * attempts are compared with the database's time, which every server sharing it reads alike
 * (servers' own clocks differ). 0 on SQLite: one machine, one clock (and the tests' clock).
 */
export async function databaseClockAhead(db: Db, localMs: number): Promise<number> {
  if (dialectOf(db).name !== 'postgres') return 0;
  const { rows } = await sql<{ ms: number }>`
    SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms`.execute(db);
  return Math.round(Number(rows[0]?.ms)) - localMs;
}
