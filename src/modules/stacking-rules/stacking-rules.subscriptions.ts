import type { Deps } from '../../app/deps.js';
import { AppError } from '../../lib/errors.js';
import { onCategoryDeleting } from '../categories/index.js';
import { fieldNamingCategory } from './stacking-rules.service.js';

/** Stacking rules' seam subscription (named in root/subscriptions.ts): a category the rules name is not deleted (400 resource_in_use). */
export function subscribeStackingRules(deps: Deps): void {
  onCategoryDeleting(deps.seams, async (trx, { categoryId }) => {
    const field = await fieldNamingCategory(trx, categoryId);
    if (field !== undefined)
      throw new AppError('resource_in_use', `Category ${categoryId} is named by the stacking rules' ${field}`);
  });
}
