import type { Next } from 'koa';
import { newRequestId } from '../../lib/ids.js';
import type { AppContext } from '../context.js';

/** Every answer carries X-Request-Id; errors and events quote the same id. */
export async function requestId(ctx: AppContext, next: Next): Promise<void> {
  ctx.state.requestId = newRequestId();
  ctx.set('X-Request-Id', ctx.state.requestId);
  await next();
}
