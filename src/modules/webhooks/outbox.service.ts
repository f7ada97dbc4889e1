import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Actor } from '../../lib/actor.js';
import { timeOrderedId } from '../../lib/ids.js';
import { stringifyJson } from '../../lib/raw-json.js';
import type { WebhookEventType } from './webhook-events.types.js';
import * as repo from './webhooks.repository.js';

type Db = Kysely<Database>;

/**
 * THE OUTBOX. Seam subscribers (webhooks.subscriptions.ts) call `recordEvent` inside the
 * transaction of the change: the event commits or rolls back with it. One row, whatever the
 * number of webhooks: the sender fans it out to their queues (fanout.repository.ts).
 *
 * A row is written only when an active webhook wants the type. Which types are wanted is kept
 * in memory per database handle, so a redemption with no webhook registered pays one Set
 * lookup: the webhooks service forgets it on every change it makes (this process), and it is
 * read again at most CACHE_MS after the last read (a change by another process: a command, or
 * the other server sharing the file). The fan-out reads the webhooks itself, so the cache only
 * decides whether an event is kept, never who gets a delivery; an event that none wants by
 * then (the cache was a second late) gets no delivery, and the retention sweep deletes it.
 */
export const CACHE_MS = 1000;

interface Kept {
  types: Set<string>;
  readAt: number;
}

const kept = new WeakMap<Db, Kept>();

/** Forget the wanted types (a webhook was created, changed or deleted through this handle). */
export const forgetSubscribedTypes = (db: Db): void => void kept.delete(db);

async function subscribedTypes(db: Db, trx: Db): Promise<Set<string>> {
  const entry = kept.get(db);
  const now = performance.now();
  if (entry && now - entry.readAt < CACHE_MS) return entry.types;
  const types = new Set<string>();
  for (const events of await repo.activeEventLists(trx))
    for (const type of JSON.parse(events) as string[]) types.add(type);
  kept.set(db, { types, readAt: now });
  return types;
}

const listeners = new Set<() => void>();

/** Called after a transaction wrote an event (before its commit): the sender looks soon after. */
export function onOutboxWrite(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface EventInput {
  type: WebhookEventType;
  /** Built only when a webhook wants the event: what a change that no one watches costs nothing. */
  data: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** The object the event is about (event.entity_id). */
  entityId: string | null;
  actor: Actor;
  at: string;
}

/**
 * Writes the event in the caller's transaction when an active webhook wants its type. Which
 * webhooks get it is decided by the sender's fan-out, soon after the commit (a webhook deleted
 * or deactivated meanwhile gets none).
 */
export async function recordEvent(deps: { db: Db }, trx: Db, input: EventInput): Promise<void> {
  if (!(await subscribedTypes(deps.db, trx)).has(input.type)) return;
  await repo.insertEvent(trx, {
    id: timeOrderedId('evt_', input.at),
    type: input.type,
    data: stringifyJson(await input.data()),
    entity_id: input.entityId,
    group_id: input.actor.request_id,
    channel: input.actor.channel,
    created_at: input.at,
  });
  for (const listener of listeners) listener();
}
