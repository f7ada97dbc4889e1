import { keptWhileUnchanged } from '../../http/kept-answers.js';
import type { RouteModule } from '../../http/context.js';
import { setFilterWindowHeader } from '../../http/filter-window-header.js';
import { parse } from '../../lib/validate.js';
import { createVoucher } from './standalone-vouchers.service.js';
import { importVouchers } from './voucher-import.service.js';
import { voucherCsvRoutes } from './voucher-csv.routes.js';
import { addVouchers } from './voucher-generation.service.js';
import {
  addVouchersBodySchema,
  addVouchersFields,
  addVouchersQuerySchema,
  addVouchersSchema,
  createVoucherSchema,
  voucherCodeSchema,
  parseVouchersListQuery,
  updateVoucherSchema,
} from './vouchers.schemas.js';
import { deleteVoucher, getVoucher, listVouchers, updateVoucher } from './vouchers.service.js';

export const vouchersRoutes: RouteModule = (router, deps) => {
  voucherCsvRoutes(router, deps);
  router.post('/v1/campaigns/:campaignId/vouchers', async (ctx) => {
    const count = parse(addVouchersQuerySchema, ctx.query, 'query').vouchers_count;
    const body = addVouchersFields(parse(addVouchersBodySchema, ctx.request.body, 'body'));
    const result = await addVouchers(deps, ctx.params.campaignId as string, { count, body, actor: ctx.state.actor });
    if ('voucher' in result) {
      ctx.body = result.voucher;
    } else {
      ctx.status = 202;
      ctx.body = result;
    }
  });

  // add-voucher-with-specific-code-to-campaign: the path's code, one voucher (409 when taken).
  router.post('/v1/campaigns/:campaignId/vouchers/:code', async (ctx) => {
    const body = parse(addVouchersSchema, ctx.request.body ?? {}, 'body');
    const { code } = parse(addVouchersSchema.pick(['code']), { code: ctx.params.code }, 'body');
    const result = await addVouchers(deps, ctx.params.campaignId as string, {
      count: 1,
      body: { ...body, code },
      actor: ctx.state.actor,
    });
    ctx.body = 'voucher' in result ? result.voucher : result;
  });

  router.post('/v1/campaigns/:campaignId/import', async (ctx) => {
    ctx.status = 202;
    ctx.body = await importVouchers(deps, ctx.params.campaignId as string, ctx.request.body, ctx.state.actor);
  });

  // generate-random-code and create-voucher: a voucher outside any campaign (or in the body's
  // campaign). The official SDK posts a code-less voucher to /v1/vouchers/ (trailing slash).
  router.post('/v1/vouchers', async (ctx) => {
    ctx.body = await createVoucher(deps, parse(createVoucherSchema, ctx.request.body ?? {}, 'body'), ctx.state.actor);
  });

  router.post('/v1/vouchers/:code', async (ctx) => {
    const body = parse(createVoucherSchema, ctx.request.body ?? {}, 'body');
    const { code } = parse(voucherCodeSchema, { code: ctx.params.code }, 'body');
    ctx.body = await createVoucher(deps, { ...body, code }, ctx.state.actor);
  });

  router.get('/v1/vouchers', async (ctx) => {
    const { list, window } = await listVouchers(deps, parseVouchersListQuery(ctx.query));
    setFilterWindowHeader(ctx, window);
    ctx.body = list;
  });

  router.get('/v1/vouchers/:code', keptWhileUnchanged(deps.engine), async (ctx) => {
    ctx.body = await getVoucher(deps, ctx.params.code as string);
  });

  router.put('/v1/vouchers/:code', async (ctx) => {
    const body = parse(updateVoucherSchema, ctx.request.body, 'body');
    ctx.body = await updateVoucher(deps, ctx.params.code as string, body);
  });

  // enable-voucher, disable-voucher: PUT's `active`, answered with the whole voucher.
  for (const [action, active] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    router.post(`/v1/vouchers/:code/${action}`, async (ctx) => {
      ctx.body = await updateVoucher(deps, ctx.params.code as string, { active });
    });
  }

  router.delete('/v1/vouchers/:code', async (ctx) => {
    await deleteVoucher(deps, ctx.params.code as string);
    ctx.status = 204;
  });
};
