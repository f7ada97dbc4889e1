import type { Deps } from '../app/deps.js';
import type { Actor } from '../lib/actor.js';
import { stringifyJson } from '../lib/raw-json.js';
import { createOrder, type CreateOrderBody } from '../modules/orders/index.js';
import { redeemStackable, type StackableBody } from '../modules/redemptions/index.js';

/**
 * The write operations a route may hand to `deps.writes` whole, by name: each runs one
 * request's service with arguments that cross threads as they are (a checked body, the actor)
 * and answers JSON text. Only the hot paths are here, a redemption and an order (every checkout
 * posts one): a redemption holds the writer ~0.6 ms and its request's HTTP, parse and answer
 * cost as much again (docs/performance.md, "The writer thread"); and two hot writes on two
 * connections would split their batches between the writer's turns. Never call
 * `deps.writes.run` inside a transaction: on the writer thread the operation would wait for the
 * writer turn that transaction holds.
 */
const operations: Record<string, (deps: Deps, args: unknown[]) => Promise<unknown>> = {
  'redemptions.redeem': (deps, [actor, body]) => redeemStackable(deps, actor as Actor, body as StackableBody),
  'orders.create': (deps, [actor, body]) => createOrder(deps, actor as Actor, body as CreateOrderBody),
};

/** Runs `operation` with these Deps and answers its JSON text. */
export async function runWriteOperation(deps: Deps, operation: string, args: unknown[]): Promise<string> {
  const run = operations[operation];
  if (!run) throw new Error(`No write operation ${operation}`);
  return stringifyJson(await run(deps, args));
}
