import { fieldOf } from '../../../jobs/item-savepoints.js';
import { rowImportStep, type CsvImportPayload } from '../../../jobs/row-import.js';
import { invalidPayload } from '../../../lib/errors.js';
import { parse } from '../../../lib/validate.js';
import { productFromCsv, skuFromCsv } from './catalog-csv.rules.js';
import { createProductSchema } from '../products/products.schemas.js';
import { upsertProduct } from '../products/products.service.js';
import { createSkuSchema } from '../skus/skus.schemas.js';
import { upsertSku } from '../skus/skus.service.js';

type Row = Record<string, string>;

/** The reference's required columns of a row, as the one failure reason that names them all. */
function requireColumns(body: Record<string, unknown>, names: string[]): void {
  const missing = names.filter((name) => fieldOf(name)(body) === null);
  if (missing.length > 0) throw invalidPayload(missing.map((name) => `${name} is a required field`).join(', '));
}

/**
 * PRODUCTS.IMPORT_CSV: each row becomes the body of POST /v1/products and is stored the same
 * way: a row whose source_id exists updates that product, any other creates one.
 */
export const importProductsCsvStep = rowImportStep<CsvImportPayload>({
  noun: 'product',
  keyOf: (row) => fieldOf('source_id')(productFromCsv(row as Row)),
  async store(ctx, _job, row) {
    const body = productFromCsv(row as Row);
    requireColumns(body, ['name']);
    await upsertProduct(ctx.trx, parse(createProductSchema, body, 'item'), ctx.now);
  },
});

/**
 * SKUS.IMPORT_CSV: each row becomes the body of POST /v1/products/{product_id}/skus: a row
 * whose source_id is a SKU of that product updates it, any other creates one.
 */
export const importSkusCsvStep = rowImportStep<CsvImportPayload>({
  noun: 'sku',
  keyOf: (row) => fieldOf('source_id')(skuFromCsv(row as Row)),
  async store(ctx, _job, row) {
    const { product_id: productId, ...body } = skuFromCsv(row as Row);
    requireColumns({ product_id: productId, ...body }, ['product_id', 'source_id']);
    await upsertSku(ctx.trx, productId as string, parse(createSkuSchema, body, 'item'), ctx.now);
  },
});
