import { object, string } from 'yup';
import { wholeNumber } from '../../../lib/fields.js';
import type { VoucherKind } from './kind.types.js';

const COLUMNS = ['gift_amount', 'gift_subtracted_amount', 'gift_balance', 'gift_effect'] as const;

const nonNegative = () => wholeNumber().min(0);

const importBlock = () =>
  object({
    amount: nonNegative().required(),
    balance: nonNegative().required(),
    subtracted_amount: nonNegative(),
    effect: string().oneOf(['APPLY_TO_ORDER', 'APPLY_TO_ITEMS']),
  })
    .noUnknown()
    .optional()
    .default(undefined);

/** GIFT_VOUCHER: its credits (amount, what was subtracted, the balance left) and its effect. */
export const giftKind = {
  type: 'GIFT_VOUCHER',
  block: 'gift',
  columns: COLUMNS,
  fromTemplate: ({ gift }) => ({
    gift_amount: gift ? gift.amount : null,
    gift_subtracted_amount: gift ? 0 : null,
    gift_balance: gift ? gift.amount : null,
    gift_effect: gift ? (gift.effect ?? null) : null,
  }),
  importSchema: importBlock,
  onItemOfKind: (schema) => schema.required(),
  fromImport: (gift, fromTemplate) =>
    gift
      ? {
          gift_amount: gift.amount,
          gift_balance: gift.balance,
          gift_subtracted_amount: gift.subtracted_amount ?? 0,
          gift_effect: gift.effect ?? fromTemplate.gift_effect,
        }
      : fromTemplate,
  present: (row) => ({
    amount: row.gift_amount ?? 0,
    subtracted_amount: row.gift_subtracted_amount ?? 0,
    balance: row.gift_balance ?? 0,
    effect: row.gift_effect,
  }),
} as const satisfies VoucherKind<(typeof COLUMNS)[number], ReturnType<typeof importBlock>>;
