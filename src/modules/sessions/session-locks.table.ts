/** Session locks and what they hold (sql/0020_session_locks.sql). */
export interface SessionLockTable {
  key: string;
  expires_at: string;
  /** A request on this key runs until then at most (multiple_requests); null when none runs. */
  busy_until: string | null;
  created_at: string;
  updated_at: string | null;
}

export type ReservationKind = 'QUANTITY' | 'CREDITS' | 'POINTS' | 'REWARD';

export interface SessionReservationTable {
  session_key: string;
  kind: ReservationKind;
  /** A voucher id (QUANTITY, CREDITS, POINTS) or a reward id (REWARD). */
  target_id: string;
  amount: number;
}

export interface SessionLocksTables {
  session_locks: SessionLockTable;
  session_reservations: SessionReservationTable;
}
