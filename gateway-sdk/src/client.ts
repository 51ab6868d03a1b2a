/**
 * A client of the service gateway API: what the cluster uses to call a
 * gateway, and what the test kit uses so that a test drives a gateway exactly
 * as the cluster does.
 *
 * Every call is bounded (`timeoutMs`, default 30 s). A gateway may have several
 * addresses (its running instances): a call goes to the first, and moves on to
 * the next only when no connection could be made, so a request is never sent
 * twice. Answers are checked against the spec; what fails is one of the four
 * GatewayCallError kinds (unreachable, timeout, refused, malformed).
 * State headers are passed through as the opaque strings they are.
 */
import { GatewayProtocolError, GatewayRefusedError, GatewayTimeoutError, GatewayUnreachableError, type ErrorBody } from './errors.js';
import { isStateHeaderValue, STATE_HEADERS, type StateKind } from './state.js';
import {
  bindingProblems,
  describeProblems,
  methodMapProblems,
  providerProblems,
  serviceProblems,
  type Binding,
  type BindingRequest,
  type MethodMap,
  type Problem,
  type Provider,
  type ProviderRequest,
  type Service,
  type ServiceRequest,
} from './wire.js';

/** State header values by kind, as stored by the caller. */
export type States = Partial<Record<StateKind, string>>;

export interface GatewayReply<T> {
  status: number;
  object: T;
  /** State headers the gateway returned (new or changed); the caller stores them. */
  states: States;
}

export interface GatewayClientOptions {
  /** Bound of one call, connection included (default 30 s). */
  timeoutMs?: number;
  /** Extra headers on every call (credentials a gateway may ask for). */
  headers?: Record<string, string>;
}

const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

export class GatewayClient {
  readonly addresses: string[];
  readonly timeoutMs: number;

  /** `addresses`: base URLs such as `http://10.0.0.5:41234`, tried in order. */
  constructor(
    addresses: string | string[],
    private readonly options: GatewayClientOptions = {},
  ) {
    this.addresses = (Array.isArray(addresses) ? addresses : [addresses]).map((a) => a.replace(/\/+$/, ''));
    if (this.addresses.length === 0) throw new TypeError('a gateway client needs at least one address');
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** The name used in errors: the first address. */
  get gateway(): string {
    return this.addresses[0]!;
  }

  /** `GET /`: the method map, checked. */
  async describe(): Promise<MethodMap> {
    const r = await this.#call('GET', '/', undefined, {});
    return this.#checked('GET', '/', r.body, methodMapProblems) as MethodMap;
  }

  async createProvider(request: ProviderRequest, states: States = {}): Promise<GatewayReply<Provider>> {
    return this.#create('/providers', request, states, providerProblems);
  }

  async deleteProvider(id: string, states: States = {}): Promise<void> {
    await this.#call('DELETE', `/providers/${encodeURIComponent(id)}`, undefined, states);
  }

  async createService(request: ServiceRequest, states: States = {}): Promise<GatewayReply<Service>> {
    return this.#create('/services', request, states, serviceProblems);
  }

  async deleteService(id: string, states: States = {}, options: { force?: boolean } = {}): Promise<void> {
    await this.#call('DELETE', `/services/${encodeURIComponent(id)}${options.force ? '?force=true' : ''}`, undefined, states);
  }

  async createBinding(request: BindingRequest, states: States = {}): Promise<GatewayReply<Binding>> {
    return this.#create('/bindings', request, states, bindingProblems);
  }

  async deleteBinding(id: string, states: States = {}): Promise<void> {
    await this.#call('DELETE', `/bindings/${encodeURIComponent(id)}`, undefined, states);
  }

  async #create<T>(path: string, request: object, states: States, check: (o: unknown) => Problem[]): Promise<GatewayReply<T>> {
    const r = await this.#call('POST', path, request, states);
    const object = this.#checked('POST', path, r.body, check) as T;
    return { status: r.status, object, states: r.states };
  }

  #checked(method: string, path: string, body: unknown, check: (o: unknown) => Problem[]): unknown {
    const problems = check(body);
    if (problems.length) throw new GatewayProtocolError(this.gateway, method, path, `malformed answer: ${describeProblems(problems)}`);
    return body;
  }

  async #call(method: string, path: string, body: object | undefined, states: States): Promise<{ status: number; body: unknown; states: States }> {
    const headers: Record<string, string> = { Accept: 'application/json', ...this.options.headers };
    for (const [kind, value] of Object.entries(states) as [StateKind, string | undefined][]) {
      if (value) headers[STATE_HEADERS[kind]] = value;
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const deadline = AbortSignal.timeout(this.timeoutMs);
    let response: Response | undefined;
    let lastError: unknown;
    for (const address of this.addresses) {
      try {
        response = await fetch(`${address}${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body), signal: deadline, redirect: 'manual' });
        break;
      } catch (err) {
        lastError = err;
        if (deadline.aborted) throw new GatewayTimeoutError(this.gateway, method, path, `no answer within ${this.timeoutMs} ms`, { cause: err });
        if (!CONNECT_ERRORS.has(errorCode(err) ?? '')) {
          throw new GatewayUnreachableError(this.gateway, method, path, `the connection failed: ${(err as Error).message}${errorCode(err) ? ` (${errorCode(err)})` : ''}`, { cause: err });
        }
      }
    }
    if (!response) {
      throw new GatewayUnreachableError(this.gateway, method, path, `no connection to ${this.addresses.join(', ')} (${errorCode(lastError) ?? (lastError as Error)?.message})`, { cause: lastError });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      if (deadline.aborted) throw new GatewayTimeoutError(this.gateway, method, path, `no answer within ${this.timeoutMs} ms`, { cause: err });
      throw new GatewayUnreachableError(this.gateway, method, path, `the answer was cut off: ${(err as Error).message}`, { cause: err });
    }
    if (response.status < 200 || response.status > 299) {
      throw new GatewayRefusedError(this.gateway, method, path, response.status, errorBodyOf(text), text);
    }
    const returned: States = {};
    for (const kind of Object.keys(STATE_HEADERS) as StateKind[]) {
      const value = response.headers.get(STATE_HEADERS[kind]);
      if (value === null || value === '') continue;
      if (!isStateHeaderValue(value)) throw new GatewayProtocolError(this.gateway, method, path, `malformed answer: ${STATE_HEADERS[kind]} is not URL-safe Base64 of at most 4 KB`);
      returned[kind] = value;
    }
    let parsed: unknown;
    if (text.trim() !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        if (method !== 'DELETE') throw new GatewayProtocolError(this.gateway, method, path, `malformed answer: the body is not JSON: ${text.slice(0, 200)}`);
      }
    }
    return { status: response.status, body: parsed, states: returned };
  }
}

/** The gateway's error body when it is one of ours (or at least has a message). */
function errorBodyOf(text: string): ErrorBody | undefined {
  try {
    const o = JSON.parse(text) as Partial<ErrorBody> & { error?: unknown };
    if (typeof o !== 'object' || o === null) return undefined;
    const message = typeof o.message === 'string' ? o.message : typeof o.error === 'string' ? o.error : undefined;
    if (message === undefined) return undefined;
    const out: ErrorBody = { code: typeof o.code === 'number' ? o.code : 0, message };
    if (typeof o.details === 'object' && o.details !== null) out.details = o.details;
    return out;
  } catch {
    return undefined;
  }
}
