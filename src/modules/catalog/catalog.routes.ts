import type { RouteModule } from '../../http/context.js';
import { catalogCsvRoutes } from './import/catalog-csv.routes.js';
import { productCollectionRoutes } from './collections/product-collections.routes.js';
import { productRoutes } from './products/products.routes.js';

/** Every catalog endpoint: products, SKUs and product collections. */
export const catalogRoutes: RouteModule = (router, deps) => {
  catalogCsvRoutes(router, deps);
  productRoutes(router, deps);
  productCollectionRoutes(router, deps);
};
