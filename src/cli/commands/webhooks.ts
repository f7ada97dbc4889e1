import { webhookTimingFromEnv } from '../../app/config.js';
import type { Deps } from '../../app/deps.js';
import { flagsSchema, integer } from '../../lib/query-params.js';
import { parse } from '../../lib/validate.js';
import {
  deliverOnce,
  loopOptions,
  type DeliveryObject,
  type WebhookObject,
  createWebhookSchema,
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  replayEvent,
  sendTestEvent,
} from '../../modules/webhooks/index.js';
import { printJson, runWithDeps, type CommonOptions } from '../run.js';
import { textTable } from '../table.js';

/** `promo webhooks`: the same service as the management API (docs/webhooks.md). */
interface AddOptions extends CommonOptions {
  events?: string;
  inactive?: boolean;
}

const webhooksTable = (webhooks: WebhookObject[]): string =>
  textTable(
    ['ID', 'STATE', 'CREATED', 'EVENTS', 'TARGET URL'],
    webhooks.map((w) => [w.id, w.active ? 'active' : 'inactive', w.created_at, w.events.join(','), w.target_url]),
  );

const deliveriesTable = (deliveries: DeliveryObject[]): string =>
  textTable(
    ['DELIVERY', 'EVENT', 'TYPE', 'STATUS', 'ATTEMPTS', 'NEXT ATTEMPT', 'LAST ERROR'],
    deliveries.map((d) => [
      d.id,
      d.event.id,
      d.event.type,
      d.status,
      String(d.attempts),
      d.next_attempt_at ?? '-',
      d.last_error ?? '-',
    ]),
  );

export const addWebhookCommand = (url: string, options: AddOptions) =>
  runWithDeps(options, async (deps) => {
    const body = parse(
      createWebhookSchema,
      {
        target_url: url,
        events: options.events?.split(',').map((e) => e.trim()) ?? [],
        active: !options.inactive,
      },
      'body',
    );
    const webhook = await createWebhook(deps, body);
    if (options.json) return printJson(webhook);
    process.stdout.write(`id: ${webhook.id}\nsecret: ${webhook.secret}\n`);
    process.stderr.write('The secret is shown only now; store it safely.\n');
  });

export const listWebhooksCommand = (options: CommonOptions) =>
  runWithDeps(options, async (deps) => {
    const { data } = await listWebhooks(deps);
    if (options.json) return printJson(data);
    process.stdout.write(`${webhooksTable(data)}\n`);
  });

export const removeWebhookCommand = (id: string, options: CommonOptions) =>
  runWithDeps(options, async (deps) => {
    await deleteWebhook(deps, id);
    if (options.json) return printJson({ id, deleted: true });
    process.stdout.write(`removed ${id}\n`);
  });

export const testWebhookCommand = (id: string, options: CommonOptions) =>
  runWithDeps(options, async (deps) => {
    const sent = await sendTestEvent(deps, id, loopOptions(webhookTimingFromEnv()).timeoutMs);
    if (options.json) return printJson(sent);
    process.stdout.write(`HTTP ${sent.status} from ${sent.target_url}\n`);
  });

const limitFlags = flagsSchema({ limit: integer(1, 100, 20) });

export const webhookDeliveriesCommand = (id: string, options: CommonOptions & { limit?: string }) =>
  runWithDeps(options, async (deps) => {
    const { limit } = parse(limitFlags, { limit: options.limit }, 'flags');
    const deliveries = await listWebhookDeliveries(deps, id, limit);
    if (options.json) return printJson(deliveries);
    process.stdout.write(`${deliveriesTable(deliveries)}\n`);
  });

/**
 * Queues the event again for the webhooks it went to, then sends what is due itself (claims are
 * safe beside a running server, which may take the queue first) until the replay's deliveries
 * leave PENDING or one timeout has passed; prints them as they then stand.
 */
async function sendReplay(deps: Deps, ids: Set<string>, webhookIds: string[]): Promise<DeliveryObject[]> {
  const options = loopOptions(webhookTimingFromEnv());
  const deadline = Date.now() + options.timeoutMs * 2;
  for (;;) {
    await deliverOnce(deps, options);
    const lists = await Promise.all(webhookIds.map((w) => listWebhookDeliveries(deps, w, 100)));
    const mine = lists.flat().filter((d) => ids.has(d.id));
    if (mine.every((d) => d.status !== 'PENDING' || d.attempts > 0) || Date.now() > deadline) return mine;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const replayEventCommand = (eventId: string, options: CommonOptions) =>
  runWithDeps(options, async (deps) => {
    const queued = await replayEvent(deps, eventId);
    const webhookIds = [...new Set(queued.map((d) => d.webhook_id))];
    const sent = await sendReplay(deps, new Set(queued.map((d) => d.id)), webhookIds);
    if (options.json) return printJson(sent);
    process.stdout.write(`${deliveriesTable(sent)}\n`);
  });
