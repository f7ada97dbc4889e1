import type { RouteModule } from '../../../http/context.js';
import { parse } from '../../../lib/validate.js';
import {
  createProgramSchema,
  deleteProgramQuerySchema,
  programsListQuerySchema,
  updateProgramSchema,
} from './programs.schemas.js';
import { createProgram, deleteProgram, getProgram, listPrograms, updateProgram } from './programs.service.js';

/** Loyalty programs (/v1/loyalties): LOYALTY_PROGRAM campaigns through the loyalty paths. */
export const programsRoutes: RouteModule = (router, deps) => {
  router.post('/v1/loyalties', async (ctx) => {
    ctx.body = await createProgram(deps, parse(createProgramSchema, ctx.request.body, 'body'), ctx.state.actor);
  });

  router.get('/v1/loyalties', async (ctx) => {
    ctx.body = await listPrograms(deps, parse(programsListQuerySchema, ctx.query, 'query'));
  });

  router.get('/v1/loyalties/:campaignId', async (ctx) => {
    ctx.body = await getProgram(deps, ctx.params.campaignId as string);
  });

  router.put('/v1/loyalties/:campaignId', async (ctx) => {
    ctx.body = await updateProgram(
      deps,
      ctx.params.campaignId as string,
      parse(updateProgramSchema, ctx.request.body, 'body'),
      ctx.state.actor,
    );
  });

  // 202 with the job, as DELETE /v1/campaigns answers (the cards are removed by that job).
  router.delete('/v1/loyalties/:campaignId', async (ctx) => {
    parse(deleteProgramQuerySchema, ctx.query, 'query');
    ctx.status = 202;
    ctx.body = await deleteProgram(deps, ctx.params.campaignId as string, ctx.state.actor);
  });
};
