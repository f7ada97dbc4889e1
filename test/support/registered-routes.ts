import { Router } from '@koa/router';
import type { Deps } from '../../src/app/deps.js';
import type { AppRouter } from '../../src/http/context.js';
import { routeModules } from '../../src/http/routes.js';

export interface Route {
  method: string;
  path: string;
}

/** Every route the app registers (HEAD aside), as `/v1/products/:productId`. */
export function registeredRoutes(): Route[] {
  const router = new Router();
  for (const register of routeModules) register(router as unknown as AppRouter, {} as Deps);
  return router.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) })),
  );
}
