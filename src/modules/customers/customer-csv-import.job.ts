import { fieldOf } from '../../jobs/item-savepoints.js';
import { rowImportStep, type CsvImportPayload } from '../../jobs/row-import.js';
import { parse } from '../../lib/validate.js';
import { customerFromCsv } from './customer-csv.rules.js';
import { createCustomerSchema } from './customers.schemas.js';
import { upsertCustomerId } from './customers.service.js';

/**
 * CUSTOMERS.IMPORT_CSV: each row becomes the body of POST /v1/customers, checked by its schema
 * and upserted by `id`, else `source_id` (a row naming an existing customer updates it). As
 * order imports, the import writes no customer events.
 */
export const importCustomersCsvStep = rowImportStep<CsvImportPayload>({
  noun: 'customer',
  keyOf: (record) => fieldOf('source_id')(customerFromCsv(record as Record<string, string>)),
  async store(ctx, job, record) {
    const body = parse(createCustomerSchema, customerFromCsv(record as Record<string, string>), 'item');
    await upsertCustomerId(
      ctx.trx,
      { actor: job.payload.actor, at: ctx.now, emitEvents: false, seams: ctx.seams },
      body,
    );
  },
});
