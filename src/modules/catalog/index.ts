/** The catalog module's front door: all that code outside the module uses of it (docs/architecture.md, Front doors). */
export { startProductsCsvStaging, startSkusCsvStaging } from './import/catalog-csv-import.service.js';
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
export { collectionMembersAmong, collectionsMembersAmong } from './collections/collection-products.service.js';
export type { CreateProductInput } from './products/products.schemas.js';
export { previewProduct, upsertProduct } from './products/products.service.js';
export type { CreateSkuInput } from './skus/skus.schemas.js';
export { previewSku, upsertSku } from './skus/skus.service.js';
