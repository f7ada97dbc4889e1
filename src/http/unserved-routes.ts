import { AppError } from '../lib/errors.js';
import type { RouteModule } from './context.js';

/**
 * Operations the official client (@voucherify/sdk) calls that promo does not serve, on paths
 * that a served route would otherwise take: `POST /v1/vouchers/import` (`vouchers.import`) and
 * `POST /v1/vouchers/qualification` (`vouchers.qualifications.examine`) would reach
 * `POST /v1/vouchers/{code}` and create (or refuse) a voucher coded `import`; the others would
 * answer 405 because the path serves other methods. Each answers as any path promo does not
 * serve: 404 `not_found` "No route for ...". Registered before every module's routes. Routes
 * match regardless of case, these only as written: `POST /v1/vouchers/IMPORT` still creates the
 * voucher `IMPORT`.
 */
const UNSERVED: ReadonlyArray<readonly ['post', string]> = [
  ['post', '/v1/vouchers/import'],
  ['post', '/v1/vouchers/qualification'],
  ['post', '/v1/campaigns/qualification'],
  ['post', '/v1/orders/export'],
];

export const unservedRoutes: RouteModule = (router) => {
  for (const [method, path] of UNSERVED) {
    const literal = path.includes(':') ? null : path;
    router[method](path, (ctx, next) => {
      if (literal !== null && ctx.path.replace(/\/$/, '') !== literal) return next();
      throw new AppError('not_found', `No route for ${ctx.method} ${ctx.path}`);
    });
  }
};
