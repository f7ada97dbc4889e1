import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { createSegmentSchema } from './segments.schemas.js';
import { createSegment, deleteSegment, getSegment, listCustomerSegments } from './segments.service.js';

/** Customer segments (scope `segments`) and a customer's segments (scope `customers`). */
export const segmentsRoutes: RouteModule = (router, deps) => {
  router.post('/v1/segments', async (ctx) => {
    ctx.body = await createSegment(deps, ctx.state.actor, parse(createSegmentSchema, ctx.request.body, 'body'));
  });
  router.get('/v1/segments/:segmentId', async (ctx) => {
    ctx.body = await getSegment(deps, ctx.params.segmentId as string);
  });
  router.delete('/v1/segments/:segmentId', async (ctx) => {
    await deleteSegment(deps, ctx.params.segmentId as string);
    ctx.status = 204;
  });
  router.get('/v1/customers/:ref/segments', async (ctx) => {
    ctx.body = await listCustomerSegments(deps, ctx.params.ref as string);
  });
};
