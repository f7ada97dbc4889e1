import type { AppRouter } from '../../../http/context.js';
import type { Deps } from '../../../app/deps.js';
import { withUploadedFile } from '../../../http/upload.js';
import { csvRecords } from '../../../jobs/item-reader.js';
import { importProductsCsv, importSkusCsv } from './catalog-csv-import.service.js';

/** Products and SKUs CSV imports: a PRODUCTS.IMPORT_CSV or SKUS.IMPORT_CSV job fed from the upload as it streams in (200, as the reference). */
export function catalogCsvRoutes(router: AppRouter, deps: Deps): void {
  router.post('/v1/products/importCSV', async (ctx) => {
    ctx.body = await withUploadedFile(ctx, (file) =>
      importProductsCsv(deps, csvRecords(file, 'products'), ctx.state.actor),
    );
  });
  router.post('/v1/skus/importCSV', async (ctx) => {
    ctx.body = await withUploadedFile(ctx, (file) => importSkusCsv(deps, csvRecords(file, 'skus'), ctx.state.actor));
  });
}
