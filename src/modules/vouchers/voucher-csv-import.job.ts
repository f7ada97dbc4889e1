import { JobFailure } from '../../jobs/job-step.js';
import { rowImportStep, type CsvImportPayload } from '../../jobs/row-import.js';
import { AppError, invalidPayload } from '../../lib/errors.js';
import { parse } from '../../lib/validate.js';
import { templateOf, addToVouchersCount, findLiveCampaign } from '../campaigns/index.js';
import { insertStandaloneVoucher } from './standalone-vouchers.service.js';
import { codeOfCsv, voucherFromCsv } from './voucher-csv.rules.js';
import { timeOrderedIds } from '../../lib/ids.js';
import { rowForItem } from './voucher-import.job.js';
import { createVoucherSchema } from './vouchers.schemas.js';
import { voucherInserter } from './voucher-inserts.repository.js';

type Row = Record<string, string>;

const requireCode = (body: Record<string, unknown>): void => {
  if (typeof body.code !== 'string' || body.code === '') throw invalidPayload('code is a required field');
};

/**
 * VOUCHERS.IMPORT_CSV: each row becomes the body of POST /v1/vouchers (a voucher outside any
 * campaign, with the row's code) and is created the same way. A code that exists fails its row.
 */
export const importVouchersCsvStep = rowImportStep<CsvImportPayload>({
  noun: 'voucher',
  keyOf: (row) => codeOfCsv(row as Row),
  async store(ctx, _job, row) {
    const body = voucherFromCsv(row as Row);
    requireCode(body);
    await insertStandaloneVoucher(ctx.trx, parse(createVoucherSchema, body, 'item'), ctx.now);
  },
});

/**
 * CAMPAIGN.VOUCHERS_IMPORT_CSV: each row becomes an item of POST /v1/campaigns/{id}/import
 * (the campaign's type; a Value without a Discount Type has the campaign's) and is imported as
 * CAMPAIGN.VOUCHERS_IMPORT imports it. The job fails if the campaign is deleted meanwhile.
 */
export const importCampaignVouchersCsvStep = rowImportStep({
  noun: 'voucher',
  keyOf: (row) => codeOfCsv(row as Row),
  async open(ctx, job: { payload: CsvImportPayload }) {
    const campaign = await findLiveCampaign(ctx.trx, job.payload.campaign_id as string);
    const template = campaign && templateOf(campaign);
    if (!campaign || !template)
      throw new JobFailure(`Campaign ${job.payload.campaign_name} was deleted during the import.`);
    return {
      campaign,
      template,
      insert: voucherInserter(ctx.trx, ctx.engine),
      nextId: timeOrderedIds('v_', Date.parse(ctx.now)),
    };
  },
  async store(ctx, _job, row, { campaign, template, insert, nextId }) {
    const discountType = template.discount?.type;
    const body = voucherFromCsv(row as Row, {
      campaignType: template.type,
      campaignDiscountType: typeof discountType === 'string' ? discountType : undefined,
      giftBalance: true,
    });
    requireCode(body);
    const voucher = await rowForItem(ctx.trx, campaign, template, body, ctx.now, nextId());
    if (!(await insert.insert(voucher)))
      throw new AppError('duplicate_found', `Voucher with code ${voucher.code} already exists`);
  },
  async close(ctx, { campaign }, done) {
    await addToVouchersCount(ctx.trx, campaign.id, done);
  },
});
