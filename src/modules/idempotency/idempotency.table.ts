/** sql/0019_idempotency_keys.sql */
export interface IdempotencyKeyTable {
  credential: string;
  key: string;
  request_hash: string;
  status: number | null;
  body: string | null;
  created_at: string;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeyTable;
}
