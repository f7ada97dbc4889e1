import type { Failure } from './redeemable-check.rules.js';
import type { LoadedRedeemable } from './redeemable-load.service.js';

/**
 * A redeemable refused where the pipeline cannot simply list it (all-or-nothing mode, or a
 * guarded statement that lost a race while writing): thrown, it rolls the request's
 * transaction back, and the service records the failed redemption in its place.
 */
export class Refusal extends Error {
  constructor(
    readonly loaded: LoadedRedeemable,
    readonly failure: Failure,
  ) {
    super(`${loaded.body.object} ${loaded.body.id}: ${failure.message}`);
  }
}
