import type { AppRouter } from '../../../http/context.js';
import type { Deps } from '../../../app/deps.js';
import { parse } from '../../../lib/validate.js';
import { catalogListQuerySchema, catalogListWindow } from '../catalog.schemas.js';
import { createProductSchema, updateProductSchema } from './products.schemas.js';
import { createSkuSchema, updateSkuSchema } from '../skus/skus.schemas.js';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from './products.service.js';
import { createSku, deleteSku, getSku, listSkus, updateSku } from '../skus/skus.service.js';

/** Products (the reference's Product object, "Get Product") and their SKUs (the Sku object, "List SKUs in Product"). Path keys are ids or source ids. */
export function productRoutes(router: AppRouter, deps: Deps): void {
  router.post('/v1/products', async (ctx) => {
    ctx.body = await createProduct(deps, parse(createProductSchema, ctx.request.body, 'body'));
  });
  router.get('/v1/products', async (ctx) => {
    ctx.body = await listProducts(deps, catalogListWindow(parse(catalogListQuerySchema, ctx.query, 'query')));
  });
  router.get('/v1/products/:productId', async (ctx) => {
    ctx.body = await getProduct(deps, ctx.params.productId as string);
  });
  router.put('/v1/products/:productId', async (ctx) => {
    ctx.body = await updateProduct(
      deps,
      ctx.params.productId as string,
      parse(updateProductSchema, ctx.request.body, 'body'),
    );
  });
  router.delete('/v1/products/:productId', async (ctx) => {
    await deleteProduct(deps, ctx.params.productId as string);
    ctx.status = 204;
  });

  router.post('/v1/products/:productId/skus', async (ctx) => {
    ctx.body = await createSku(deps, ctx.params.productId as string, parse(createSkuSchema, ctx.request.body, 'body'));
  });
  router.get('/v1/products/:productId/skus', async (ctx) => {
    ctx.body = await listSkus(
      deps,
      ctx.params.productId as string,
      catalogListWindow(parse(catalogListQuerySchema, ctx.query, 'query')),
    );
  });
  router.put('/v1/products/:productId/skus/:skuId', async (ctx) => {
    ctx.body = await updateSku(
      deps,
      ctx.params.productId as string,
      ctx.params.skuId as string,
      parse(updateSkuSchema, ctx.request.body, 'body'),
    );
  });
  router.delete('/v1/products/:productId/skus/:skuId', async (ctx) => {
    await deleteSku(deps, ctx.params.productId as string, ctx.params.skuId as string);
    ctx.status = 204;
  });
  router.get('/v1/skus/:skuId', async (ctx) => {
    ctx.body = await getSku(deps, ctx.params.skuId as string);
  });
}
