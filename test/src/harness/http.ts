/** A small HTTP client for tests: JSON in, status, headers and JSON (or text) out. */
export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or bytes as they are. */
  body?: unknown;
}

export interface TokenReply {
  access_token: string;
  expires_in: string;
  token_type: string;
}

/** The `Authorization` value of HTTP Basic credentials. */
export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

export class ApiClient {
  constructor(
    readonly base: string,
    readonly defaultHeaders: Record<string, string> = {},
  ) {}

  /** Gets a token from the token endpoint with Basic credentials, as a real client does. */
  static async login(base: string, user: string, password: string, headers: Record<string, string> = {}): Promise<ApiClient> {
    const anonymous = new ApiClient(base);
    const r = await anonymous.post<TokenReply>('/v1/oauth2/token', undefined, {
      headers: { authorization: basicAuth(user, password), ...headers },
    });
    if (r.status !== 200) throw new Error(`login of ${user} failed: ${r.status} ${r.text}`);
    return new ApiClient(base, { authorization: `Bearer ${r.body.access_token}` });
  }

  /** Creates the basic user `name` (or sets its password), as this client, and logs it in. */
  async createUser(name: string, password: string): Promise<ApiClient> {
    const r = await this.put(`/v1/users/${name}`, { password });
    if (r.status !== 200) throw new Error(`user ${name}: ${r.status} ${r.text}`);
    return ApiClient.login(this.base, name, password);
  }

  /** The same server with other (or no) credentials. */
  withHeaders(headers: Record<string, string>): ApiClient {
    return new ApiClient(this.base, headers);
  }

  /** A plain fetch with this client's credentials, for streams and raw bodies. */
  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(this.base + path, { ...init, headers: { ...this.defaultHeaders, ...(init.headers as Record<string, string> | undefined) } });
  }

  async request<T = unknown>(method: string, path: string, o: RequestOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...o.headers };
    let body: string | Uint8Array | undefined;
    if (typeof o.body === 'string' || o.body instanceof Uint8Array) body = o.body;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.base + path, { method, headers, ...(body === undefined ? {} : { body }) });
      text = await res.text();
    } catch (err) {
      // undici says only "fetch failed": name the request and the socket's own reason, so that a
      // failure in a long scenario says which step it was.
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(`${method} ${this.base}${path}: ${(err as Error).message}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}`, { cause: err });
    }
    let parsed: unknown = text;
    if (text.length > 0 && /json|vnd\.platform/.test(res.headers.get('content-type') ?? '')) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = unknown>(path: string, o?: RequestOptions) {
    return this.request<T>('GET', path, o);
  }
  post<T = unknown>(path: string, body?: unknown, o: RequestOptions = {}) {
    return this.request<T>('POST', path, { ...o, body });
  }
  put<T = unknown>(path: string, body?: unknown, o: RequestOptions = {}) {
    return this.request<T>('PUT', path, { ...o, body });
  }
  /** A JSON Merge Patch (RFC 7396) unless the options name another Content-Type. */
  patch<T = unknown>(path: string, body?: unknown, o: RequestOptions = {}) {
    return this.request<T>('PATCH', path, { ...o, body, headers: { 'content-type': 'application/merge-patch+json', ...o.headers } });
  }
  delete<T = unknown>(path: string, o?: RequestOptions) {
    return this.request<T>('DELETE', path, o);
  }
}
