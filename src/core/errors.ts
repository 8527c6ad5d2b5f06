/**
 * The one catalogue of error codes the API answers with, and the exception that carries them.
 * Every error over the wire is `{error, error_description, statusCode}`; the status comes from here.
 */

export const ERROR_STATUS = {
  invalid_parameter: 400,
  invalid_json: 400,
  unauthorized: 401,
  missing_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  /** What Homey's API has and hearth does not do (advanced flows): a sentence says so. */
  not_implemented: 501,
  bad_gateway: 502,
  unavailable: 503,
  timeout: 504,
  /** Out of room: the disk is full, or what was asked would pass a size limit (an app package). */
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  error: ErrorCode;
  error_description: string;
  statusCode: number;
}

/**
 * An error a person can act on. Throw it anywhere below a handler; the HTTP layer turns it into
 * the JSON body and status. `headers` travel with the answer (e.g. Retry-After, Allow).
 *
 * @example throw new HearthError('not_found', `dashboard '${id}' does not exist`)
 */
export class HearthError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, description: string, headers: Record<string, string> = {}) {
    super(description);
    this.name = 'HearthError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.headers = headers;
  }

  toBody(): ErrorBody {
    return { error: this.code, error_description: this.message, statusCode: this.status };
  }
}

/** Shorthands for the errors every manager throws. */
export const notFound = (what: string): HearthError => new HearthError('not_found', what);
export const invalid = (what: string): HearthError => new HearthError('invalid_parameter', what);
export const conflict = (what: string): HearthError => new HearthError('conflict', what);
export const unavailable = (what: string): HearthError => new HearthError('unavailable', what);
