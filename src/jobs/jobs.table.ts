import type { Generated } from 'kysely';
import type { JobStatus, OperationStatus } from '../lib/enums.js';

export type { JobStatus, OperationStatus };

export interface AsyncActionTable {
  seq: Generated<number>;
  id: string;
  type: string;
  status: JobStatus;
  operation_status: OperationStatus | null;
  request_id: string | null;
  /** JSON: the job's input. */
  payload: string;
  total: number;
  cursor: number;
  done_count: number;
  failed_count: number;
  /** JSON, set when the job ends. */
  result: string | null;
  sealed: number;
  lease_owner: string | null;
  /** Milliseconds since the epoch. */
  lease_expires_at: number | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** When an operator asked to cancel it (sql/0007); the lease holder ends it. */
  canceled_at: Generated<string | null>;
}

export interface AsyncActionItemTable {
  action_id: string;
  position: number;
  body: string;
}

export interface AsyncActionFailureTable {
  action_id: string;
  position: number;
  key: string | null;
  reason: string;
  /** The catalogue key of the error that refused the item (bulk updates; sql/0024), else null. */
  error_key: string | null;
}

export interface JobsTables {
  async_actions: AsyncActionTable;
  async_action_items: AsyncActionItemTable;
  async_action_failures: AsyncActionFailureTable;
}
