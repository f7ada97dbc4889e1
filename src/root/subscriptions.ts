import type { SubscriptionLoader } from '../jobs/registry.js';

/**
 * The seam subscriptions every Deps gets (the server, every command, tests, worker threads):
 * one line per subscribing module, a typed lazy import of the function that subscribes one
 * Deps' seams. The modules load in the background when Deps are made; a seam's `fire` waits
 * for them (lib/seams.ts).
 */
export const seamSubscriptions: readonly SubscriptionLoader[] = [
  // Loyalty: earning rules on paid orders, pending points canceled with their order.
  () => import('../modules/loyalty/earning/earning.subscriptions.js').then((m) => m.subscribeEarning),
  // Loyalty: a member's tier follows its points.
  () => import('../modules/loyalty/tiers/tiers.subscriptions.js').then((m) => m.subscribeTiers),
  // Segments: a customer's auto-update memberships follow its changes (before earning reads them).
  () => import('../modules/segments/segments.subscriptions.js').then((m) => m.subscribeSegments),
  // Stacking rules: a category they name is not deleted.
  () => import('../modules/stacking-rules/stacking-rules.subscriptions.js').then((m) => m.subscribeStackingRules),
  // Redemptions: the records their customer events name (the feed rebuilds those events' data).
  () => import('../modules/redemptions/redemptions.subscriptions.js').then((m) => m.subscribeRedemptions),
  // Webhooks: the changes a webhook subscribes to, written to its outbox in the change's transaction.
  () => import('../modules/webhooks/webhooks.subscriptions.js').then((m) => m.subscribeWebhooks),
];
