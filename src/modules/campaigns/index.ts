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
} from './campaign-template.js';
export { type CampaignView, presentSimpleCampaign } from './campaigns.presenter.js';
export {
  CAMPAIGN_ORDER_FIELDS,
  type CreateCampaignBody,
  createCampaignSchema,
  MAX_VOUCHERS_COUNT,
  type UpdateCampaignBody,
  updateCampaignSchema,
} from './campaigns.schemas.js';
export {
  addToVouchersCount,
  type CampaignRow,
  countLiveCampaignVouchers,
  findCampaign,
  findCampaignOrNone,
  findLiveCampaign,
  getCampaign,
  listCampaigns,
  removeCampaignRow,
  setGenerationStatus,
} from './campaigns.service.js';
export type { LoyaltyTiersExpiration } from './loyalty-tiers-expiration.schemas.js';
export { findPromotionStack, listQualifyingStackKeys, listStacksTierIds } from './promotion-stacks.service.js';
export {
  findPromotionTier,
  findPromotionTiers,
  listAvailableTierIds,
  listQualifyingTierKeys,
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
