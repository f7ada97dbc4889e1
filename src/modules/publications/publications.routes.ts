import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { listPublications } from './publications-list.service.js';
import { parsePublicationsListQuery } from './publications-list.schemas.js';
import {
  createPublicationSchema,
  parseClientPublish,
  parseCreateQuery,
  parseJoinOnce,
} from './publications.schemas.js';
import { createPublication } from './publications.service.js';

/** Publications (the reference's /v1/publications): create (by POST, or GET with the request as a query) and list (also a voucher's own). */
export const publicationsRoutes: RouteModule = (router, deps) => {
  router.post('/v1/publications', async (ctx) => {
    const joinOnce = parseJoinOnce(ctx.query);
    const body = parse(createPublicationSchema, ctx.request.body, 'body');
    ctx.body = await createPublication(deps, body, joinOnce, ctx.state.actor);
  });

  router.get('/v1/publications/create', async (ctx) => {
    const joinOnce = parseJoinOnce(ctx.query);
    ctx.body = await createPublication(deps, parseCreateQuery(ctx.query), joinOnce, ctx.state.actor);
  });

  // The client-side publish (client keys, scope client_publish): one voucher of the query's campaign.
  router.post('/client/v1/publish', async (ctx) => {
    const { body, joinOnce } = parseClientPublish(ctx.query, ctx.request.body);
    ctx.body = await createPublication(deps, body, joinOnce, ctx.state.actor);
  });

  router.get('/v1/publications', async (ctx) => {
    ctx.body = await listPublications(deps, parsePublicationsListQuery(ctx.query));
  });

  // A voucher's `publish.url`: its publications, as GET /v1/publications?voucher={code} lists them.
  router.get('/v1/vouchers/:code/publications', async (ctx) => {
    ctx.body = await listPublications(
      deps,
      parsePublicationsListQuery({ ...ctx.query, voucher: ctx.params.code as string }),
    );
  });
};
