import type { Deps } from '../../app/deps.js';
import { claim, DEFAULT_SENDER, drainQueue, senderId, type SenderOptions } from './delivery.service.js';
import { onOutboxWrite } from './outbox.service.js';

export interface LoopOptions extends SenderOptions {
  /** How often the loop looks for due deliveries when nothing wakes it. */
  pollMs: number;
}

export const DEFAULT_LOOP: LoopOptions = { ...DEFAULT_SENDER, pollMs: 250 };

/**
 * The sender of `promo serve`, off the request path: it claims due queues while it holds
 * fewer than `maxQueues`, drains each on its own (a slow or dead receiver holds its own queue
 * and one slot, never the others), and looks again every `pollMs`, soon after a transaction of
 * this process wrote deliveries, and whenever a queue is given back. `stop` waits for the
 * POSTs in flight and records them.
 */
export function startDeliveryLoop(
  deps: Pick<Deps, 'db' | 'clock' | 'log'>,
  options: LoopOptions = DEFAULT_LOOP,
): { stop(): Promise<void> } {
  const owner = senderId();
  // Under load, events are sent in batches a poll apart rather than each at once: every claim
  // and every batch's outcomes are a write transaction on the one writer the API also needs
  // (at most 1 + queues of them a poll, whatever the rate of events).
  const settleMs = options.pollMs;
  const draining = new Map<string, Promise<void>>();
  let stopped = false;
  /** The look under way: stop waits for it, so no claim runs on a database being closed. */
  let looking: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;

  // Only ever brings the next look nearer: a stream of writes must not keep pushing it away.
  const schedule = (ms: number) => {
    if (stopped || Date.now() + ms >= timerAt) return;
    if (timer) clearTimeout(timer);
    timerAt = Date.now() + ms;
    timer = setTimeout(() => {
      timerAt = Infinity;
      look();
    }, ms);
  };

  function look(): void {
    if (looking || stopped) return;
    looking = claimAndDrain().finally(() => {
      looking = undefined;
      schedule(options.pollMs);
    });
  }

  async function claimAndDrain(): Promise<void> {
    try {
      for (const webhook of await claim(deps, owner, options, options.maxQueues - draining.size)) {
        const drain = drainQueue(deps, owner, webhook, options)
          .then((full) => schedule(full ? 0 : settleMs))
          .catch((error: unknown) =>
            deps.log.error('webhook delivery failed to record', error, { webhook_id: webhook.id }),
          )
          .finally(() => draining.delete(webhook.id));
        draining.set(webhook.id, drain);
      }
    } catch (error) {
      deps.log.error('webhook claim failed', error);
    }
  }

  // A write is seen by the reader once its batch commits (within ~50 ms): look shortly after.
  const unsubscribe = onOutboxWrite(() => schedule(settleMs));
  schedule(0);
  return {
    async stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      await looking;
      await Promise.all(draining.values());
    },
  };
}

/** The loop's options with the configured timing (app/config.ts webhookTimingFromEnv) over the defaults. */
export function loopOptions(timing: {
  timeoutMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  giveUpMs?: number;
  pollMs?: number;
}): LoopOptions {
  const retry = DEFAULT_LOOP.retry;
  const timeoutMs = timing.timeoutMs ?? DEFAULT_LOOP.timeoutMs;
  return {
    ...DEFAULT_LOOP,
    timeoutMs,
    leaseMs: 6 * timeoutMs,
    pollMs: timing.pollMs ?? DEFAULT_LOOP.pollMs,
    retry: {
      baseMs: timing.retryBaseMs ?? retry.baseMs,
      maxMs: timing.retryMaxMs ?? retry.maxMs,
      giveUpMs: timing.giveUpMs ?? retry.giveUpMs,
    },
  };
}
