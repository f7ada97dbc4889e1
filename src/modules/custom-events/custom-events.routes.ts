import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { trackEventSchema } from './custom-events.schemas.js';
import { trackCustomEvent } from './custom-events.service.js';

/**
 * Custom events: track-custom-event (server keys, scope `events`) and its client-side twin
 * (client keys, scope `client_events`), one body, one answer.
 */
export const customEventsRoutes: RouteModule = (router, deps) => {
  for (const path of ['/v1/events', '/client/v1/events']) {
    router.post(path, async (ctx) => {
      ctx.body = await trackCustomEvent(deps, ctx.state.actor, parse(trackEventSchema, ctx.request.body, 'body'));
    });
  }
};
