import type { RouteModule } from '../../http/context.js';
import { deleteCustomerPermanently } from './permanent-deletion.service.js';

/** GDPR: a customer's permanent deletion (the reference's customer-permanently-deletion). */
export const permanentDeletionRoutes: RouteModule = (router, deps) => {
  router.post('/v1/customers/:ref/permanent-deletion', async (ctx) => {
    ctx.body = await deleteCustomerPermanently(deps, ctx.params.ref as string);
  });
};
