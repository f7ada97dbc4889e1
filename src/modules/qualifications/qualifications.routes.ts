import type { RouteModule } from '../../http/context.js';
import { parse } from '../../lib/validate.js';
import { qualificationBodySchema } from './qualifications.schemas.js';
import { checkEligibility } from './qualifications.service.js';

/** Check eligibility, server side and client side with the same body and answer (qualifications.service.ts). */
export const qualificationsRoutes: RouteModule = (router, deps) => {
  for (const path of ['/v1/qualifications', '/client/v1/qualifications']) {
    router.post(path, async (ctx) => {
      ctx.body = await checkEligibility(
        deps,
        ctx.state.actor,
        parse(qualificationBodySchema, ctx.request.body, 'body'),
      );
    });
  }
};
