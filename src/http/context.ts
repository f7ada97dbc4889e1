import type { Router } from '@koa/router';
import type { ParameterizedContext } from 'koa';
import type { Deps } from '../app/deps.js';
import type { Actor } from '../lib/actor.js';

export interface AppState {
  requestId: string;
  /** Set by the auth middleware for every authenticated request. */
  actor: Actor;
  /** The authenticated key's own requests per minute (null: the server's default). */
  keyRateLimit?: number | null;
  /** Set by the body middleware on a multipart upload (POST .../importCSV): its largest file. */
  uploadLimitBytes?: number;
  /** The catalogue key a refused request was answered with: its log line says why. */
  errorKey?: string;
}

export type AppContext = ParameterizedContext<AppState>;
export type AppRouter = Router<AppState>;

/** The pattern of the route that answered (@koa/router leaves it on the context); null: none did. */
export const matchedRoute = (ctx: AppContext): string | null =>
  (ctx as AppContext & { _matchedRoute?: string })._matchedRoute ?? null;

/** Says which route a kept answer is, as @koa/router would have (http/kept-answers.ts). */
export const setMatchedRoute = (ctx: AppContext, route: string | null): void => {
  if (route !== null) (ctx as AppContext & { _matchedRoute?: string })._matchedRoute = route;
};

/** The server's origin as the client reached it (the request's protocol and Host header): export URLs. */
export const serverOrigin = (ctx: Pick<AppContext, 'protocol' | 'host'>): string => `${ctx.protocol}://${ctx.host}`;

/** A module's routes: registered on the one router by createApp. */
export type RouteModule = (router: AppRouter, deps: Deps) => void;

declare module 'koa' {
  interface Request {
    /** The parsed JSON or form body (middleware/body.ts); unset on GET, HEAD and uploads. */
    body?: unknown;
  }
}
