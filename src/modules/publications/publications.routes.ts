import type { RouteModule } from '../../http/context.js';
import { validateBody } from '../../lib/validate.js';
import { listPublications } from './publications-list.service.js';
import { parsePublicationsListQuery } from './publications-list.schemas.js';
import { createPublicationSchema, parseCreateQuery, parseJoinOnce } from './publications.schemas.js';
import { createPublication } from './publications.service.js';

/** Publications (the reference's /v1/publications): create (by POST, or GET with the request as a query) and list. */
export const publicationsRoutes: RouteModule = (router, deps) => {
  router.post('/v1/publications', async (ctx) => {
    const joinOnce = parseJoinOnce(ctx.query);
    const body = validateBody(createPublicationSchema, ctx.request.body);
    ctx.body = await createPublication(deps, body, joinOnce, ctx.state.actor);
  });

  router.get('/v1/publications/create', async (ctx) => {
    const joinOnce = parseJoinOnce(ctx.query);
    ctx.body = await createPublication(deps, parseCreateQuery(ctx.query), joinOnce, ctx.state.actor);
  });

  router.get('/v1/publications', async (ctx) => {
    ctx.body = await listPublications(deps, parsePublicationsListQuery(ctx.query));
  });
};
