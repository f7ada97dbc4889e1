import type { Command } from 'commander';
import { dbOption, jsonOption } from './command-options.js';

/** `promo webhooks`: the group's subcommands, one each in commands/webhooks.ts (imported only when it runs). */
export function webhooksCommands(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description('webhooks: where events are posted, signed (docs/webhooks.md)');
  webhooks
    .command('add')
    .description('add a webhook; prints its signing secret once')
    .argument('<url>', 'the http or https URL that receives the events')
    .requiredOption('--events <list>', 'comma-separated event types, e.g. redemption.succeeded,publication.succeeded')
    .option('--inactive', 'store it inactive (nothing is sent until it is activated)')
    .addOption(dbOption())
    .addOption(jsonOption())
    .action(async (url, options) => (await import('./commands/webhooks.js')).addWebhookCommand(url, options));
  webhooks
    .command('list')
    .description('list webhooks (never their secrets)')
    .addOption(dbOption())
    .addOption(jsonOption())
    .action(async (options) => (await import('./commands/webhooks.js')).listWebhooksCommand(options));
  webhooks
    .command('remove')
    .description('delete a webhook and the deliveries it is still owed')
    .argument('<id>', 'the webhook id (wh_...)')
    .addOption(dbOption())
    .addOption(jsonOption())
    .action(async (id, options) => (await import('./commands/webhooks.js')).removeWebhookCommand(id, options));
  webhooks
    .command('test')
    .description('post one signed webhook.test event to the webhook now')
    .argument('<id>', 'the webhook id (wh_...)')
    .addOption(dbOption())
    .addOption(jsonOption())
    .action(async (id, options) => (await import('./commands/webhooks.js')).testWebhookCommand(id, options));
  webhooks
    .command('deliveries')
    .description("a webhook's last deliveries: status, attempts, next attempt, last error")
    .argument('<id>', 'the webhook id (wh_...)')
    .option('--limit <n>', 'how many of the newest, 1 to 100 (default 20)')
    .addOption(dbOption())
    .addOption(jsonOption())
    .action(async (id, options) => (await import('./commands/webhooks.js')).webhookDeliveriesCommand(id, options));
  webhooks
    .command('replay')
    .description('send an event again to the webhooks it went to')
    .argument('<eventId>', 'the event id (evt_...)')
    .addOption(dbOption())
    .addOption(jsonOption())
    .action(async (eventId, options) => (await import('./commands/webhooks.js')).replayEventCommand(eventId, options));
}
