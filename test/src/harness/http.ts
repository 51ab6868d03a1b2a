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

export class ApiClient {
  constructor(
    readonly base: string,
    readonly defaultHeaders: Record<string, string> = {},
  ) {}

  async request<T = unknown>(method: string, path: string, o: RequestOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...o.headers };
    let body: string | Uint8Array | undefined;
    if (typeof o.body === 'string' || o.body instanceof Uint8Array) body = o.body;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.base + path, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
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
  delete<T = unknown>(path: string, o?: RequestOptions) {
    return this.request<T>('DELETE', path, o);
  }
}
