import { ValidationError } from 'yup';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { parseIsoDate } from '../../lib/dates.js';
import { AppError } from '../../lib/errors.js';
import { countCampaignVouchers, findLiveCampaign, type CampaignRow } from '../campaigns/campaign-lookup.service.js';
import { resolveCategoryId } from '../campaigns/categories.service.js';
import { checkValidity, validityColumns } from '../campaigns/validity.js';
import { JobFailure, type ItemFailure, type JobStep } from '../../jobs/job-step.js';
import { dropJobItems, readJobItems } from '../../jobs/portions.service.js';
import { draftFromCampaign, rowFromDraft, templateOf, type StoredTemplate, type VoucherDraft } from './voucher-draft.js';
import type { ImportPayload } from './voucher-import.service.js';
import { timeOrderedIds } from './voucher-ids.js';
import { importItemSchema, type ImportItem } from './vouchers.schemas.js';
import { voucherInserter } from './vouchers.repository.js';

class ItemRejected extends Error {}

function checkItem(body: unknown): ImportItem {
  try {
    return importItemSchema.validateSync(body, { strict: true, abortEarly: false }) as ImportItem;
  } catch (error) {
    if (error instanceof ValidationError) throw new ItemRejected(error.errors.join('; '));
    throw error;
  }
}

function applyCard(draft: VoucherDraft, card: NonNullable<ImportItem['loyalty_card']>): void {
  const expired = card.expired_points ?? 0;
  const subtracted = card.subtracted_points ?? 0;
  const balance = card.balance ?? card.points - expired - subtracted;
  if (balance < 0) throw new ItemRejected('loyalty_card.balance cannot be negative (points - expired_points - subtracted_points)');
  const next = card.next_expiration_date ? parseIsoDate(card.next_expiration_date) : null;
  Object.assign(draft, {
    loyalty_points: card.points,
    loyalty_balance: balance,
    loyalty_next_expiration_date: next ? next.slice(0, 10) : null,
    loyalty_next_expiration_points: card.next_expiration_points ?? 0,
    loyalty_pending_points: card.pending_points ?? 0,
    loyalty_expired_points: expired,
    loyalty_subtracted_points: subtracted,
  });
}

function applyKind(draft: VoucherDraft, item: ImportItem, template: StoredTemplate): void {
  const type = item.type ?? template.type;
  if (type !== template.type) throw new ItemRejected(`type ${type} does not match the campaign's ${template.type} vouchers`);
  if (type === 'LOYALTY_CARD') {
    if (!item.loyalty_card) throw new ItemRejected('loyalty_card is a required field');
    applyCard(draft, item.loyalty_card);
  } else if (type === 'GIFT_VOUCHER') {
    if (!item.gift) throw new ItemRejected('gift is a required field');
    const gift = item.gift;
    Object.assign(draft, { gift_amount: gift.amount, gift_balance: gift.balance, gift_subtracted_amount: gift.subtracted_amount ?? 0, gift_effect: gift.effect ?? draft.gift_effect });
  } else if (item.discount) {
    draft.discount = JSON.stringify(item.discount);
  }
}

/** The voucher row for one import item: the campaign's draft with the item's fields. */
async function rowForItem(trx: Kysely<Database>, campaign: CampaignRow, template: StoredTemplate, body: unknown, now: string, id: string) {
  const item = checkItem(body);
  const draft = draftFromCampaign(campaign, template);
  applyKind(draft, item, template);
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

const codeOf = (body: unknown): string | null => {
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : null;
};

const reasonOf = (error: unknown): string => {
  if (error instanceof ItemRejected) return error.message;
  if (error instanceof AppError) return error.details;
  // A row that breaks a CHECK (the statement alone is rolled back, not the portion).
  if (String((error as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT')) return (error as Error).message;
  throw error;
};

/**
 * CAMPAIGN.VOUCHERS_IMPORT: each portion reads the next stored items, imports the good ones
 * and records why each bad one failed (a bad field, a code already taken). The cursor is the
 * position of the next item; processed items are dropped in the same transaction.
 */
export const importVouchersStep: JobStep<ImportPayload> = {
  async run(ctx, job, maxItems) {
    const campaign = await findLiveCampaign(ctx.trx, job.payload.campaign_id);
    const template = campaign && templateOf(campaign);
    if (!campaign || !template) throw new JobFailure(`Campaign ${job.payload.campaign_name} was deleted during the import.`);
    const items = await readJobItems(ctx, job.id, job.cursor, maxItems);
    const insert = voucherInserter(ctx.trx, ctx.sqlite);
    const failures: ItemFailure[] = [];
    const nextId = timeOrderedIds(Date.parse(ctx.now));
    for (const item of items) {
      const body: unknown = JSON.parse(item.body);
      try {
        const row = await rowForItem(ctx.trx, campaign, template, body, ctx.now, nextId());
        if (!insert.insert(row)) failures.push({ position: item.position, key: row.code, reason: `Voucher with code ${row.code} already exists` });
      } catch (error) {
        failures.push({ position: item.position, key: codeOf(body), reason: reasonOf(error) });
      }
    }
    const cursor = items.length > 0 ? (items.at(-1)?.position ?? 0) + 1 : job.total;
    await dropJobItems(ctx, job.id, cursor);
    const done = items.length - failures.length;
    await countCampaignVouchers(ctx.trx, campaign.id, done);
    return { cursor, done, failed: failures.length, failures, finished: cursor >= job.total };
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
