import type { BulkStatement, DatabaseEngine, Db, Tx } from '../../db/engine.js';
import { KIND_COLUMNS } from './kinds/kinds.rules.js';
import type { VoucherInsertRow } from './voucher-draft.rules.js';

/** Every insertable column, in the order the bulk statement binds them; each voucher kind names its own (kinds/). */
const COLUMNS: ReadonlyArray<keyof VoucherInsertRow> = [
  'id',
  'code',
  'campaign_id',
  'category_id',
  'type',
  ...KIND_COLUMNS,
  'start_date',
  'expiration_date',
  'validity_timeframe',
  'validity_day_of_week',
  'validity_hours',
  'active',
  'additional_info',
  'metadata',
  'is_referral_code',
  'holder_id',
  'referrer_id',
  'redemption_quantity',
  'redeemed_quantity',
  'redeemed_points',
  'publish_count',
  'created_at',
  'updated_at',
];

/** Column defaults of sql/0004_campaigns.sql: the bulk writer leaves these to the database. */
const COLUMN_DEFAULTS: Partial<Record<keyof VoucherInsertRow, unknown>> = {
  active: 1,
  metadata: '{}',
  is_referral_code: 0,
  redeemed_quantity: 0,
  redeemed_points: 0,
  publish_count: 0,
};

const statements = new WeakMap<DatabaseEngine, Map<string, BulkStatement>>();

/** The INSERT ... ON CONFLICT (code) DO NOTHING for these columns, built by Kysely, prepared once per connection. */
function insertStatement(
  db: Db,
  engine: DatabaseEngine,
  columns: ReadonlyArray<keyof VoucherInsertRow>,
): BulkStatement {
  let byColumns = statements.get(engine);
  if (!byColumns) statements.set(engine, (byColumns = new Map()));
  const key = columns.join(',');
  let statement = byColumns.get(key);
  if (!statement) {
    const sample = Object.fromEntries(columns.map((c) => [c, null])) as unknown as VoucherInsertRow;
    statement = engine.prepareBulk(
      db
        .insertInto('vouchers')
        .values(sample)
        .onConflict((oc) => oc.column('code').doNothing())
        .compile(),
    );
    byColumns.set(key, statement);
  }
  return statement;
}

export interface VoucherInserter {
  /** Inserts one row; false when its code is taken. */
  insert(row: VoucherInsertRow): Promise<boolean>;
  /**
   * A writer for many rows that share everything but id and code: inserts each [id, code] in
   * order, answering per row whether it went in (false: its code is taken).
   */
  forDraft(draft: Omit<VoucherInsertRow, 'id' | 'code'>): (rows: ReadonlyArray<[string, string]>) => Promise<boolean[]>;
}

/**
 * Bulk insert for generation and import, through the engine's bulk statement inside the
 * caller's transaction (SQLite: a statement prepared on its connection, run per row; PostgreSQL:
 * multi-row INSERTs): going through Kysely for each of a million rows would cost more than the
 * insert itself, so Kysely builds the SQL once. The bulk writer binds only the draft's columns
 * that differ from the table's defaults: binding costs per parameter.
 */
export function voucherInserter(trx: Tx, engine: DatabaseEngine): VoucherInserter {
  return {
    async insert(row) {
      const [inserted] = await insertStatement(trx, engine, COLUMNS).run(trx, [COLUMNS.map((c) => row[c])]);
      return inserted === true;
    },
    forDraft(draft) {
      const shared = COLUMNS.filter(
        (c) =>
          c !== 'id' && c !== 'code' && draft[c] !== null && draft[c] !== undefined && draft[c] !== COLUMN_DEFAULTS[c],
      );
      const columns: Array<keyof VoucherInsertRow> = ['id', 'code', ...shared];
      const statement = insertStatement(trx, engine, columns);
      const values = shared.map((c) => draft[c as keyof typeof draft]);
      return (rows) =>
        statement.run(
          trx,
          rows.map(([id, code]) => [id, code, ...values]),
        );
    },
  };
}

/** One voucher; false when the code is taken. */
export async function insertVoucher(db: Db, row: VoucherInsertRow): Promise<boolean> {
  const result = await db
    .insertInto('vouchers')
    .values(row)
    .onConflict((oc) => oc.column('code').doNothing())
    .executeTakeFirst();
  return result.numInsertedOrUpdatedRows === 1n;
}
