import type { Tx } from '../../db/engine.js';
import { seam, type Seams, type Subscriber } from '../../lib/seams.js';

/**
 * THE CATEGORY SEAM: fired inside the transaction of DELETE /v1/categories/{id}, before the
 * row goes. Modules that name categories outside a foreign key (the stacking rules' category
 * lists) subscribe and throw to keep a category they name.
 */
export interface CategoryDeleting {
  categoryId: string;
}

export const CATEGORY_DELETING = seam<Tx, CategoryDeleting>('categories.deleting');

/** Subscribes to category deletions (at composition); returns the unsubscribe. */
export const onCategoryDeleting = (seams: Seams, subscriber: Subscriber<Tx, CategoryDeleting>): (() => void) =>
  seams.subscribe(CATEGORY_DELETING, subscriber);
