import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from './context.js';

/** The segments that lead to a resource rather than name one: `/v1/`, `/client/v1/`, `/management/v1/`. */
const LEADING = new Set(['client', 'management', 'v1']);

/**
 * A path's group: its leading segments up to and including the first that names a resource
 * ("v1/vouchers", "client/v1/validations", "management/v1/projects", "health"), lower-cased
 * as the routes match (they are not case-sensitive). No route has a parameter among these.
 */
export function groupOf(path: string): string {
  // Every request asks: only the leading segments are cut and lower-cased, not the whole path.
  let key = '';
  for (let start = 0; start < path.length; ) {
    const slash = path.indexOf('/', start);
    const end = slash < 0 ? path.length : slash;
    if (end > start) {
      const segment = path.slice(start, end).toLowerCase();
      key = key === '' ? segment : `${key}/${segment}`;
      if (!LEADING.has(segment)) break;
    }
    start = end + 1;
  }
  return key;
}

const unrouted: Middleware<AppState> = (_ctx, next) => next();

/**
 * The router's routes as one middleware that matches a request only against the routes of its
 * path's group (docs/performance.md "Hot paths"): @koa/router tests every route's pattern on every request,
 * ~165 of them (5-7 us, a fifth of `/health`), where a group has 1 to 38. Each group is a
 * Router of its own holding the same route layers, so parameters, 405 and OPTIONS
 * (allowedMethods) answer as the whole router would: a route can match only paths of its own
 * group. A path of no group falls through, unmatched (404).
 */
export function groupedRoutes(router: Router<AppState>): Middleware<AppState> {
  const routers = new Map<string, Router<AppState>>();
  for (const layer of router.stack) {
    const key = groupOf(layer.path as string);
    let group = routers.get(key);
    if (!group) routers.set(key, (group = new Router<AppState>()));
    group.stack.push(layer);
  }
  const groups = new Map<string, Middleware<AppState>>();
  for (const [key, group] of routers) {
    const routes = group.routes() as unknown as Middleware<AppState>;
    const allowed = group.allowedMethods() as unknown as Middleware<AppState>;
    groups.set(key, (ctx, next) => routes(ctx, () => allowed(ctx, next)));
  }
  return (ctx, next) => (groups.get(groupOf(ctx.path)) ?? unrouted)(ctx, next);
}
