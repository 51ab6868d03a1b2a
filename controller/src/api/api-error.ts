/**
 * The one place where errors become the wire APIError (spec: Errors).
 * Every flag is present in every body, so clients can test them without
 * checking for absence first.
 */
import { AuthenticationError, PlatformError, type ErrorKind, ForbiddenError, MethodNotAllowedError, ThrottledError, TokenInvalidError, UnavailableError } from '../errors.js';

export interface ApiErrorBody {
  code: number;
  message: string;
  request_id: string;
  client_side: boolean;
  duplicate_key: boolean;
  fatal: boolean;
  request_invalid: boolean;
  requires_restart: boolean;
  resource_missing: boolean;
  retry: boolean;
  token_invalid: boolean;
  try_again_in_ms?: number;
  missing_claims?: string[];
  error_details?: Record<string, unknown>;
}

type Flags = Partial<Pick<ApiErrorBody, 'duplicate_key' | 'request_invalid' | 'requires_restart' | 'resource_missing' | 'retry' | 'token_invalid' | 'fatal'>>;

/** HTTP status and flags of each error kind. */
const TABLE: Record<ErrorKind, { status: number; flags: Flags }> = {
  invalid: { status: 400, flags: { fatal: true } },
  not_found: { status: 404, flags: { resource_missing: true } },
  duplicate: { status: 409, flags: { duplicate_key: true } },
  conflict: { status: 409, flags: { request_invalid: true } },
  requires_restart: { status: 409, flags: { requires_restart: true } },
  too_large: { status: 413, flags: { fatal: true } },
  request_timeout: { status: 408, flags: { retry: true } },
  precondition_failed: { status: 412, flags: { request_invalid: true } },
  unsupported_media_type: { status: 415, flags: { fatal: true } },
  method_not_allowed: { status: 405, flags: { fatal: true } },
  token_invalid: { status: 401, flags: { token_invalid: true } },
  unauthenticated: { status: 401, flags: {} },
  throttled: { status: 429, flags: { retry: true } },
  forbidden: { status: 403, flags: { fatal: true } },
  unavailable: { status: 503, flags: { retry: true } },
  bad_gateway: { status: 502, flags: {} },
};

export interface MappedError {
  status: number;
  body: ApiErrorBody;
  headers: Record<string, string>;
  /** True for server-side failures, which are logged at error level. */
  internal: boolean;
}

export function toApiError(err: unknown, requestId: string): MappedError {
  const headers: Record<string, string> = {};
  if (err instanceof PlatformError) {
    const { status, flags } = TABLE[err.kind];
    const body: ApiErrorBody = {
      code: status,
      message: err.message,
      request_id: requestId,
      client_side: status < 500,
      duplicate_key: false,
      fatal: false,
      request_invalid: false,
      requires_restart: false,
      resource_missing: false,
      retry: false,
      token_invalid: false,
      ...flags,
    };
    if (err instanceof UnavailableError || err instanceof ThrottledError) {
      body.try_again_in_ms = err.tryAgainInMs;
      headers['Retry-After'] = String(Math.max(1, Math.ceil(err.tryAgainInMs / 1000)));
    }
    if (err instanceof ForbiddenError) body.missing_claims = err.missingClaims;
    if (err instanceof MethodNotAllowedError) headers['Allow'] = err.allowed.join(', ');
    if (err instanceof AuthenticationError) headers['WWW-Authenticate'] = 'Basic realm="platform", charset="UTF-8"';
    if (err instanceof TokenInvalidError) headers['WWW-Authenticate'] = 'Bearer realm="platform", error="invalid_token"';
    body.error_details = { Type: err.name, Error: err.message, ...(err.details ?? {}) };
    return { status, body, headers, internal: false };
  }
  return {
    status: 500,
    body: {
      code: 500,
      message: `internal error; the controller's log has the details under request_id ${requestId}`,
      request_id: requestId,
      client_side: false,
      duplicate_key: false,
      fatal: false,
      request_invalid: false,
      requires_restart: false,
      resource_missing: false,
      retry: true,
      token_invalid: false,
      try_again_in_ms: 1000,
    },
    headers,
    internal: true,
  };
}
