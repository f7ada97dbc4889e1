import { lazy, type AnySchema, type InferType, type ISchema } from 'yup';
import type { VoucherType } from '../../../lib/enums.js';
import type { StoredTemplate } from '../../campaigns/index.js';
import type { VoucherTable } from '../vouchers.table.js';
import { discountKind } from './discount.rules.js';
import { giftKind } from './gift.rules.js';
import type { VoucherKind } from './kind.types.js';
import { loyaltyCardKind } from './loyalty-card.rules.js';

/**
 * The voucher kinds, each in its own file (kind.types.ts says what one owns). This registry is what
 * the rest of the module calls: drafts, import, presentation and the bulk insert's columns.
 */
const BY_TYPE = { DISCOUNT_VOUCHER: discountKind, GIFT_VOUCHER: giftKind, LOYALTY_CARD: loyaltyCardKind } as const;

/** Every column a kind owns, in the kinds' order (discount, gift, loyalty card). */
export const KIND_COLUMNS = [...discountKind.columns, ...giftKind.columns, ...loyaltyCardKind.columns];
export type KindColumn = (typeof KIND_COLUMNS)[number];
export type KindColumns = Pick<VoucherTable, KindColumn>;

const NO_KIND_COLUMNS = Object.fromEntries(KIND_COLUMNS.map((column) => [column, null])) as { [C in KindColumn]: null };

/** A new voucher's kind columns from its campaign's template: its kind's, the others null. */
export const kindColumnsFromTemplate = (template: StoredTemplate): KindColumns => ({
  ...NO_KIND_COLUMNS,
  ...BY_TYPE[template.type].fromTemplate(template),
});

/** An import item's kind blocks as each kind reads them (vouchers.schemas.ts checks them; it imports this file, so not the reverse). */
type ImportKindBlocks = {
  discount?: Parameters<typeof discountKind.fromImport>[0];
  gift?: Parameters<typeof giftKind.fromImport>[0];
  loyalty_card?: Parameters<typeof loyaltyCardKind.fromImport>[0];
};

/** An imported voucher's kind columns: its kind's block of the (checked) item over the template's. */
export function kindColumnsFromImport(
  item: ImportKindBlocks,
  type: VoucherType,
  fromTemplate: KindColumns,
): KindColumns {
  const own = {
    DISCOUNT_VOUCHER: () => discountKind.fromImport(item.discount, fromTemplate),
    GIFT_VOUCHER: () => giftKind.fromImport(item.gift, fromTemplate),
    LOYALTY_CARD: () => loyaltyCardKind.fromImport(item.loyalty_card, fromTemplate),
  }[type];
  return { ...fromTemplate, ...own() };
}

/** Each kind's block of the answer: filled on vouchers of its kind, null on the others. */
export const presentKindBlocks = (row: KindColumns & { type: VoucherType }) => ({
  discount: row.type === discountKind.type ? discountKind.present(row) : null,
  gift: row.type === giftKind.type ? giftKind.present(row) : null,
  loyalty_card: row.type === loyaltyCardKind.type ? loyaltyCardKind.present(row) : null,
});

/**
 * The import item's kind blocks (`discount`, `gift`, `loyalty_card`): each checked for its
 * shape when given, and for what its kind demands when the item is of that kind (its
 * `type`, else the campaign's).
 */
export function kindImportFields(campaignType: VoucherType) {
  // lazy, not when(): a kind's block may itself be lazy (a discount is told apart by its type).
  const field = <C extends KindColumn, S extends AnySchema>(kind: VoucherKind<C, S>) => {
    const shape = kind.importSchema();
    const ofKind = kind.onItemOfKind(shape);
    const isOfKind = (item: { type?: unknown } | undefined): boolean => (item?.type ?? campaignType) === kind.type;
    return lazy((_block, { parent }): ISchema<InferType<S>> => (isOfKind(parent) ? ofKind : shape));
  };
  return { discount: field(discountKind), gift: field(giftKind), loyalty_card: field(loyaltyCardKind) };
}
