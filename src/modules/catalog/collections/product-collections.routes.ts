import type { Deps } from '../../../app/deps.js';
import type { AppRouter } from '../../../http/context.js';
import { parse } from '../../../lib/validate.js';
import { listCollectionProducts } from './collection-products.service.js';
import {
  collectionListQuerySchema,
  collectionListWindow,
  createCollectionSchema,
  membersQuerySchema,
  membersWindow,
} from './product-collections.schemas.js';
import { createCollection, deleteCollection, getCollection, listCollections } from './product-collections.service.js';

/** Product collections (the reference's "Create Product Collection", "List Product Collections"). */
export function productCollectionRoutes(router: AppRouter, deps: Deps): void {
  router.post('/v1/product-collections', async (ctx) => {
    ctx.body = await createCollection(deps, parse(createCollectionSchema, ctx.request.body, 'body'));
  });
  router.get('/v1/product-collections', async (ctx) => {
    ctx.body = await listCollections(deps, collectionListWindow(parse(collectionListQuerySchema, ctx.query, 'query')));
  });
  router.get('/v1/product-collections/:collectionId', async (ctx) => {
    ctx.body = await getCollection(deps, ctx.params.collectionId as string);
  });
  router.delete('/v1/product-collections/:collectionId', async (ctx) => {
    await deleteCollection(deps, ctx.params.collectionId as string);
    ctx.status = 204;
  });
  router.get('/v1/product-collections/:collectionId/products', async (ctx) => {
    ctx.body = await listCollectionProducts(
      deps,
      ctx.params.collectionId as string,
      membersWindow(parse(membersQuerySchema, ctx.query, 'query')),
    );
  });
}
