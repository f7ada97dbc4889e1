/** The loyalty module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { earnOnCustomEvent, findEarningCard, type HeldCard } from './earning/earning-custom.service.js';
export { earningRuleExists } from './earning/earning-rules.service.js';
export { listMembers } from './members/members-list.service.js';
export { onTierChanged, type TierChanged, type TierEventType } from './tiers/tiers-changed.seam.js';
