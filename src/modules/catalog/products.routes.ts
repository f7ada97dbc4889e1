import type { AppRouter } from '../../http/context.js';
import type { Deps } from '../../app/deps.js';
import type { Query } from '../../lib/pagination.js';
import { parseCatalogListQuery } from './catalog.schemas.js';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from './products.service.js';
import { createSku, deleteSku, getSku, listSkus, updateSku } from './skus.service.js';

/** Products (SPEC.md 2.3, 4.14) and their SKUs (2.4, 4.15). Path keys are ids or source ids. */
export function productRoutes(router: AppRouter, deps: Deps): void {
  router.post('/v1/products', async (ctx) => {
    ctx.body = await createProduct(deps, ctx.request.body);
  });
  router.get('/v1/products', async (ctx) => {
    ctx.body = await listProducts(deps, parseCatalogListQuery(ctx.query as Query));
  });
  router.get('/v1/products/:productId', async (ctx) => {
    ctx.body = await getProduct(deps, ctx.params.productId as string);
  });
  router.put('/v1/products/:productId', async (ctx) => {
    ctx.body = await updateProduct(deps, ctx.params.productId as string, ctx.request.body);
  });
  router.delete('/v1/products/:productId', async (ctx) => {
    await deleteProduct(deps, ctx.params.productId as string);
    ctx.status = 204;
  });

  router.post('/v1/products/:productId/skus', async (ctx) => {
    ctx.body = await createSku(deps, ctx.params.productId as string, ctx.request.body);
  });
  router.get('/v1/products/:productId/skus', async (ctx) => {
    ctx.body = await listSkus(deps, ctx.params.productId as string, parseCatalogListQuery(ctx.query as Query));
  });
  router.put('/v1/products/:productId/skus/:skuId', async (ctx) => {
    ctx.body = await updateSku(deps, ctx.params.productId as string, ctx.params.skuId as string, ctx.request.body);
  });
  router.delete('/v1/products/:productId/skus/:skuId', async (ctx) => {
    await deleteSku(deps, ctx.params.productId as string, ctx.params.skuId as string);
    ctx.status = 204;
  });
  router.get('/v1/skus/:skuId', async (ctx) => {
    ctx.body = await getSku(deps, ctx.params.skuId as string);
  });
}
