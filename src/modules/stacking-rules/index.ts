/** The stacking-rules module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export type { StackingRulesChange } from './stacking-rules.schemas.js';
export { changeStackingRules, getStackingRules, showStackingRules } from './stacking-rules.service.js';
