/**
 * The one error type of the service. Every failure that reaches a client is an AppError,
 * rendered by the error middleware as {code, key, message, details, request_id}.
 */
export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'internal';

export const statusOfKind: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
};

export interface ErrorExtras {
  resource_id?: string;
  resource_type?: string;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly kind: ErrorKind,
    readonly key: string,
    message: string,
    readonly details?: string,
    readonly extras: ErrorExtras = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = statusOfKind[kind];
  }

  /** The error body without the request id, as the API and the CLI print it. */
  toBody(): ErrorBody {
    return {
      code: this.status,
      key: this.key,
      message: this.message,
      // Every error body carries details; a caller that has nothing to add repeats the message.
      details: this.details ?? this.message,
      ...this.extras,
    };
  }
}

export interface ErrorBody extends ErrorExtras {
  code: number;
  key: string;
  message: string;
  details: string;
  request_id?: string;
}

export const invalidPayload = (details: string): AppError =>
  new AppError('bad_request', 'invalid_payload', 'Invalid payload', details);

export const invalidQueryParams = (details: string): AppError =>
  new AppError('bad_request', 'invalid_query_params', 'Invalid query params', details);

export const notFound = (resourceType: string, id: string): AppError =>
  new AppError('not_found', 'not_found', 'Resource not found', `Cannot find ${resourceType} with id ${id}`, {
    resource_id: id,
    resource_type: resourceType,
  });

export const duplicateFound = (resourceType: string, field: string, value: string): AppError =>
  new AppError(
    'conflict',
    'duplicate_found',
    'Duplicated resource found',
    `Duplicated ${resourceType} exists with ${field} ${value}`,
    { resource_type: resourceType },
  );

export const unauthorized = (details = 'Missing or invalid credentials'): AppError =>
  new AppError('unauthorized', 'unauthorized', 'Unauthorized', details);

export const missingPermission = (details: string): AppError =>
  new AppError('forbidden', 'missing_required_permission', 'Missing permission', details);

export const forbidden = (details: string): AppError =>
  new AppError('forbidden', 'forbidden', 'Forbidden', details);
