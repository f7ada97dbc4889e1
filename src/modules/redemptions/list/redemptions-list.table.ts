import type { RedemptionObjectName, RedemptionResult } from '../../../lib/enums.js';

/** The number of redemption records per object and result, kept by triggers (sql/0018_redemption_list.sql). */
export interface RedemptionCountsTable {
  object: RedemptionObjectName;
  result: RedemptionResult;
  total: number;
}

export interface RedemptionListTables {
  redemption_counts: RedemptionCountsTable;
}
