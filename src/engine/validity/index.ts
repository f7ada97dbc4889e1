/**
 * Validity rules (the reference's Voucher object: dates, `validity_*`): pure, no I/O. Campaigns, promotion tiers and vouchers store
 * them as columns, check them on input, and answer them; redemption and validation ask
 * `isActiveAt(presentValidity(row), now)`.
 */
export { addDuration, isActiveAt } from './active.js';
export {
  allValidityColumns,
  checkValidity,
  presentValidity,
  validityColumns,
  validityProblems,
  type ValidityColumns,
  type ValidityInput,
} from './stored.js';
export type { DailyHours, Validity, ValidityTimeframe } from './types.js';
