/** The vouchers module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { createCampaign, deleteCampaign, updateCampaign } from './campaign-vouchers.service.js';
export { type GenerationCompleted, onGenerationCompleted, onGenerationFailed } from './generation-completed.seam.js';
export { giftKind } from './kinds/gift.rules.js';
export { loyaltyCardKind } from './kinds/loyalty-card.rules.js';
export { startVouchersCsvStaging } from './voucher-csv-import.service.js';
export { addVouchers, addVouchersInTransaction } from './voucher-generation.service.js';
export { startImportStaging } from './voucher-import.service.js';
export { assignmentHolders, presentVoucher, type VoucherView } from './vouchers.presenter.js';
export {
  findVoucherId,
  findVoucherRowsByCode,
  getVoucher,
  voucherCodeOfAsset,
  type VoucherRow,
  type WalkPosition,
} from './vouchers.service.js';
export type { VoucherTable } from './vouchers.table.js';
// Verbs that are one repository call, exported under the name callers use (no forwarding service).
export { findVoucherByCode as findVoucherRow } from './vouchers.repository.js';
export { claimRedemption as claimVoucherRedemption } from './vouchers.repository.js';
export { releaseRedemption as releaseVoucherRedemption } from './vouchers.repository.js';
export { findHeldVoucher } from './vouchers.repository.js';
export { listVoucherKeys as listQualifyingVoucherKeys } from './qualifying-vouchers.repository.js';
