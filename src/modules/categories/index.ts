/** The categories module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { categoriesOf, type CategoryView } from './categories.presenter.js';
export { categoriesById, findCategoryId, resolveCategoryId } from './categories.service.js';
export { onCategoryDeleting } from './category-deleting.seam.js';
