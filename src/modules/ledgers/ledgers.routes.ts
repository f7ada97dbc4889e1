import { serverOrigin, type AppContext, type RouteModule } from '../../http/context.js';
import { invalidQueryParams } from '../../lib/errors.js';
import { LIMITS } from '../../lib/limits.js';
import { parse } from '../../lib/validate.js';
import { changeBalanceAnswer } from './balance.service.js';
import {
  bucketsQuerySchema,
  memberBalanceSchema,
  transactionsQuerySchema,
  transfersSchema,
  voucherBalanceSchema,
} from './ledgers.schemas.js';
import { transferPoints } from './transfers.service.js';
import { listCardTransactions, listPointsExpiration } from './transactions.service.js';
import { exportCardTransactions } from './transactions-export.service.js';

/** The channel a client names in X-Voucherify-Channel: the rows' `source` (short text, else none). */
const channelOf = (ctx: AppContext): string | null => {
  const channel = ctx.get('x-voucherify-channel');
  return channel === '' ? null : channel.slice(0, LIMITS.shortText);
};

/**
 * The reference's `filters` of the transactions lists (created_at and id conditions) are not
 * implemented: refused, so that a client never takes an unfiltered page for a filtered one.
 * Other unknown parameters are ignored, as on every list.
 */
function transactionsQuery(ctx: AppContext) {
  const filters = Object.keys(ctx.query).filter((key) => key === 'filters' || key.startsWith('filters['));
  if (filters.length > 0) {
    throw invalidQueryParams(
      filters
        .map((key) => `Query parameter ${key} is not supported (transactions take limit, order and starting_after_id)`)
        .join('; '),
    );
  }
  return parse(transactionsQuerySchema, ctx.query, 'query');
}

/** Balance changes (4.6, /vouchers/{code}/balance), transactions and points expiration. */
export const ledgersRoutes: RouteModule = (router, deps) => {
  const memberBalance = (ctx: AppContext, campaign?: string) => {
    const body = parse(memberBalanceSchema, ctx.request.body, 'body');
    return changeBalanceAnswer(
      deps,
      {
        ...body,
        code: ctx.params.memberId as string,
        campaign,
        amount: body.points,
        source: channelOf(ctx),
        actor: ctx.state.actor,
      },
      'points',
    );
  };
  router.post('/v1/loyalties/members/:memberId/balance', async (ctx) => {
    ctx.body = await memberBalance(ctx);
  });
  router.post('/v1/loyalties/:campaignId/members/:memberId/balance', async (ctx) => {
    ctx.body = await memberBalance(ctx, ctx.params.campaignId as string);
  });
  router.post('/v1/loyalties/:campaignId/members/:memberId/transfers', async (ctx) => {
    const card = { code: ctx.params.memberId as string, campaign: ctx.params.campaignId as string };
    ctx.body = await transferPoints(deps, card, parse(transfersSchema, ctx.request.body, 'body'), {
      source: channelOf(ctx),
      actor: ctx.state.actor,
    });
  });
  router.post('/v1/vouchers/:code/balance', async (ctx) => {
    const body = parse(voucherBalanceSchema, ctx.request.body, 'body');
    // The reference records a change made here with source "API" unless a channel is named.
    ctx.body = await changeBalanceAnswer(
      deps,
      { ...body, code: ctx.params.code as string, source: channelOf(ctx) ?? 'API', actor: ctx.state.actor },
      'amount',
    );
  });

  router.get('/v1/loyalties/members/:memberId/transactions', async (ctx) => {
    ctx.body = await listCardTransactions(deps, { code: ctx.params.memberId as string }, transactionsQuery(ctx));
  });
  router.get('/v1/loyalties/:campaignId/members/:memberId/transactions', async (ctx) => {
    const card = { code: ctx.params.memberId as string, campaign: ctx.params.campaignId as string };
    ctx.body = await listCardTransactions(deps, card, transactionsQuery(ctx));
  });
  router.get('/v1/vouchers/:code/transactions', async (ctx) => {
    ctx.body = await listCardTransactions(deps, { code: ctx.params.code as string }, transactionsQuery(ctx));
  });
  const exportOf = (ctx: AppContext, card: { code: string; campaign?: string }) =>
    exportCardTransactions(deps, card, ctx.request.body, ctx.state.actor, serverOrigin(ctx));
  router.post('/v1/vouchers/:code/transactions/export', async (ctx) => {
    ctx.body = await exportOf(ctx, { code: ctx.params.code as string });
  });
  router.post('/v1/loyalties/members/:memberId/transactions/export', async (ctx) => {
    ctx.body = await exportOf(ctx, { code: ctx.params.memberId as string });
  });
  router.post('/v1/loyalties/:campaignId/members/:memberId/transactions/export', async (ctx) => {
    ctx.body = await exportOf(ctx, { code: ctx.params.memberId as string, campaign: ctx.params.campaignId as string });
  });
  router.get('/v1/loyalties/:campaignId/members/:memberId/points-expiration', async (ctx) => {
    const card = { code: ctx.params.memberId as string, campaign: ctx.params.campaignId as string };
    ctx.body = await listPointsExpiration(deps, card, parse(bucketsQuerySchema, ctx.query, 'query'));
  });
};
