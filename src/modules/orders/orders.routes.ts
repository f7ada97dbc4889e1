import type { RouteModule } from '../../http/context.js';
import { RawJson } from '../../lib/raw-json.js';
import { parse } from '../../lib/validate.js';
import { importOrders } from './order-import.service.js';
import { listOrders } from './orders-list.service.js';
import { createOrderSchema, ordersListQuerySchema, updateOrderSchema } from './orders.schemas.js';
import { getOrder, updateOrder } from './orders.service.js';

/** Orders (the reference's Order object). `:orderId` is an order id or source id. */
export const ordersRoutes: RouteModule = (router, deps) => {
  router.post('/v1/orders', async (ctx) => {
    // A whole write (root/write-operations.ts): on the writer thread under `serve`, answered as its text.
    const body = parse(createOrderSchema, ctx.request.body, 'body');
    ctx.body = new RawJson(await deps.writes.run('orders.create', [ctx.state.actor, body]));
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
