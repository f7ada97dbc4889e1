/** The campaigns module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { type CampaignChanges, changeCampaign, hideCampaign } from './campaign-changes.service.js';
export { insertCampaign } from './campaign-create.service.js';
export {
  invalidCodeConfig,
  requireTemplate,
  type StoredTemplate,
  templateFor,
  templateOf,
  templateOfVoucher,
} from './campaign-template.rules.js';
export { type CampaignView, presentSimpleCampaign } from './campaigns.presenter.js';
export {
  CAMPAIGN_ORDER_FIELDS,
  type CreateCampaignBody,
  createCampaignSchema,
  MAX_VOUCHERS_COUNT,
  type UpdateCampaignBody,
  updateCampaignSchema,
} from './campaigns.schemas.js';
export { type CampaignRow, findCampaign, findCampaignOrNone, getCampaign, listCampaigns } from './campaigns.service.js';
export type { LoyaltyTiersExpiration } from './loyalty-tiers-expiration.schemas.js';
export { findPromotionStack } from './promotion-stacks.service.js';
export {
  findPromotionTier,
  findPromotionTiers,
  listAvailableTierIds,
  type PromotionTierRecord,
} from './promotion-tiers.service.js';
export {
  codeConfigSchema,
  discountSchema,
  giftSchema,
  type LoyaltyCardTemplate,
  loyaltyCardTemplateSchema,
  redemptionSchema,
} from './voucher-template.schemas.js';
// Verbs that are one repository call, exported under the name callers use (no forwarding service).
export { findLiveCampaignById as findLiveCampaign } from './campaigns.repository.js';
export { addVouchersCount as addToVouchersCount } from './campaigns.repository.js';
export { setGenerationStatus } from './campaigns.repository.js';
export { sumLiveVouchersCount as countLiveCampaignVouchers } from './campaigns.repository.js';
export { deleteCampaignRow as removeCampaignRow } from './campaigns.repository.js';
export { listAvailableStackKeys as listQualifyingStackKeys } from './promotion-stacks.repository.js';
export { listStackTierIds as listStacksTierIds } from './promotion-stacks.repository.js';
export { listAvailableTierKeys as listQualifyingTierKeys } from './promotion-tiers.repository.js';
