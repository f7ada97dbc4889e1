/** The sessions module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export {
  anyExpiredLocks,
  consumeSession,
  expireSessionLocks,
  lockExpiry,
  lockSession,
  releaseExpiredLocks,
  releaseExpiredLocksIfAny,
  releaseVoucherLock,
  type Reservation,
  setAsideSession,
  type TtlUnit,
  withSessionKey,
} from './session-locks.service.js';
