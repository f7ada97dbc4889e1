/** The idempotency module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { forgetAnswersAbout } from './idempotency-erasure.service.js';
export {
  awaitAnswer,
  type Earlier,
  expireIdempotencyKeys,
  findEarlier,
  type IdempotentRequest,
  keyRowOnFirstWrite,
  KeyTaken,
  MAX_KEY_LENGTH,
  requestHash,
  saveAnswer,
} from './idempotency.service.js';
