import type { Middleware, Next } from 'koa';
import type { DatabaseEngine } from '../db/engine.js';
import { stringifyJson } from '../lib/raw-json.js';
import { type AppContext, type AppState, matchedRoute, setMatchedRoute } from './context.js';
import { isJsonAnswer, JSON_TYPE } from './middleware/errors.js';

/** What one database version's answers may take: past it, answers are made but not kept. */
const MAX_KEPT_BYTES = 16 * 1024 * 1024;
/** URLs answered once at one version that a shelf remembers: past it, no new URL is kept. */
const MAX_SEEN_URLS = 100_000;

interface KeptAnswer {
  bytes: Buffer;
  /** The route's pattern: the request log and the metrics name it as the router would. */
  route: string | null;
}

/** The answers kept for one committed version of the database, by URL. */
interface Shelf {
  version: number;
  answers: Map<string, KeptAnswer>;
  bytes: number;
  /**
   * URLs answered once at this version. An answer is kept the second time its URL is asked for:
   * keeping every answer cost a read that is never asked again ~10% more CPU (hot-paths' reads
   * of a new URL each), for memory nothing would use.
   */
  seen: Set<string>;
}

type Engine = Pick<DatabaseEngine, 'committedVersion'>;

/** One shelf per database, shared by every route that keeps answers. */
const shelves = new WeakMap<Engine, Shelf>();

/**
 * GET answers kept in memory while nobody commits (docs/performance.md "A read's fixed cost").
 * A route whose answer is its database's data alone (no clock, no caller, no header of its own)
 * puts `keptWhileUnchanged(deps.engine)` before its handler, which keeps an answer the second time
 * its URL is asked for at one version; `keptAnswers(deps.engine)`, in the app's chain after
 * authentication and the rate limit, answers that URL again with the same bytes, before routing,
 * until the engine's committed version moves. Any commit moves it
 * (SQLite's data_version: this server's writer, a job's thread, another process), and every
 * kept answer is dropped at once, so an answer is never older than what a fresh read would
 * see. A URL with nothing kept costs one map lookup; only a kept one reads the version. Where
 * the engine cannot see every commit (PostgreSQL), nothing is kept.
 */
export function keptAnswers(engine: Engine): Middleware<AppState> {
  return function answerKept(ctx, next) {
    const shelf = ctx.method === 'GET' ? shelves.get(engine) : undefined;
    const kept = shelf?.answers.get(ctx.url);
    if (!shelf || !kept) return next();
    if (engine.committedVersion?.() !== shelf.version) {
      shelves.delete(engine);
      return next();
    }
    setMatchedRoute(ctx, kept.route);
    answer(ctx, kept.bytes);
    return Promise.resolve();
  };
}

/** Keeps the route's answer for `keptAnswers` to give again (see there). */
export function keptWhileUnchanged(engine: Engine) {
  return async function keepAnswer(ctx: AppContext, next: Next): Promise<void> {
    // Read before the handler's reads: a commit during them leaves this shelf behind (a miss later, never a stale answer).
    const version = ctx.method === 'GET' ? engine.committedVersion?.() : undefined;
    if (version === undefined) return next();
    let shelf = shelves.get(engine);
    if (shelf?.version !== version)
      shelves.set(engine, (shelf = { version, answers: new Map(), bytes: 0, seen: new Set() }));
    await next();
    if (ctx.status !== 200 || !isJsonAnswer(ctx.body)) return;
    if (!shelf.seen.has(ctx.url)) {
      if (shelf.seen.size < MAX_SEEN_URLS) shelf.seen.add(ctx.url);
      return;
    }
    const bytes = Buffer.from(stringifyJson(ctx.body));
    answer(ctx, bytes);
    if (shelf.bytes + bytes.length > MAX_KEPT_BYTES) return;
    shelf.answers.set(ctx.url, { bytes, route: matchedRoute(ctx) });
    shelf.bytes += bytes.length;
  };
}

function answer(ctx: AppContext, bytes: Buffer): void {
  // The header first: Koa's body setter then keeps it rather than guessing a binary type.
  ctx.set('Content-Type', JSON_TYPE);
  ctx.body = bytes;
}
