import type { Context } from 'koa';

/**
 * A list answered from a bounded window (a filter no index serves: db/filter-window.ts) says
 * so in its answer: `X-Promo-Filter-Window: complete; examined=<n>; limit=<bound>` when the
 * window held every record the indexed filters reach, `partial; ...` when it was cut at the
 * bound and older records were not examined. A header keeps the body the reference's shape.
 */
export const FILTER_WINDOW_HEADER = 'X-Promo-Filter-Window';

export function setFilterWindowHeader(ctx: Context, window: { examined: number; limit: number } | undefined): void {
  if (window === undefined) return;
  const state = window.examined < window.limit ? 'complete' : 'partial';
  ctx.set(FILTER_WINDOW_HEADER, `${state}; examined=${window.examined}; limit=${window.limit}`);
}
