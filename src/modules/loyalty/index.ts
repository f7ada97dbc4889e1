/** The loyalty module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { earnOnCustomEvent, findEarningCard, type HeldCard } from './earning-custom.service.js';
export { earningRuleExists } from './earning-rules.service.js';
export { listMembers } from './members-list.service.js';
