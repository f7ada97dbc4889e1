import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import {
  createCategory,
  deleteCategory,
  getCategory,
  listCategories,
  updateCategory,
} from './categories-crud.service.js';
import { createCategorySchema, updateCategorySchema } from './categories.schemas.js';

/** Categories (the reference's Categories endpoints). */
export const categoriesRoutes: RouteModule = (router, deps) => {
  router.post('/v1/categories', async (ctx) => {
    ctx.body = await createCategory(deps, parse(createCategorySchema, ctx.request.body, 'body'));
  });
  router.get('/v1/categories', async (ctx) => {
    ctx.body = await listCategories(deps);
  });
  router.get('/v1/categories/:categoryId', async (ctx) => {
    ctx.body = await getCategory(deps, ctx.params.categoryId as string);
  });
  router.put('/v1/categories/:categoryId', async (ctx) => {
    ctx.body = await updateCategory(
      deps,
      ctx.params.categoryId as string,
      parse(updateCategorySchema, ctx.request.body, 'body'),
    );
  });
  router.delete('/v1/categories/:categoryId', async (ctx) => {
    await deleteCategory(deps, ctx.params.categoryId as string);
    ctx.status = 204;
  });
};
