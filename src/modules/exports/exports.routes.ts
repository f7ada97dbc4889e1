import { serverOrigin, type RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { exportsListQuerySchema } from './exports.schemas.js';
import { createExport, deleteExport, getExport, listExports, openExportFile } from './exports.service.js';

/**
 * The exports of the reference (POST, GET and DELETE /v1/exports...), answered with the
 * request's origin so that `result.url` is a whole URL, and the download of a finished
 * export's CSV, streamed from its file under the same credentials (promo's own path: the
 * reference serves files from a separate download host with a token).
 */
export const exportsRoutes: RouteModule = (router, deps) => {
  router.post('/v1/exports', async (ctx) => {
    ctx.body = await createExport(deps, ctx.request.body, ctx.state.actor, serverOrigin(ctx));
  });

  router.get('/v1/exports', async (ctx) => {
    ctx.body = await listExports(deps, parse(exportsListQuerySchema, ctx.query, 'query'), serverOrigin(ctx));
  });

  router.get('/v1/exports/:id', async (ctx) => {
    ctx.body = await getExport(deps, ctx.params.id as string, serverOrigin(ctx));
  });

  router.delete('/v1/exports/:id', async (ctx) => {
    await deleteExport(deps, ctx.params.id as string);
    ctx.status = 204;
  });

  router.get('/v1/exports/:id/download', async (ctx) => {
    const file = await openExportFile(deps, ctx.params.id as string);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.length = file.size;
    ctx.attachment(file.name);
    ctx.body = file.stream;
  });
};
