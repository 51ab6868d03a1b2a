/**
 * Errors of the gateway SDK: one class per failure kind, each with `name` and
 * `cause`.
 *
 * Inside a gateway, a handler throws a `GatewayError` (or one of its named
 * kinds) to refuse a request; the server turns it into the one error body of
 * the gateway API (see `ErrorBody`). Anything else a handler throws is a 500
 * whose message is not shown to the caller.
 *
 * On the calling side (the cluster, the test kit), `GatewayClient` throws one
 * of the four `GatewayCallError` kinds: the gateway was unreachable, it did not
 * answer in time, it refused (an error status), or it answered something that
 * is not the gateway API.
 */

/**
 * The error body of every non-2xx answer of a gateway built with this SDK:
 * `{"code": 404, "message": "unknown service id \"x\""}`, plus `details`
 * (an object) when the handler gave some. `code` repeats the HTTP status,
 * as the cluster's APIError does.
 */
export interface ErrorBody {
  code: number;
  message: string;
  details?: Record<string, unknown>;
}

/** A refusal by a gateway: answered with `status` and `message` (which is shown to the caller). */
export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  body(): ErrorBody {
    return this.details ? { code: this.status, message: this.message, details: this.details } : { code: this.status, message: this.message };
  }
}

/** 400: the body does not parse or a parameter is missing or invalid. */
export class BadRequestError extends GatewayError {
  override name = 'BadRequestError';
  constructor(message: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super(400, message, details, options);
  }
}

/** 404: the id is not one this gateway issued (or the back end no longer has it). */
export class NotFoundError extends GatewayError {
  override name = 'NotFoundError';
  constructor(message: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super(404, message, details, options);
  }
}

/** 409: the back end refuses because of what exists (a database still in use, a name taken). */
export class ConflictError extends GatewayError {
  override name = 'ConflictError';
  constructor(message: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super(409, message, details, options);
  }
}

/** A state header value that is not URL-safe Base64 JSON, or encodes to more than 4 KB. */
export class GatewayStateError extends Error {
  override readonly name = 'GatewayStateError';
}

/** A url_template that breaks the syntax of the spec. */
export class UrlTemplateError extends Error {
  override readonly name = 'UrlTemplateError';
}

/**
 * What a create's 2xx answer says about the object the gateway made, as far
 * as it can be read: the `id` of a JSON object body (a non-empty string), and
 * the state headers exactly as they came (valid or not: a delete needs them
 * for the gateway to find the object again).
 */
export interface CreateEvidence {
  id?: string;
  /** By kind, as `States` of state.ts (not imported: state.ts uses this module). */
  states: Partial<Record<'provider' | 'service' | 'binding', string>>;
}

/**
 * What a create that timed out was answered afterwards (GatewayClient's
 * `lateAnswerMs`): `made` a 2xx (acceptable or not; the caller was told it
 * failed, so what it names is to be deleted), `not_made` an error status or
 * no connection at all, `none` no answer within the wait, or the connection
 * broke after the request went out (whether the gateway made it is unknown).
 */
export type LateAnswer = { outcome: 'made'; evidence: CreateEvidence } | { outcome: 'not_made'; why: string } | { outcome: 'none'; why: string };

/** The kinds of failure when calling a gateway. */
export type GatewayCallFailure = 'unreachable' | 'timeout' | 'refused' | 'malformed';

/** Calling a gateway failed; `kind` says how, `gateway` which base URL was called. */
export abstract class GatewayCallError extends Error {
  abstract readonly kind: GatewayCallFailure;
  constructor(
    readonly gateway: string,
    readonly method: string,
    readonly path: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`${method} ${path} on gateway ${gateway}: ${message}`, options);
  }
}

/**
 * No connection could be made to any of the gateway's addresses, or the
 * connection broke. `mayHaveArrived`: it broke once a connection was made, so
 * the gateway may have received the request and acted on it.
 */
export class GatewayUnreachableError extends GatewayCallError {
  override readonly name = 'GatewayUnreachableError';
  readonly kind = 'unreachable';
  readonly mayHaveArrived: boolean;
  constructor(gateway: string, method: string, path: string, message: string, options?: ErrorOptions & { mayHaveArrived?: boolean }) {
    super(gateway, method, path, message, options);
    this.mayHaveArrived = options?.mayHaveArrived ?? false;
  }
}

/**
 * The gateway accepted the request and did not answer within the time
 * allowed. For a create called with `lateAnswerMs`, `lateAnswer` settles
 * (never rejects) with what the gateway answered afterwards.
 */
export class GatewayTimeoutError extends GatewayCallError {
  override readonly name = 'GatewayTimeoutError';
  readonly kind = 'timeout';
  readonly lateAnswer: Promise<LateAnswer> | undefined;
  constructor(gateway: string, method: string, path: string, message: string, options?: ErrorOptions & { lateAnswer?: Promise<LateAnswer> }) {
    super(gateway, method, path, message, options);
    this.lateAnswer = options?.lateAnswer;
  }
}

/** The gateway answered with an error status; `body` is its error body when it sent one of ours. */
export class GatewayRefusedError extends GatewayCallError {
  override readonly name = 'GatewayRefusedError';
  readonly kind = 'refused';
  constructor(
    gateway: string,
    method: string,
    path: string,
    readonly status: number,
    readonly body: ErrorBody | undefined,
    readonly text: string,
  ) {
    super(gateway, method, path, `${status} ${body?.message ?? (text.trim().slice(0, 500) || '(no message)')}`);
  }
}

/**
 * The gateway answered 2xx with something that is not the gateway API (bad
 * JSON, missing fields, bad state header). On a create, `made` is what the
 * answer says of the object the gateway made all the same.
 */
export class GatewayProtocolError extends GatewayCallError {
  override readonly name = 'GatewayProtocolError';
  readonly kind = 'malformed';
  readonly made: CreateEvidence | undefined;
  constructor(gateway: string, method: string, path: string, message: string, options?: ErrorOptions & { made?: CreateEvidence }) {
    super(gateway, method, path, message, options);
    this.made = options?.made;
  }
}
