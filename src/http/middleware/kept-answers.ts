import type { Next } from 'koa';
import type { DatabaseEngine } from '../../db/engine.js';
import { stringifyJson } from '../../lib/raw-json.js';
import { type AppContext, matchedRoute, setMatchedRoute } from '../context.js';
import { isJsonAnswer, JSON_TYPE } from './errors.js';

/** What one database version's answers may take: past it, answers are made but not kept. */
const MAX_KEPT_BYTES = 16 * 1024 * 1024;

interface KeptAnswer {
  bytes: Buffer;
  route: string | null;
}

/** The answers kept for one committed version of the database, by URL. */
interface Shelf {
  version: number;
  answers: Map<string, KeptAnswer>;
  bytes: number;
}

/**
 * GET answers kept in memory while nobody commits (docs/performance.md "A read's fixed cost"):
 * a route whose answer is its database's data alone marks it (`ctx.state.keepAnswer`), and
 * the same URL is answered with the same bytes until the engine's committed version moves.
 * Any commit moves it (SQLite's data_version: this server's writer, a job's thread, another
 * process), and every kept answer is dropped at once, so an answer is never older than the
 * data a fresh read would see. Where the engine cannot see every commit (PostgreSQL), nothing
 * is kept.
 *
 * It runs after authentication and the rate limit, so a kept answer is given only to a caller
 * the current keys admit, counted against its budget like any other; the answer's route is
 * named in the log and the metrics as the router would have named it.
 */
export function keptAnswers(engine: Pick<DatabaseEngine, 'committedVersion'>) {
  let shelf: Shelf = { version: Number.NaN, answers: new Map(), bytes: 0 };
  return async function answerKept(ctx: AppContext, next: Next): Promise<void> {
    const version = ctx.method === 'GET' ? engine.committedVersion?.() : undefined;
    if (version === undefined) return next();
    if (shelf.version !== version) shelf = { version, answers: new Map(), bytes: 0 };
    const kept = shelf.answers.get(ctx.url);
    if (kept) {
      setMatchedRoute(ctx, kept.route);
      answer(ctx, kept.bytes);
      return;
    }
    // The version read before the route's reads: a commit during them leaves this shelf stale.
    const shelfBefore = shelf;
    await next();
    if (!ctx.state.keepAnswer || ctx.status !== 200 || !isJsonAnswer(ctx.body)) return;
    const bytes = Buffer.from(stringifyJson(ctx.body));
    answer(ctx, bytes);
    if (shelfBefore.bytes + bytes.length > MAX_KEPT_BYTES) return;
    shelfBefore.answers.set(ctx.url, { bytes, route: matchedRoute(ctx) });
    shelfBefore.bytes += bytes.length;
  };
}

function answer(ctx: AppContext, bytes: Buffer): void {
  // The header first: Koa's body setter then keeps it rather than guessing a binary type.
  ctx.set('Content-Type', JSON_TYPE);
  ctx.body = bytes;
}
