import type { Generated } from 'kysely';
import type { ExportStatus } from '../../lib/enums.js';

/** sql/0021_exports.sql: the export objects, with their job's resumable state. */
export interface ExportTable {
  seq: Generated<number>;
  id: string;
  exported_object: string;
  /** JSON: `parameters` as answered. */
  parameters: string;
  channel: string;
  status: ExportStatus;
  async_action_id: string;
  /** JSON `[order value, seq]` of the last row written, or null before the first. */
  last_key: string | null;
  bytes: Generated<number>;
  rows: Generated<number>;
  created_at: string;
  updated_at: string | null;
}

export interface ExportsTables {
  exports: ExportTable;
}
