/**
 * The one error type of the service and its closed catalogue of keys. Every failure that
 * reaches a client is an AppError built from a key of `errorCatalogue`, which fixes its status
 * and canonical message; only `details` (and the resource fields) vary. The error middleware
 * renders it as {code, key, message, details, request_id}; the CLI prints the same body.
 *
 * Keys follow the reference (voucherify-facts 2.9 and 2.10). Keys the reference does not
 * name (the command line's, the server's own) say what happened in the same style.
 */
const entry = (status: number, message: string) => ({ status, message });

export const errorCatalogue = {
  // 400: the request is wrong
  invalid_payload: entry(400, 'Invalid payload'),
  invalid_query_params: entry(400, 'Invalid query params'),
  missing_parameters: entry(400, 'Missing parameters'),
  invalid_voucher: entry(400, 'Invalid voucher'),
  invalid_campaign: entry(400, 'Invalid campaign'),
  invalid_customer: entry(400, 'Invalid customer'),
  invalid_order: entry(400, 'Invalid order'),
  invalid_amount: entry(400, 'Invalid amount'),
  invalid_expiration_date: entry(400, 'Invalid expiration date'),
  invalid_balance: entry(400, 'Invalid balance'),
  invalid_pending_points_state: entry(400, 'Invalid pending points state'),
  invalid_code_config: entry(400, 'Invalid code config'),
  invalid_export_params: entry(400, 'Invalid export params'),
  export_not_ready: entry(409, 'Export not ready'),
  // A publication that found no voucher to give: every voucher of a STATIC campaign is held.
  no_voucher_suitable_for_publication: entry(400, "Couldn't find any voucher suitable for publication."),
  invalid_scope: entry(400, 'Invalid scope'),
  invalid_grant_type: entry(400, 'Invalid grant_type'),
  invalid_origins: entry(400, 'Invalid origins'),
  token_limit_reached: entry(400, 'Token limit reached'),
  already_revoked: entry(400, 'Key already revoked'),
  invalid_app_id: entry(400, 'No active server key'),
  resource_in_use: entry(400, 'Resource in use'),
  loyalty_card_points_exceeded: entry(400, 'Loyalty card points exceeded'),
  gift_amount_exceeded: entry(400, 'Gift amount exceeded'),
  reward_out_of_stock: entry(400, 'Reward out of stock'),
  // Stacked requests (voucherify-facts 1.17, 2.10).
  duplicated_redeemables: entry(400, 'Duplicated redeemables detected in one redemption'),
  invalid_redeemables: entry(400, 'Promotion Stack cannot be use with other redeemables'),
  // Redemption failure codes (voucherify-facts 2.9): a refused redeemable's failure_code and
  // failure_message, and the key of the 400 that refuses an all-or-nothing request. The
  // reference's own messages where it shows one, its lower-case style otherwise.
  resource_not_found: entry(400, 'Resource not found'),
  voucher_not_active: entry(400, 'voucher not active'),
  voucher_expired: entry(400, 'voucher expired'),
  voucher_disabled: entry(400, 'voucher is disabled'),
  voucher_not_active_now: entry(400, 'voucher not active now'),
  quantity_exceeded: entry(400, 'quantity exceeded'),
  missing_customer: entry(400, 'Missing customer'),
  missing_order: entry(400, 'Missing order'),
  missing_order_items: entry(400, 'Missing order items'),
  missing_reward: entry(400, 'Missing reward'),
  promotion_inactive: entry(400, 'Inactive Promotion'),
  promotion_not_active_now: entry(400, 'Promotion not active now'),
  customer_rules_violated: entry(400, 'customer does not match validation rules'),
  order_rules_violated: entry(400, 'order does not match validation rules'),
  // Rollbacks (voucherify-facts 2.6): a redemption rolled back already; a stack's parent sent
  // to the single endpoint (invalid_redemption) or a child to the stacked one.
  already_rolled_back: entry(400, 'Already rolled back'),
  invalid_redemption: entry(400, 'Invalid redemption'),
  invalid_redemption_parent: entry(400, 'Invalid redemption parent'),
  // Session locks (voucherify-facts 2.9): another request on the same session key is running.
  multiple_requests: entry(400, 'Multiple requests'),
  // 401, 403
  unauthorized: entry(401, 'Unauthorized'),
  forbidden: entry(403, 'Forbidden'),
  missing_required_permission: entry(403, 'Missing permission'),
  // 404, 405, 408, 409, 413, 415, 431; malformed_request is HTTP that could not be parsed at all
  not_found: entry(404, 'Resource not found'),
  method_not_allowed: entry(405, 'Method not allowed'),
  duplicate_found: entry(409, 'Duplicated resource found'),
  // The reference's own spelling: a loyalty card given to a customer while another holds it.
  holder_assignement_duplication: entry(409, 'Holder assignment duplication'),
  // Idempotency-Key (issue 13; the reference has no such header): the key's first request is
  // still running, or was sent again with another body.
  idempotency_key_in_progress: entry(409, 'Idempotency key in progress'),
  idempotency_key_reused: entry(422, 'Idempotency key reused'),
  stacking_rules_exist: entry(409, 'Stacking rules already exist'),
  // A request body that did not arrive within PROMO_BODY_TIMEOUT_MS.
  request_timeout: entry(408, 'Request timeout'),
  payload_too_large: entry(413, 'Payload too large'),
  unsupported_media_type: entry(415, 'Unsupported media type'),
  headers_too_large: entry(431, 'Request header fields too large'),
  malformed_request: entry(400, 'Malformed request'),
  // The command line's own failures (exit 1 with this body on stderr; a mistake in a path, a
  // database file or a port is a plain sentence instead: cli/mistakes.ts).
  import_failed: entry(400, 'Some items were not imported'),
  job_failed: entry(400, 'Job failed'),
  vacuum_needs_full: entry(400, 'Full vacuum needed'),
  database_in_use: entry(409, 'Database in use'),
  // A command that works on a database file only (backup, restore, vacuum --full) on PostgreSQL.
  file_database_only: entry(400, 'Only for a database file'),
  file_exists: entry(409, 'File exists'),
  // promo copy: the target PostgreSQL database holds tables already.
  database_not_empty: entry(409, 'Database not empty'),
  // promo copy: the source file's schema is older than this promo's (promo migrate first).
  schema_too_old: entry(409, 'Database schema is older than this binary'),
  // promo copy: a table's rows or checksum differ after the copy (nothing was committed).
  copy_mismatch: entry(500, 'Copy does not match its source'),
  invalid_backup: entry(400, 'Invalid backup'),
  job_already_ended: entry(409, 'Job already ended'),
  // `promo webhooks test`: the receiver did not answer 2xx.
  webhook_test_failed: entry(400, 'Webhook test failed'),
  // 503, with Retry-After: try again shortly. GET /health when the database does not answer
  // (PostgreSQL); a write that found the database locked past the busy or lock timeout, or lost
  // a race on every one of its re-runs (nothing was written).
  database_unavailable: entry(503, 'Database unavailable'),
  database_busy: entry(503, 'Database busy'),
  // 429: beyond a key's budget of requests per minute (the reference's message; it has no key).
  too_many_requests: entry(429, 'Too many requests hit the API too quickly.'),
  // 500: the server's own faults; never the client's doing.
  internal_error: entry(500, 'Internal server error'),
  schema_too_new: entry(500, 'Database is newer than this binary'),
  database_collation: entry(500, 'Database collation is not C'),
  invalid_event: entry(500, 'Invalid event'),
  invalid_summary_change: entry(500, 'Invalid summary change'),
  customer_summary_out_of_balance: entry(500, 'Customer summary out of balance'),
} as const;

export type ErrorKey = keyof typeof errorCatalogue;

export interface ErrorExtras {
  resource_id?: string;
  resource_type?: string;
}

export interface ErrorBody extends ErrorExtras {
  code: number;
  key: string;
  message: string;
  details: string;
  request_id?: string;
}

export class AppError extends Error {
  readonly status: number;
  /** Every error body carries details; a caller with nothing to add repeats the message. */
  readonly details: string;

  constructor(
    readonly key: ErrorKey,
    details?: string,
    readonly extras: ErrorExtras = {},
  ) {
    const { status, message } = errorCatalogue[key];
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.details = details ?? message;
  }

  /** The error body without the request id, as the API and the CLI print it. */
  toBody(): ErrorBody {
    return { code: this.status, key: this.key, message: this.message, details: this.details, ...this.extras };
  }
}

export const invalidPayload = (details: string): AppError => new AppError('invalid_payload', details);

export const invalidQueryParams = (details: string): AppError => new AppError('invalid_query_params', details);

export const notFound = (resourceType: string, id: string): AppError =>
  new AppError('not_found', `Cannot find ${resourceType} with id ${id}`, {
    resource_id: id,
    resource_type: resourceType,
  });

export const duplicateFound = (resourceType: string, field: string, value: string): AppError =>
  new AppError('duplicate_found', `Duplicated ${resourceType} exists with ${field} ${value}`, {
    resource_type: resourceType,
  });

export const unauthorized = (details = 'Missing or invalid credentials'): AppError =>
  new AppError('unauthorized', details);

export const missingPermission = (details: string): AppError => new AppError('missing_required_permission', details);

export const forbidden = (details: string): AppError => new AppError('forbidden', details);

/** A command line used wrongly (a flag's value, a missing argument): exit 2 with the message, not an error body. */
export class UsageError extends Error {
  override name = 'UsageError';
}
