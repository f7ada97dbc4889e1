import type { AnySchema, InferType, ISchema } from 'yup';
import type { VoucherBlock, VoucherType } from '../../../lib/enums.js';
import type { StoredTemplate } from '../../campaigns/index.js';
import type { VoucherTable } from '../vouchers.table.js';

/**
 * One voucher kind (discount voucher, gift card, loyalty card): everything of a voucher that
 * belongs to its type alone, in one place. A kind owns some columns of the vouchers table
 * (null on vouchers of other kinds), fills them from the campaign's template and from an
 * import item, and answers them as its block of the voucher (`discount`, `gift`,
 * `loyalty_card`; null on other kinds). A kind's ledger (gift credits, loyalty points) joins
 * its file: the balance column it caches is one of its columns.
 */
export interface VoucherKind<C extends keyof VoucherTable, S extends AnySchema = AnySchema> {
  readonly type: VoucherType;
  readonly block: VoucherBlock;
  /** The columns this kind owns, in the order the bulk insert binds them. */
  readonly columns: readonly C[];
  /** A new voucher's columns of this kind, from the campaign's template. */
  fromTemplate(template: StoredTemplate): Pick<VoucherTable, C>;
  /** The shape of an import item's block (`item[block]`), checked with the rest of the item. */
  importSchema(): S;
  /** What an import item of this kind demands of its block beyond its shape (present, consistent). */
  onItemOfKind(schema: S): ISchema<InferType<S>>;
  /** An imported voucher's columns: the item's block (checked) over what the template gives. */
  fromImport(block: InferType<S> | undefined, fromTemplate: Pick<VoucherTable, C>): Pick<VoucherTable, C>;
  /** The voucher's block as answered (for a voucher of this kind). */
  present(row: Pick<VoucherTable, C>): unknown;
}
