import type { AppContext, RouteModule } from '../../http/context.js';
import { LIMITS } from '../../lib/limits.js';
import { validateBody, validateQuery } from '../../lib/validate.js';
import { changeBalanceAnswer } from './balance.service.js';
import { bucketsQuerySchema, memberBalanceSchema, transactionsQuerySchema, voucherBalanceSchema } from './ledgers.schemas.js';
import { listCardTransactions, listPointsExpiration } from './transactions.service.js';

/** The channel a client names in X-Voucherify-Channel: the rows' `source` (short text, else none). */
const channelOf = (ctx: AppContext): string | null => {
  const channel = ctx.get('x-voucherify-channel');
  return channel === '' ? null : channel.slice(0, LIMITS.shortText);
};

/** Balance changes (4.6, /vouchers/{code}/balance), transactions and points expiration. */
export const ledgersRoutes: RouteModule = (router, deps) => {
  const memberBalance = (ctx: AppContext, campaign?: string) => {
    const body = validateBody(memberBalanceSchema, ctx.request.body);
    return changeBalanceAnswer(deps, { ...body, code: ctx.params.memberId as string, campaign, amount: body.points, source: channelOf(ctx), actor: ctx.state.actor }, 'points');
  };
  router.post('/v1/loyalties/members/:memberId/balance', async (ctx) => {
    ctx.body = await memberBalance(ctx);
  });
  router.post('/v1/loyalties/:campaignId/members/:memberId/balance', async (ctx) => {
    ctx.body = await memberBalance(ctx, ctx.params.campaignId as string);
  });
  router.post('/v1/vouchers/:code/balance', async (ctx) => {
    const body = validateBody(voucherBalanceSchema, ctx.request.body);
    ctx.body = await changeBalanceAnswer(deps, { ...body, code: ctx.params.code as string, source: channelOf(ctx), actor: ctx.state.actor }, 'amount');
  });

  router.get('/v1/loyalties/members/:memberId/transactions', async (ctx) => {
    ctx.body = await listCardTransactions(deps, { code: ctx.params.memberId as string }, validateQuery(transactionsQuerySchema, ctx.query));
  });
  router.get('/v1/loyalties/:campaignId/members/:memberId/transactions', async (ctx) => {
    const card = { code: ctx.params.memberId as string, campaign: ctx.params.campaignId as string };
    ctx.body = await listCardTransactions(deps, card, validateQuery(transactionsQuerySchema, ctx.query));
  });
  router.get('/v1/vouchers/:code/transactions', async (ctx) => {
    ctx.body = await listCardTransactions(deps, { code: ctx.params.code as string }, validateQuery(transactionsQuerySchema, ctx.query));
  });
  router.get('/v1/loyalties/:campaignId/members/:memberId/points-expiration', async (ctx) => {
    const card = { code: ctx.params.memberId as string, campaign: ctx.params.campaignId as string };
    ctx.body = await listPointsExpiration(deps, card, validateQuery(bucketsQuerySchema, ctx.query));
  });
};
