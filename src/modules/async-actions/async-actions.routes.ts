import { Readable } from 'node:stream';
import { jobRegistry } from '../../root/job-registry.js';
import type { RouteModule } from '../../http/context.js';
import { failuresNdjson, openJobFailures, type FailureView } from '../../jobs/failures.service.js';
import { getAsyncAction, listAsyncActions } from '../../jobs/jobs.service.js';
import { date, limit, querySchema } from '../../lib/query-params.js';
import { parse } from '../../lib/validate.js';

/** GET /v1/async-actions (voucherify-facts 2.2): `end_date` keeps actions scheduled before it. */
const asyncActionsQuerySchema = querySchema({ limit: limit(), end_date: date() });

async function* ndjson(pages: AsyncIterable<FailureView[]>): AsyncGenerator<string> {
  for await (const page of pages) yield failuresNdjson(page);
}

/** The async actions (voucherify-facts 2.2), and the failures report of one (promo's own). */
export const asyncActionsRoutes: RouteModule = (router, deps) => {
  router.get('/v1/async-actions', async (ctx) => {
    const query = parse(asyncActionsQuerySchema, ctx.query, 'query');
    ctx.body = await listAsyncActions(deps, { limit: query.limit, endDate: query.end_date });
  });

  router.get('/v1/async-actions/:id', async (ctx) => {
    ctx.body = await getAsyncAction(deps, ctx.params.id as string);
  });

  // Every failure of a job, as NDJSON, streamed page by page from the database (the URL in
  // `result.reports`); the result itself lists only the first ones.
  router.get('/v1/async-actions/:id/failures', async (ctx) => {
    const pages = await openJobFailures(deps, jobRegistry, ctx.params.id as string);
    ctx.type = 'application/x-ndjson';
    ctx.body = Readable.from(ndjson(pages));
  });
};
