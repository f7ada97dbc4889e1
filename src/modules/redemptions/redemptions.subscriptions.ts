import type { Deps } from '../../app/deps.js';
import { answerRedemptionEventData } from '../events/index.js';
import { answerRedemptionEvents } from './redemption-events.service.js';

/** The redemptions module's part of the composition (root/subscriptions.ts): the records its customer events name. */
export function subscribeRedemptions(deps: Pick<Deps, 'seams'>): void {
  answerRedemptionEventData(deps.seams, answerRedemptionEvents);
}
