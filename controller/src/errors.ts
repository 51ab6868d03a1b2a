/**
 * The closed set of errors that the controller raises on purpose.
 *
 * Each class names one failure kind. The HTTP layer turns them into the wire
 * APIError body in exactly one place (`api/api-error.ts`); anything else that
 * escapes a handler is an internal error whose message is not shown to clients.
 */
export type ErrorKind =
  | 'invalid'
  | 'not_found'
  | 'duplicate'
  | 'conflict'
  | 'requires_restart'
  | 'too_large'
  | 'request_timeout'
  | 'precondition_failed'
  | 'unsupported_media_type'
  | 'method_not_allowed'
  | 'token_invalid'
  | 'unauthenticated'
  | 'throttled'
  | 'forbidden'
  | 'unavailable'
  | 'bad_gateway';

export interface PlatformErrorOptions {
  cause?: unknown;
  /** Extra, client-safe detail, sent as `error_details`. */
  details?: Record<string, unknown>;
}

export abstract class PlatformError extends Error {
  abstract readonly kind: ErrorKind;
  readonly details: Record<string, unknown> | undefined;

  constructor(message: string, options: PlatformErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.details = options.details;
  }
}

/** The request is malformed or its content is not acceptable (400). */
export class InvalidRequestError extends PlatformError {
  override readonly name = 'InvalidRequestError';
  readonly kind = 'invalid';
}

/** The addressed resource does not exist (404, resource_missing). */
export class NotFoundError extends PlatformError {
  override readonly name = 'NotFoundError';
  readonly kind = 'not_found';
}

/** A create names something that exists already (409, duplicate_key). */
export class DuplicateError extends PlatformError {
  override readonly name = 'DuplicateError';
  readonly kind = 'duplicate';
}

/** The request conflicts with the resource's current state (409, request_invalid). */
export class ConflictError extends PlatformError {
  override readonly name = 'ConflictError';
  readonly kind = 'conflict';
}

/** The change needs the resource stopped first (409, requires_restart). */
export class RequiresRestartError extends PlatformError {
  override readonly name = 'RequiresRestartError';
  readonly kind = 'requires_restart';
}

/** The body is larger than allowed (413). */
export class TooLargeError extends PlatformError {
  override readonly name = 'TooLargeError';
  readonly kind = 'too_large';
}

/** An `If-Match` names a version that is not the current one (412). */
export class PreconditionFailedError extends PlatformError {
  override readonly name = 'PreconditionFailedError';
  readonly kind = 'precondition_failed';
}

/** The body's Content-Type is not one the endpoint reads (415). */
export class UnsupportedMediaTypeError extends PlatformError {
  override readonly name = 'UnsupportedMediaTypeError';
  readonly kind = 'unsupported_media_type';
}

/** The path exists but not with this method (405). */
export class MethodNotAllowedError extends PlatformError {
  override readonly name = 'MethodNotAllowedError';
  readonly kind = 'method_not_allowed';
  constructor(
    message: string,
    readonly allowed: string[],
  ) {
    super(message);
  }
}

/** The bearer token is missing, malformed, forged or expired (401, token_invalid). */
export class TokenInvalidError extends PlatformError {
  override readonly name = 'TokenInvalidError';
  readonly kind = 'token_invalid';
}

/** Credentials (user name and password) were missing or wrong (401). */
export class AuthenticationError extends PlatformError {
  override readonly name = 'AuthenticationError';
  readonly kind = 'unauthenticated';
}

/** Too many attempts; the caller must wait (429, retry, try_again_in_ms). */
export class ThrottledError extends PlatformError {
  override readonly name = 'ThrottledError';
  readonly kind = 'throttled';
  constructor(
    message: string,
    readonly tryAgainInMs: number,
    options?: PlatformErrorOptions,
  ) {
    super(message, options);
  }
}

/** Policy denies the action (403, missing_claims). */
export class ForbiddenError extends PlatformError {
  override readonly name = 'ForbiddenError';
  readonly kind = 'forbidden';
  constructor(
    message: string,
    readonly missingClaims: string[],
    options?: PlatformErrorOptions,
  ) {
    super(message, options);
  }
}

/** The request did not arrive in time: its head or body stalled or took too long (408). */
export class RequestTimeoutError extends PlatformError {
  override readonly name = 'RequestTimeoutError';
  readonly kind = 'request_timeout';
}

/** A transient condition; the same request may succeed later (503, retry). */
export class UnavailableError extends PlatformError {
  override readonly name = 'UnavailableError';
  readonly kind = 'unavailable';
  constructor(
    message: string,
    readonly tryAgainInMs: number,
    options?: PlatformErrorOptions,
  ) {
    super(message, options);
  }
}

/** A service gateway (or another server the controller called) failed or answered something unusable (502). */
export class BadGatewayError extends PlatformError {
  override readonly name = 'BadGatewayError';
  readonly kind = 'bad_gateway';
}
