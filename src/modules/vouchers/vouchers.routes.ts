import type { RouteModule } from '../../http/context.js';
import { invalidQueryParams } from '../../lib/errors.js';
import { parseLimit, parseOrder, parsePage, parseString, type Query } from '../../lib/pagination.js';
import { validateBody } from '../../lib/validate.js';
import { MAX_VOUCHERS_COUNT } from '../campaigns/campaigns.schemas.js';
import { importVouchers } from './voucher-import.service.js';
import { addVouchers } from './voucher-generation.service.js';
import { addVouchersSchema, updateVoucherSchema, VOUCHER_ORDER_FIELDS, type AddVouchersBody, type UpdateVoucherBody } from './vouchers.schemas.js';
import { deleteVoucher, getVoucher, listVouchers } from './vouchers.service.js';
import { updateVoucher } from './vouchers.service.js';

/** `vouchers_count`: 1 (the default) up to MAX_VOUCHERS_COUNT. */
export function parseVouchersCount(query: Query): number {
  const raw = parseString(query, 'vouchers_count');
  if (raw === undefined) return 1;
  const count = Number(raw);
  if (!/^\d+$/.test(raw) || count < 1 || count > MAX_VOUCHERS_COUNT) {
    throw invalidQueryParams(`Query parameter vouchers_count must be an integer from 1 to ${MAX_VOUCHERS_COUNT}`);
  }
  return count;
}

export const vouchersRoutes: RouteModule = (router, deps) => {
  router.post('/v1/campaigns/:campaignId/vouchers', async (ctx) => {
    const count = parseVouchersCount(ctx.query as Query);
    const body = validateBody(addVouchersSchema, ctx.request.body ?? {}) as AddVouchersBody;
    const result = await addVouchers(deps, ctx.params.campaignId as string, { count, body, actor: ctx.state.actor });
    if ('voucher' in result) {
      ctx.body = result.voucher;
    } else {
      ctx.status = 202;
      ctx.body = result;
    }
  });

  router.post('/v1/campaigns/:campaignId/import', async (ctx) => {
    ctx.status = 202;
    ctx.body = await importVouchers(deps, ctx.params.campaignId as string, ctx.request.body, ctx.state.actor);
  });

  router.get('/v1/vouchers', async (ctx) => {
    const query = ctx.query as Query;
    const campaign = parseString(query, 'campaign_id') ?? parseString(query, 'campaign');
    ctx.body = await listVouchers(deps, {
      limit: parseLimit(query),
      page: parsePage(query, 100),
      order: parseOrder(query, VOUCHER_ORDER_FIELDS) ?? { field: 'created_at', direction: 'desc' },
      campaign,
    });
  });

  router.get('/v1/vouchers/:code', async (ctx) => {
    ctx.body = await getVoucher(deps, ctx.params.code as string);
  });

  router.put('/v1/vouchers/:code', async (ctx) => {
    const body = validateBody(updateVoucherSchema, ctx.request.body) as UpdateVoucherBody;
    ctx.body = await updateVoucher(deps, ctx.params.code as string, body);
  });

  router.delete('/v1/vouchers/:code', async (ctx) => {
    await deleteVoucher(deps, ctx.params.code as string);
    ctx.status = 204;
  });
};
