import type { RouteModule } from '../../http/context.js';
import { renderAsset, type AssetKind } from './assets.service.js';

const KINDS: AssetKind[] = ['qr', 'barcode'];

export const assetsRoutes: RouteModule = (router, deps) => {
  for (const kind of KINDS) {
    router.get(`/v1/assets/${kind}/:id`, async (ctx) => {
      ctx.body = await renderAsset(deps, kind, ctx.params.id as string);
      ctx.type = 'image/png';
      ctx.set('Cache-Control', 'private, max-age=86400');
    });
  }
};
