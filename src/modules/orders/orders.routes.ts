import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { importOrders } from './order-import.service.js';
import { listOrders } from './orders-list.service.js';
import { createOrderSchema, ordersListQuerySchema, updateOrderSchema } from './orders.schemas.js';
import { createOrder, getOrder, updateOrder } from './orders.service.js';

/** Orders (the reference's Order object). `:orderId` is an order id or source id. */
export const ordersRoutes: RouteModule = (router, deps) => {
  router.post('/v1/orders', async (ctx) => {
    ctx.body = await createOrder(deps, ctx.state.actor, parse(createOrderSchema, ctx.request.body, 'body'));
  });

  router.get('/v1/orders', async (ctx) => {
    ctx.body = await listOrders(deps, parse(ordersListQuerySchema, ctx.query, 'query'));
  });

  // 200, not 202, as the reference answers this one (voucherify-facts 1.13).
  router.post('/v1/orders/import', async (ctx) => {
    ctx.body = await importOrders(deps, ctx.request.body, ctx.state.actor);
  });

  router.get('/v1/orders/:orderId', async (ctx) => {
    ctx.body = await getOrder(deps, ctx.params.orderId as string);
  });

  router.put('/v1/orders/:orderId', async (ctx) => {
    ctx.body = await updateOrder(
      deps,
      ctx.state.actor,
      ctx.params.orderId as string,
      parse(updateOrderSchema, ctx.request.body, 'body'),
    );
  });
};
