import type { RouteModule } from '../../http/context.js';
import { validateBody, validateQuery } from '../../lib/validate.js';
import { importVouchers } from './voucher-import.service.js';
import { addVouchers } from './voucher-generation.service.js';
import { addVouchersQuerySchema, addVouchersSchema, updateVoucherSchema, vouchersListQuerySchema } from './vouchers.schemas.js';
import { deleteVoucher, getVoucher, listVouchers, updateVoucher } from './vouchers.service.js';

export const vouchersRoutes: RouteModule = (router, deps) => {
  router.post('/v1/campaigns/:campaignId/vouchers', async (ctx) => {
    const count = validateQuery(addVouchersQuerySchema, ctx.query).vouchers_count;
    const body = validateBody(addVouchersSchema, ctx.request.body ?? {});
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
    ctx.body = await listVouchers(deps, validateQuery(vouchersListQuerySchema, ctx.query));
  });

  router.get('/v1/vouchers/:code', async (ctx) => {
    ctx.body = await getVoucher(deps, ctx.params.code as string);
  });

  router.put('/v1/vouchers/:code', async (ctx) => {
    const body = validateBody(updateVoucherSchema, ctx.request.body);
    ctx.body = await updateVoucher(deps, ctx.params.code as string, body);
  });

  router.delete('/v1/vouchers/:code', async (ctx) => {
    await deleteVoucher(deps, ctx.params.code as string);
    ctx.status = 204;
  });
};
