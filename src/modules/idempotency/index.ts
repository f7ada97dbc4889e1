/** The idempotency module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
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
// Verbs that are one repository call, exported under the name callers use (no forwarding service).
// Permanent deletion, inside its transaction: a retry of a forgotten key afterwards runs as a new request.
export { deleteAnswersMentioning as forgetAnswersAbout } from './idempotency-erasure.repository.js';
