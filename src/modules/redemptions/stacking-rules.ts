import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { DEFAULT_STACKING_RULES, type StackingRules } from '../../engine/stacking/index.js';

/**
 * The project's stacking rules, as the pipeline applies them. The reference's defaults until
 * the stacking-rules module is merged; then `return getStackingRules(db)` from it.
 */
export async function loadStackingRules(_db: Kysely<Database>): Promise<StackingRules> {
  return DEFAULT_STACKING_RULES;
}
