import { object } from 'yup';
import { parseIsoDate } from '../../../lib/dates.js';
import { wholeNumber } from '../../../lib/fields.js';
import { isoDate } from '../../../lib/validity-fields.js';
import type { VoucherKind } from './kind.types.js';

const COLUMNS = [
  'loyalty_points',
  'loyalty_balance',
  'loyalty_next_expiration_date',
  'loyalty_next_expiration_points',
  'loyalty_pending_points',
  'loyalty_expired_points',
  'loyalty_subtracted_points',
] as const;

const nonNegative = () => wholeNumber().min(0);

/** An imported card's balance: as given, else what its points leave after expiry and subtraction. */
const balanceOf = (card: {
  points: number;
  balance?: number;
  expired_points?: number;
  subtracted_points?: number;
}): number => card.balance ?? card.points - (card.expired_points ?? 0) - (card.subtracted_points ?? 0);

const importBlock = () =>
  object({
    points: nonNegative().required(),
    balance: nonNegative(),
    next_expiration_date: isoDate(),
    next_expiration_points: nonNegative(),
    pending_points: nonNegative(),
    expired_points: nonNegative(),
    subtracted_points: nonNegative(),
  })
    .noUnknown()
    .optional()
    .default(undefined);

const isNumberOrAbsent = (value: unknown): boolean => value === undefined || typeof value === 'number';

/** LOYALTY_CARD: its points, balance, pending, expired and subtracted points, and the next expiry. */
export const loyaltyCardKind = {
  type: 'LOYALTY_CARD',
  block: 'loyalty_card',
  columns: COLUMNS,
  fromTemplate: ({ loyalty_card: card }) => ({
    loyalty_points: card ? card.points : null,
    loyalty_balance: card ? card.points : null,
    loyalty_next_expiration_date: null,
    loyalty_next_expiration_points: card ? 0 : null,
    loyalty_pending_points: card ? 0 : null,
    loyalty_expired_points: card ? 0 : null,
    loyalty_subtracted_points: card ? 0 : null,
  }),
  importSchema: importBlock,
  onItemOfKind: (schema) =>
    schema
      .required()
      .test('balance', '${path}.balance cannot be negative (points - expired_points - subtracted_points)', (card) => {
        // Only a card whose numbers passed their own checks has a balance to check.
        if (
          !card ||
          typeof card.points !== 'number' ||
          ![card.balance, card.expired_points, card.subtracted_points].every(isNumberOrAbsent)
        )
          return true;
        return balanceOf(card) >= 0;
      }),
  fromImport: (card, fromTemplate) => {
    if (!card) return fromTemplate;
    const next = card.next_expiration_date ? parseIsoDate(card.next_expiration_date) : null;
    return {
      loyalty_points: card.points,
      loyalty_balance: balanceOf(card),
      loyalty_next_expiration_date: next ? next.slice(0, 10) : null,
      loyalty_next_expiration_points: card.next_expiration_points ?? 0,
      loyalty_pending_points: card.pending_points ?? 0,
      loyalty_expired_points: card.expired_points ?? 0,
      loyalty_subtracted_points: card.subtracted_points ?? 0,
    };
  },
  present: (row) => ({
    points: row.loyalty_points ?? 0,
    balance: row.loyalty_balance ?? 0,
    // No points to expire leaves both out, as the reference's recorded cards show it (never 0 points on no date).
    ...(row.loyalty_next_expiration_date === null
      ? {}
      : {
          next_expiration_date: row.loyalty_next_expiration_date,
          next_expiration_points: row.loyalty_next_expiration_points ?? 0,
        }),
    pending_points: row.loyalty_pending_points ?? 0,
    expired_points: row.loyalty_expired_points ?? 0,
    subtracted_points: row.loyalty_subtracted_points ?? 0,
  }),
} as const satisfies VoucherKind<(typeof COLUMNS)[number], ReturnType<typeof importBlock>>;
