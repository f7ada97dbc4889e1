import type { Tx } from '../../db/engine.js';
import { checkValidity, validityColumns } from '../../engine/validity/index.js';
import type { VoucherType } from '../../lib/enums.js';
import { fieldOf, itemRefusal } from '../../jobs/item-savepoints.js';
import { parse } from '../../lib/validate.js';
import {
  templateOf,
  type StoredTemplate,
  addToVouchersCount,
  findLiveCampaign,
  type CampaignRow,
} from '../campaigns/index.js';
import { resolveCategoryId } from '../categories/index.js';
import { JobFailure, type ItemFailure, type JobStep } from '../../jobs/job-step.js';
import { itemPortion } from '../../jobs/portions.service.js';
import { kindColumnsFromImport } from './kinds/kinds.rules.js';
import { draftFromCampaign, rowFromDraft } from './voucher-draft.rules.js';
import type { ImportPayload } from './voucher-import.service.js';
import { timeOrderedIds } from '../../lib/ids.js';
import { importItemSchema, importItemTypeSchema } from './vouchers.schemas.js';
import { voucherInserter } from './voucher-inserts.repository.js';

/** One item schema per voucher type, built once per worker thread. */
const itemSchemas = new Map<VoucherType, ReturnType<typeof importItemSchema>>();
function itemSchemaFor(type: VoucherType): ReturnType<typeof importItemSchema> {
  let schema = itemSchemas.get(type);
  if (!schema) itemSchemas.set(type, (schema = importItemSchema(type)));
  return schema;
}

/**
 * The voucher row for one import item: checked on the one validation path (every problem at once),
 * then the campaign's draft with the item's fields. An item's type is the campaign's (the
 * schema refuses another), so its kind fills the kind's columns.
 */
export async function rowForItem(
  trx: Tx,
  campaign: CampaignRow,
  template: StoredTemplate,
  body: unknown,
  now: string,
  id: string,
) {
  parse(importItemTypeSchema(template.type), body, 'item');
  const item = parse(itemSchemaFor(template.type), body, 'item');
  const draft = draftFromCampaign(campaign, template);
  Object.assign(draft, kindColumnsFromImport(item, template.type, draft));
  if (item.redemption?.quantity !== undefined) draft.redemption_quantity = item.redemption.quantity;
  if (item.active !== undefined) draft.active = item.active ? 1 : 0;
  if (item.metadata !== undefined) draft.metadata = JSON.stringify(item.metadata);
  if (item.additional_info !== undefined) draft.additional_info = item.additional_info;
  Object.assign(draft, validityColumns(item));
  checkValidity(draft);
  const categoryId = await resolveCategoryId(trx, { category: item.category }, now);
  if (categoryId !== undefined) draft.category_id = categoryId;
  return rowFromDraft(draft, id, item.code, now);
}

const codeOf = fieldOf('code');

/**
 * CAMPAIGN.VOUCHERS_IMPORT: each portion reads the next stored items, imports the good ones
 * and records why each bad one failed (a bad field, a code already taken). The cursor is the
 * position of the next item; processed items are dropped in the same transaction.
 */
export const importVouchersStep: JobStep<ImportPayload> = {
  async run(ctx, job, maxItems) {
    const campaign = await findLiveCampaign(ctx.trx, job.payload.campaign_id);
    const template = campaign && templateOf(campaign);
    if (!campaign || !template)
      throw new JobFailure(`Campaign ${job.payload.campaign_name} was deleted during the import.`);
    const insert = voucherInserter(ctx.trx, ctx.engine);
    const nextId = timeOrderedIds('v_', Date.parse(ctx.now));
    const outcome = await itemPortion(ctx, job, maxItems, async (items) => {
      const failures: ItemFailure[] = [];
      for (const item of items) {
        const body: unknown = JSON.parse(item.body);
        try {
          const row = await rowForItem(ctx.trx, campaign, template, body, ctx.now, nextId());
          if (!(await insert.insert(row)))
            failures.push({
              position: item.position,
              key: row.code,
              reason: `Voucher with code ${row.code} already exists`,
            });
        } catch (error) {
          failures.push({ position: item.position, key: codeOf(body), ...itemRefusal(error) });
        }
      }
      return failures;
    });
    await addToVouchersCount(ctx.trx, campaign.id, outcome.done);
    return outcome;
  },

  // The runner adds `failed` (the first failures, under the registry's failureKey `code`) and the report's URL.
  async finish(_ctx, job) {
    return {
      message: `${job.done_count} voucher(s) imported successfully, ${job.failed_count} failed.`,
      done_count: job.done_count,
      failed_count: job.failed_count,
    };
  },
};
