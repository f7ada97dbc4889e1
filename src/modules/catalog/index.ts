/** The catalog module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { startProductsCsvStaging, startSkusCsvStaging } from './catalog-csv-import.service.js';
export {
  type CatalogCache,
  type CatalogEntries,
  catalogHolds,
  type CatalogRefs,
  clearCatalogCache,
  findCatalogEntries,
  newCatalogCache,
  type ProductView,
  type SkuView,
} from './catalog-lookup.service.js';
export { collectionMembersAmong, collectionsMembersAmong } from './collection-products.service.js';
export type { CreateProductInput } from './products.schemas.js';
export { previewProduct, upsertProduct } from './products.service.js';
export type { CreateSkuInput } from './skus.schemas.js';
export { previewSku, upsertSku } from './skus.service.js';
