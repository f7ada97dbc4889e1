/** The redemptions module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { unchangedFigures } from './pipeline/calculated-order.rules.js';
export { type PipelineContext, type PlanBasis, planBasisOf, PREVIEWED } from './pipeline/plan-basis.service.js';
export type { Qualifying } from './pipeline/plan-checks.service.js';
export type { LoadedRedeemable } from './pipeline/redeemable-load.service.js';
export { type AppliedRedeemable, type Plan, planEachAlone, planTogether } from './pipeline/redemption-plan.service.js';
export { redeemStackable } from './pipeline/redeem.service.js';
export { onRedemptionsRolledBack, onRedemptionsSucceeded } from './redemption.seam.js';
export { presentRedemption } from './redemptions.presenter.js';
export type { StackableBody } from './pipeline/redemptions.schemas.js';
export { orderOfValidation } from './pipeline/validate.service.js';
// Verbs that are one repository call, exported under the name callers use (no forwarding service).
export {
  eraseCustomerSnapshots as eraseRedemptionCustomer,
  findFirstRedemptionSeq as firstRedemptionSeqOf,
} from './redemptions-erasure.repository.js';
