import type { Deps } from '../../app/deps.js';
import { isoNow } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { newSecret } from '../../lib/secrets.js';
import { postSigned } from './delivery.client.js';
import { fanOutPending } from './delivery.service.js';
import { envelope, PROJECT_ID } from './envelope.presenter.js';
import { forgetSubscribedTypes } from './outbox.service.js';
import { normalEventType } from './webhook-events.types.js';
import { presentDelivery, presentWebhook, type DeliveryObject, type WebhookObject } from './webhooks.presenter.js';
import * as repo from './webhooks.repository.js';
import type { CreateWebhookBody, UpdateWebhookBody } from './webhooks.schemas.js';

/**
 * Webhooks' configuration (the reference's management API, and `promo webhooks`): each change
 * makes this process's outbox read the wanted event types again (outbox.service.ts). Each
 * change, and each look at deliveries, first fans out the events committed before it
 * (fanOutPending: a read when none waits), so that an event goes to the webhooks as they were
 * when it was committed and shows among their deliveries even while no sender runs.
 */
type WebhookDeps = Pick<Deps, 'db' | 'clock'>;

/** How many of its last deliveries GET on a webhook shows. */
export const SHOWN_DELIVERIES = 10;

/** 404 unless the path names promo's one project (docs/webhooks.md). */
export function requireProject(projectId: string): void {
  if (projectId !== PROJECT_ID) throw notFound('project', projectId);
}

/** The event types as stored: the reference's spelling, each once, in the order given. */
const storedEvents = (events: string[]): string => JSON.stringify([...new Set(events.map(normalEventType))]);

/** The created webhook with its signing secret: the only answer that ever shows it. */
export type CreatedWebhook = WebhookObject & { secret: string };

export async function createWebhook(deps: WebhookDeps, body: CreateWebhookBody): Promise<CreatedWebhook> {
  await fanOutPending(deps);
  const at = isoNow(deps.clock);
  const row = await deps.db.transaction().execute((trx) =>
    repo.insertWebhook(trx, {
      id: newId('wh_'),
      target_url: body.target_url,
      events: storedEvents(body.events),
      active: body.active === false ? 0 : 1,
      secret: newSecret(),
      created_at: at,
      updated_at: null,
      lease_owner: null,
      lease_until: null,
    }),
  );
  forgetSubscribedTypes(deps.db);
  return { ...presentWebhook(row), secret: row.secret };
}

export async function listWebhooks(deps: WebhookDeps) {
  const data = (await repo.listWebhooks(deps.db)).map(presentWebhook);
  return { object: 'list' as const, data_ref: 'data' as const, data, total: data.length };
}

async function webhookRow(deps: WebhookDeps, id: string): Promise<repo.WebhookRow> {
  const row = await repo.findWebhook(deps.db, id);
  if (!row) throw notFound('webhook', id);
  return row;
}

/** GET: the webhook and its last deliveries, newest first (status, attempts, next attempt, last error). */
export async function getWebhook(
  deps: WebhookDeps,
  id: string,
): Promise<WebhookObject & { deliveries: DeliveryObject[] }> {
  const row = await webhookRow(deps, id);
  await fanOutPending(deps);
  return {
    ...presentWebhook(row),
    deliveries: (await repo.listDeliveries(deps.db, id, SHOWN_DELIVERIES)).map(presentDelivery),
  };
}

export async function updateWebhook(deps: WebhookDeps, id: string, body: UpdateWebhookBody): Promise<WebhookObject> {
  const fields = {
    ...(body.target_url != null && { target_url: body.target_url }),
    ...(body.events != null && { events: storedEvents(body.events) }),
    ...(body.active != null && { active: body.active ? (1 as const) : (0 as const) }),
    updated_at: isoNow(deps.clock),
  };
  await fanOutPending(deps);
  const row = await deps.db.transaction().execute((trx) => repo.updateWebhook(trx, id, fields));
  if (!row) throw notFound('webhook', id);
  forgetSubscribedTypes(deps.db);
  return presentWebhook(row);
}

/** DELETE: the webhook and its deliveries (those still owed are dropped with it). */
export async function deleteWebhook(deps: WebhookDeps, id: string): Promise<void> {
  await fanOutPending(deps);
  const deleted = await deps.db.transaction().execute((trx) => repo.deleteWebhook(trx, id));
  if (!deleted) throw notFound('webhook', id);
  forgetSubscribedTypes(deps.db);
}

/** A webhook's last `limit` deliveries, newest first. */
export async function listWebhookDeliveries(deps: WebhookDeps, id: string, limit: number): Promise<DeliveryObject[]> {
  await webhookRow(deps, id);
  await fanOutPending(deps);
  return (await repo.listDeliveries(deps.db, id, limit)).map(presentDelivery);
}

/**
 * Sends an event again: a new PENDING delivery to each existing webhook it was owed to, at the
 * end of that webhook's queue (the sender takes it in order). 404 for an unknown event; 400
 * when no webhook it went to exists any more.
 */
export async function replayEvent(deps: WebhookDeps, eventId: string): Promise<DeliveryObject[]> {
  const event = await repo.findEvent(deps.db, eventId);
  if (!event) throw notFound('event', eventId);
  await fanOutPending(deps);
  const seqs = await deps.db.transaction().execute((trx) => repo.requeueEvent(trx, event.seq, isoNow(deps.clock)));
  if (seqs.length === 0)
    throw new AppError('invalid_payload', `No webhook that event ${eventId} was sent to exists any more`);
  return (await repo.deliveriesBySeqs(deps.db, seqs)).map(presentDelivery);
}

/** The webhook a test send goes to, with its secret (the command signs with it; nothing prints it). */
export const webhookForTest = (deps: WebhookDeps, id: string): Promise<repo.WebhookRow> => webhookRow(deps, id);

/**
 * `promo webhooks test`: one signed POST of a `webhook.test` event, now, outside the outbox
 * (nothing is stored or retried). Fails with webhook_test_failed unless the receiver answers 2xx.
 */
export async function sendTestEvent(
  deps: WebhookDeps,
  id: string,
  timeoutMs: number,
): Promise<{ status: number; target_url: string }> {
  const webhook = await webhookRow(deps, id);
  const at = isoNow(deps.clock);
  const event = {
    seq: 0,
    id: newId('evt_'),
    type: 'webhook.test',
    data: JSON.stringify({ message: 'A test event sent by promo webhooks test' }),
    entity_id: webhook.id,
    group_id: null,
    channel: 'INTERNAL',
    created_at: at,
  };
  const result = await postSigned(
    webhook.target_url,
    envelope({ id: `whs_${newSecret().slice(0, 24)}`, created_at: at }, event, webhook),
    webhook.secret,
    timeoutMs,
  );
  if (result.error !== null) throw new AppError('webhook_test_failed', `${webhook.target_url}: ${result.error}`);
  return { status: result.status as number, target_url: webhook.target_url };
}
