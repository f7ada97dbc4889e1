import type { Deps } from './deps.js';
import { domainStep, type StepRef } from './job-registry.js';

/**
 * The seam subscriptions every Deps gets (the server, every command, tests): one line per
 * subscribing module, an export called with the Deps that subscribes to the seams it needs.
 *
 * By URL, as the job registry names steps: every domain module imports app/deps.ts for the
 * Deps type, so the composition root importing a domain module would close a cycle between
 * app and that module (test/architecture/imports.test.ts). The modules load in the
 * background when Deps are made; a seam's `fire` waits for them (lib/seams.ts).
 */
export const subscriptionModules: readonly StepRef[] = [
  // Loyalty: earning rules on paid orders, pending points canceled with their order.
  domainStep('loyalty/earning.subscriptions.ts', 'subscribeEarning'),
  // Loyalty: a member's tier follows its points.
  domainStep('loyalty/tiers.subscriptions.ts', 'subscribeTiers'),
  // Segments: a customer's auto-update memberships follow its changes (before earning reads them).
  domainStep('segments/segments.subscriptions.ts', 'subscribeSegments'),
  // Stacking rules: a category they name is not deleted.
  domainStep('stacking-rules/stacking-rules.subscriptions.ts', 'subscribeStackingRules'),
  // Webhooks: the changes a webhook subscribes to, written to its outbox in the change's transaction.
  domainStep('webhooks/webhooks.subscriptions.ts', 'subscribeWebhooks'),
];

type Subscribe = (deps: Deps) => void;

/** Loads each subscribing module and lets it subscribe on these Deps' seams. */
export async function loadSubscriptions(deps: Deps, refs: readonly StepRef[] = subscriptionModules): Promise<void> {
  await Promise.all(
    refs.map(async (ref) => {
      const module = (await import(ref.module)) as Record<string, unknown>;
      const subscribe = module[ref.export];
      if (typeof subscribe !== 'function') throw new Error(`${ref.module} exports no function ${ref.export}`);
      (subscribe as Subscribe)(deps);
    }),
  );
}
