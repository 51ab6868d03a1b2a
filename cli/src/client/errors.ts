/**
 * The client's closed set of errors: an answer of the API that is not 2xx (ApiError, with the
 * APIError body of `spec/cluster-api.md` and its request id), and a request that got no answer
 * (ConnectionError).
 */

/** The APIError body every non-2xx answer of the controller carries. */
export interface ApiErrorBody {
  code: number;
  message: string;
  request_id: string;
  client_side?: boolean;
  duplicate_key?: boolean;
  fatal?: boolean;
  request_invalid?: boolean;
  requires_restart?: boolean;
  resource_missing?: boolean;
  retry?: boolean;
  token_invalid?: boolean;
  try_again_in_ms?: number;
  error_details?: Record<string, unknown>;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
    readonly method: string,
    readonly path: string,
  ) {
    super(body.message || `HTTP ${status}`);
  }

  get requestId(): string {
    return this.body.request_id;
  }

  /** The token is missing, malformed, expired or revoked: logging in again helps. */
  get tokenInvalid(): boolean {
    return this.status === 401;
  }

  get notFound(): boolean {
    return this.status === 404;
  }
}

export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';
  constructor(
    readonly url: string,
    options: { cause: unknown },
  ) {
    const cause = options.cause as { message?: string; cause?: { code?: string; message?: string } };
    super(`cannot reach ${url}: ${cause?.cause?.code ?? cause?.cause?.message ?? cause?.message ?? String(options.cause)}`, options);
  }
}

/** Builds the ApiError of an answer whose body may or may not be an APIError. */
export async function apiErrorOf(res: Response, method: string, path: string): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  let body: Partial<ApiErrorBody> = {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object') body = parsed as Partial<ApiErrorBody>;
  } catch {
    // not JSON: the text itself is the message
  }
  return new ApiError(
    res.status,
    {
      ...body,
      code: typeof body.code === 'number' ? body.code : res.status,
      message: typeof body.message === 'string' ? body.message : text.trim() || `${res.status} ${res.statusText}`,
      request_id: typeof body.request_id === 'string' ? body.request_id : (res.headers.get('x-request-id') ?? ''),
    },
    method,
    path,
  );
}
