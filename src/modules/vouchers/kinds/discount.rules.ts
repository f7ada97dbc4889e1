import { discountSchema } from '../../campaigns/index.js';
import type { VoucherKind } from './kind.types.js';

const COLUMNS = ['discount'] as const;

/** DISCOUNT_VOUCHER: its discount (JSON), from the template, an import item or an update. */
export const discountKind = {
  type: 'DISCOUNT_VOUCHER',
  block: 'discount',
  columns: COLUMNS,
  fromTemplate: (template) => ({ discount: template.discount ? JSON.stringify(template.discount) : null }),
  importSchema: discountSchema,
  onItemOfKind: (schema) => schema,
  fromImport: (discount, fromTemplate) => (discount ? { discount: JSON.stringify(discount) } : fromTemplate),
  present: (row) => (row.discount === null ? null : (JSON.parse(row.discount) as Record<string, unknown>)),
} as const satisfies VoucherKind<(typeof COLUMNS)[number], ReturnType<typeof discountSchema>>;
