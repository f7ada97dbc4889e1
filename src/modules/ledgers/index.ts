/**
 * The ledgers' seam for other modules (loyalty, rewards, redemptions): import from here.
 * Every function runs inside the caller's transaction.
 */
export {
  creditPoints,
  debitPoints,
  adjustPendingPoints,
  type PointsCreditInput,
  type PointsDebitInput,
  type PointsExpiration,
} from './points-ledger.service.js';
export { creditGift, debitGift, type GiftChangeInput } from './gift-ledger.service.js';
export { assignCardHolder } from './card-holder.service.js';
export type { LedgerChangeInput, LedgerResult, RelatedIds, LedgerDeps } from './ledger-write.service.js';
export {
  onPointsChanged,
  POINTS_CHANGED,
  type PointsChanged,
  type PointsChangedSubscriber,
} from './points-changed.seam.js';
export { presentBalance, presentTransaction, presentBucket, type TransactionObject } from './ledgers.presenter.js';
export * from './ledger.types.js';
export { refundPoints, type PointsRefund, type PointsRefundInput } from './points-refund.service.js';
export { requireLedgerCard } from './member-card.service.js';
export { changeBalance } from './balance.service.js';
export { type LedgerEntryWritten, onLedgerEntryWritten } from './ledger-entry.seam.js';
export { presentCard } from './ledgers.presenter.js';
export { listCardTransactions } from './transactions.service.js';
// Verbs that are one repository call, exported under the name callers use (no forwarding service).
export { sumPointsEarned as pointsEarnedSince } from './points-earned.repository.js';
export { findRedemptionEntry } from './ledgers.repository.js';
