import { type RawBuilder, sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import type { WebhookDeliveryTable, WebhookEventTable, WebhookTable } from './webhooks.table.js';

type Db = Kysely<Database>;
export type WebhookRow = Selectable<WebhookTable>;
/** An event as the sender and the answers read it (its writer_xid is the fan-out's business). */
export type EventRow = Omit<Selectable<WebhookEventTable>, 'writer_xid'>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;
/** A delivery with its event's id and type, as the lists show it. */
export type DeliveryView = DeliveryRow & { event_id: string; event_type: string };

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
 * A new sendout id, one per row of the statement: 'whs_' and 24 random hex digits. PostgreSQL
 * has no randomblob (nor, without pgcrypto, gen_random_bytes): a UUID's first 24 digits (one
 * of them its version, so 92 random bits).
 */
export const sendoutId = (db: Db): RawBuilder<string> =>
  dialectOf(db).name === 'postgres'
    ? sql<string>`'whs_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24)`
    : sql<string>`'whs_' || lower(hex(randomblob(12)))`;

/**
 * The event, in the caller's transaction: the change's whole share of the outbox. Its
 * deliveries are made by the sender's fan-out (fanout.repository.ts), off the request path.
 */
export async function insertEvent(trx: Db, event: Omit<EventRow, 'seq'>): Promise<void> {
  await sql`
    INSERT INTO webhook_events (id, type, data, entity_id, group_id, channel, created_at)
    VALUES (${event.id}, ${event.type}, ${event.data}, ${event.entity_id}, ${event.group_id}, ${event.channel},
      ${event.created_at})`.execute(trx);
}

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
    SELECT ${sendoutId(trx)}, w.id, ${eventSeq}, 'PENDING', ${now}, ${now}
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
      JOIN webhook_events e ON e.seq = (SELECT d.event_seq FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'PENDING' ORDER BY d.writer_xid NULLS FIRST, d.seq LIMIT 1)`.execute(
      db,
    )
  ).rows[0]?.at ?? undefined;
