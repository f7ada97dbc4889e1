import type { AppRouter } from '../../http/context.js';
import type { Deps } from '../../app/deps.js';
import { withUploadedFile } from '../../http/upload.js';
import { csvRecords } from '../../jobs/item-reader.js';
import { campaignCsvImport, importVouchersCsv } from './voucher-csv-import.service.js';

/**
 * Vouchers CSV imports, fed from the upload as it streams in: standalone vouchers (202, as the
 * reference) and a campaign's (200). Registered before POST /v1/vouchers/{code}.
 */
export function voucherCsvRoutes(router: AppRouter, deps: Deps): void {
  router.post('/v1/vouchers/importCSV', async (ctx) => {
    ctx.body = await withUploadedFile(ctx, (file) =>
      importVouchersCsv(deps, csvRecords(file, 'vouchers'), ctx.state.actor),
    );
    ctx.status = 202;
  });
  router.post('/v1/campaigns/:campaignId/importCSV', async (ctx) => {
    const stage = await campaignCsvImport(deps, ctx.params.campaignId as string, ctx.state.actor);
    ctx.body = await withUploadedFile(ctx, (file) => stage(csvRecords(file, 'vouchers')));
  });
}
