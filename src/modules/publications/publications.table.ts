import type { Generated } from 'kysely';
import type { PublicationResult, VoucherType } from '../../lib/enums.js';

/** A publication attempt (sql/0022_publications.sql). */
export interface PublicationTable {
  seq: Generated<number>;
  id: string;
  created_at: string;
  customer_id: string;
  /** The customer's source_id when it was made; cleared by permanent deletion. */
  tracking_id: string | null;
  /** JSON object. */
  metadata: string;
  channel: string;
  source_id: string | null;
  result: PublicationResult;
  failure_code: string | null;
  failure_message: string | null;
  voucher_id: string | null;
  voucher_code: string | null;
  campaign_id: string | null;
  campaign_name: string | null;
  voucher_type: VoucherType | null;
  is_referral_code: number;
  /** JSON object: the list's `voucher`, as it was given. */
  voucher_snapshot: string | null;
  /** JSON array of {id, code}: every voucher of a publication of several (sql/0027), else null. */
  vouchers: Generated<string | null>;
}

/** The number of publications per result, kept by triggers. */
export interface PublicationCountsTable {
  result: PublicationResult;
  total: number;
}

/** Every voucher a publication gave, one row each (sql/0030, kept by a trigger): the list's `voucher` filter walks it. */
export interface PublicationVoucherTable {
  voucher_code: string;
  created_at: string;
  publication_seq: number;
}

export interface PublicationsTables {
  publications: PublicationTable;
  publication_counts: PublicationCountsTable;
  publication_vouchers: PublicationVoucherTable;
}
