/** The events module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export type { CustomerEventType } from './events.types.js';
export { eraseCustomerEvents } from './events-erasure.service.js';
export { answerRedemptionEventData } from './redemption-events.seam.js';
export { ACTIVITY_ORDER_FIELDS, type ActivityQuery, activityQuerySchema } from './events.schemas.js';
export {
  type CustomerEventInput,
  emit,
  emitMany,
  listCustomerEvents,
  listCustomerEventsWithTotal,
} from './events.service.js';
