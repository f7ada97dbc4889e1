import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DeliveryStatus, WebhookDeliveryTable, WebhookEventTable, WebhookTable } from './webhooks.table.js';

type Db = Kysely<Database>;
export type WebhookRow = Selectable<WebhookTable>;
export type EventRow = Selectable<WebhookEventTable>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;
/** A delivery with its event's id and type, as the lists show it. */
export type DeliveryView = DeliveryRow & { event_id: string; event_type: string };
/** A delivery with its whole event, as the sender posts it. */
export type OutgoingDelivery = DeliveryRow & { event: EventRow };

export const insertWebhook = (db: Db, row: Omit<WebhookRow, 'seq'>): Promise<WebhookRow> =>
  db.insertInto('webhooks').values(row).returningAll().executeTakeFirstOrThrow();

export const findWebhook = (db: Db, id: string): Promise<WebhookRow | undefined> =>
  db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();

/** Every webhook, oldest first (a project holds few). */
export const listWebhooks = (db: Db): Promise<WebhookRow[]> =>
  db.selectFrom('webhooks').selectAll().orderBy('seq').execute();

export const updateWebhook = (
  db: Db,
  id: string,
  fields: Partial<Pick<WebhookRow, 'target_url' | 'events' | 'active' | 'updated_at'>>,
): Promise<WebhookRow | undefined> =>
  db.updateTable('webhooks').set(fields).where('id', '=', id).returningAll().executeTakeFirst();

/** Deletes the webhook; its deliveries go with it (ON DELETE CASCADE). */
export const deleteWebhook = async (db: Db, id: string): Promise<boolean> =>
  (await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n;

/** The event lists of the active webhooks: what the outbox's cache of subscribed types is made of. */
export const activeEventLists = async (db: Db): Promise<string[]> =>
  (await db.selectFrom('webhooks').select('events').where('active', '=', 1).execute()).map((r) => r.events);

/**
 * The event and one PENDING delivery for each active webhook that subscribes to its type, in
 * the caller's transaction. The webhooks are read by the same statement that writes their
 * deliveries, so a webhook deleted a moment ago (the cache may not know yet) gets none.
 * Returns how many deliveries were written.
 */
export async function insertEventWithDeliveries(trx: Db, event: Omit<EventRow, 'seq'>): Promise<number> {
  const { seq } = await trx.insertInto('webhook_events').values(event).returning('seq').executeTakeFirstOrThrow();
  const result = await sql`
    INSERT INTO webhook_deliveries (id, webhook_id, event_seq, status, next_attempt_at, created_at)
    SELECT 'whs_' || lower(hex(randomblob(12))), w.id, ${seq}, 'PENDING', ${event.created_at}, ${event.created_at}
    FROM webhooks w
    WHERE w.active = 1 AND EXISTS (SELECT 1 FROM json_each(w.events) WHERE value = ${event.type})
    ORDER BY w.seq`.execute(trx);
  const written = Number(result.numAffectedRows ?? 0n);
  if (written === 0) await trx.deleteFrom('webhook_events').where('seq', '=', seq).execute();
  return written;
}

/** The heads of queues a claim would take now: a cheap look on the reader before a claim takes the writer. */
const CLAIMABLE = (now: string) => sql`
  w.active = 1 AND (w.lease_until IS NULL OR w.lease_until <= ${now})
  AND (SELECT d.next_attempt_at FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'PENDING' ORDER BY d.seq LIMIT 1) <= ${now}`;

/**
 * THE CLAIM: one guarded statement takes the queues (webhooks) whose head delivery is due and
 * that no live lease holds, up to `max`, and leases them to `owner` until `until`. Whoever's
 * UPDATE changes a row holds that webhook's queue; two processes never both do (on PostgreSQL
 * the inner SELECT becomes `FOR UPDATE SKIP LOCKED`).
 */
export async function claimQueues(
  trx: Db,
  owner: string,
  now: string,
  until: string,
  max: number,
): Promise<Array<Pick<WebhookRow, 'id' | 'target_url' | 'secret'>>> {
  const result = await sql<Pick<WebhookRow, 'id' | 'target_url' | 'secret'>>`
    UPDATE webhooks SET lease_owner = ${owner}, lease_until = ${until}
    WHERE seq IN (
      SELECT w.seq FROM webhooks w
      WHERE ${CLAIMABLE(now)}
      ORDER BY w.seq
      LIMIT ${max})
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

/** The first `limit` PENDING deliveries of a webhook, in commit order, with their events. */
export async function queueHead(db: Db, webhookId: string, limit: number): Promise<OutgoingDelivery[]> {
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.seq', 'd.event_seq')
    .selectAll('d')
    .select([
      'e.id as e_id',
      'e.type as e_type',
      'e.data as e_data',
      'e.entity_id as e_entity_id',
      'e.group_id as e_group_id',
      'e.channel as e_channel',
      'e.created_at as e_created_at',
    ])
    .where('d.webhook_id', '=', webhookId)
    .where('d.status', '=', 'PENDING')
    .orderBy('d.seq')
    .limit(limit)
    .execute();
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

/**
 * A batch's outcomes in one statement, each on a delivery still PENDING (a replayed or deleted
 * one is left alone). One statement, not one per delivery: the transaction holds the one
 * connection's writer, which the API's requests wait for, through a single step instead of an
 * await per delivery.
 */
export const recordOutcomes = async (trx: Db, outcomes: readonly Outcome[]): Promise<void> => {
  if (outcomes.length === 0) return;
  await sql`
    UPDATE webhook_deliveries AS d SET
      status = o.value ->> 'status',
      attempts = d.attempts + 1,
      next_attempt_at = o.value ->> 'next_attempt_at',
      last_status = o.value ->> 'last_status',
      last_error = o.value ->> 'last_error',
      finished_at = o.value ->> 'finished_at'
    FROM json_each(${JSON.stringify(outcomes)}) AS o
    WHERE d.seq = o.value ->> 'seq' AND d.status = 'PENDING'`.execute(trx);
};

/** A webhook's last deliveries, newest first. */
export const listDeliveries = (db: Db, webhookId: string, limit: number): Promise<DeliveryView[]> =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.seq', 'd.event_seq')
    .selectAll('d')
    .select(['e.id as event_id', 'e.type as event_type'])
    .where('d.webhook_id', '=', webhookId)
    .orderBy('d.seq', 'desc')
    .limit(limit)
    .execute();

export const findEvent = (db: Db, id: string): Promise<EventRow | undefined> =>
  db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * A new PENDING delivery of the event to each existing webhook it was owed to before (a replay),
 * none when the retention sweep deleted the event meanwhile.
 */
export async function requeueEvent(trx: Db, eventSeq: number, now: string): Promise<number[]> {
  const result = await sql<{ seq: number }>`
    INSERT INTO webhook_deliveries (id, webhook_id, event_seq, status, next_attempt_at, created_at)
    SELECT 'whs_' || lower(hex(randomblob(12))), w.id, ${eventSeq}, 'PENDING', ${now}, ${now}
    FROM webhooks w
    WHERE w.id IN (SELECT webhook_id FROM webhook_deliveries WHERE event_seq = ${eventSeq})
      AND EXISTS (SELECT 1 FROM webhook_events WHERE seq = ${eventSeq})
    ORDER BY w.seq
    RETURNING seq`.execute(trx);
  return result.rows.map((r) => r.seq);
}

/** The deliveries with these seqs (a replay's), with their events' ids and types. */
export const deliveriesBySeqs = (db: Db, seqs: number[]): Promise<DeliveryView[]> =>
  seqs.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.seq', 'd.event_seq')
        .selectAll('d')
        .select(['e.id as event_id', 'e.type as event_type'])
        .where('d.seq', 'in', seqs)
        .orderBy('d.seq')
        .execute();

/**
 * When the oldest event still owed to a webhook was committed; undefined when none is. Each
 * webhook's head is its oldest (the pending index), so only the heads are read.
 */
export const oldestPendingAt = async (db: Db): Promise<string | undefined> =>
  (
    await sql<{ at: string | null }>`
      SELECT min(e.created_at) AS at FROM webhooks w
      JOIN webhook_events e ON e.seq = (SELECT d.event_seq FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'PENDING' ORDER BY d.seq LIMIT 1)`.execute(
      db,
    )
  ).rows[0]?.at ?? undefined;

export const anyClaimable = async (db: Db, now: string): Promise<boolean> =>
  (await sql<{ one: number }>`SELECT 1 AS one FROM webhooks w WHERE ${CLAIMABLE(now)} LIMIT 1`.execute(db)).rows
    .length > 0;
