/**
 * The gateway server: a service gateway is a few handlers, and this serves the
 * gateway HTTP API from them (spec: stager-and-gateway-api.md, "Service gateway
 * endpoints").
 *
 *   const gw = await serveGateway({ services: {...}, bindings: {...} }, { port: 0 });
 *
 * What the server does so that the handlers need not:
 * - `GET /` answers the method map, derived from the handlers given: with
 *   `providers` it is a three-tier gateway, without it a two-tier one; each
 *   collection's `params` (required parameter -> example) is shown there.
 * - Bodies are parsed as JSON objects and checked (fields and their types,
 *   `provider_id` on a three-tier gateway, `service_id`, the required `params`):
 *   400 before a handler runs.
 * - State: each object's state travels in its state header as `{id, state}`,
 *   so a request naming an id whose state is not sent with it is refused (404
 *   for the object itself, 400 for `provider_id` of a new service, as the spec
 *   says), and handlers receive decoded, typed state.
 * - Answers: 201 with the object on create (request fields, then what the
 *   handler returned, an id generated when it gave none), 200 with an empty
 *   body on delete, and one error body `{code, message, details?}` otherwise
 *   (see ErrorBody). A binding the handler returns is checked (url with a
 *   port, url_template syntax, protocol.scheme) before it is sent.
 *
 * Lifecycle:  listening --stop()--> stopping --(in-flight done | grace over)--> stopped
 * `stop()` stops accepting, lets requests in flight finish for `graceMs`, then
 * aborts their signals and closes the connections; `closed()` resolves once
 * stopped, with the error that stopped it if any (it never rejects).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BadRequestError, GatewayError, NotFoundError, type ErrorBody } from './errors.js';
import { decodeEnvelope, encodeEnvelope, STATE_HEADERS, type StateKind } from './state.js';
import { randomAlphanum } from './url-template.js';
import {
  bindingProblems,
  bindingRequestProblems,
  describeProblems,
  providerRequestProblems,
  serviceRequestProblems,
  type Binding,
  type BindingProtocol,
  type BindingRequest,
  type MethodMap,
  type Params,
  type Problem,
  type Provider,
  type ProviderRequest,
  type Service,
  type ServiceRequest,
  type Tier,
} from './wire.js';

/** An object the gateway issued, with the state it keeps for it. */
export interface Stated<T> {
  id: string;
  state: T;
}

export interface RequestContext {
  /** Aborted when the server is stopped by force or the caller hangs up. */
  signal: AbortSignal;
  headers: IncomingHttpHeaders;
  query: URLSearchParams;
}

export interface ProviderCreated<P> {
  id?: string;
  name?: string;
  description?: string;
  params?: Params;
  /** Kept by the cluster in X-Provider-State and given back to every later handler. */
  state?: P;
}

export interface ServiceCreated<P, S> {
  id?: string;
  name?: string;
  description?: string;
  params?: Params;
  state?: S;
  /** A changed provider state, sent back in X-Provider-State. */
  providerState?: P;
}

export interface BindingCreated<P, S, B> {
  id?: string;
  name?: string;
  description?: string;
  params?: Params;
  url: string;
  url_template?: string;
  protocol: BindingProtocol;
  state?: B;
  serviceState?: S;
  providerState?: P;
}

export interface ProviderHandlers<P> {
  /** Required parameters with an example value each, shown at `GET /`; missing ones are a 400. */
  params?: Params;
  create(request: ProviderRequest, ctx: RequestContext): Promise<ProviderCreated<P>>;
  /** Removes the provider at the back end. Throw NotFoundError when it is gone already. */
  delete(provider: Stated<P>, ctx: RequestContext): Promise<void>;
}

export interface ServiceHandlers<P, S> {
  params?: Params;
  /** `provider` is given on a three-tier gateway (always) and on a two-tier one when the cluster sent it. */
  create(request: ServiceRequest, ctx: RequestContext & { provider?: Stated<P> }): Promise<ServiceCreated<P, S>>;
  /** `force`: the provider is gone and the service is orphaned (`provider` may then be absent). */
  delete(service: Stated<S>, ctx: RequestContext & { provider?: Stated<P>; force: boolean }): Promise<void>;
}

export interface BindingHandlers<P, S, B> {
  params?: Params;
  create(request: BindingRequest, ctx: RequestContext & { provider?: Stated<P>; service: Stated<S> }): Promise<BindingCreated<P, S, B>>;
  delete(binding: Stated<B>, ctx: RequestContext & { provider?: Stated<P>; service?: Stated<S> }): Promise<void>;
}

/**
 * A gateway: handlers for services and bindings (two-tier), and for providers
 * too (three-tier). `P`, `S`, `B` are the types of the state kept for each.
 */
export interface GatewayDefinition<P = unknown, S = unknown, B = unknown> {
  /** The service type served: fills a provider request's missing `type`, refuses another one. */
  type?: string;
  providers?: ProviderHandlers<P>;
  services: ServiceHandlers<P, S>;
  bindings: BindingHandlers<P, S, B>;
}

/** Status events of a server; a library does not log. */
export type GatewayEvent =
  | { type: 'request'; method: string; path: string; status: number; ms: number }
  | { type: 'handler-error'; method: string; path: string; error: unknown };

export interface ServeOptions {
  /** Default: $PORT, else 0 (any free port). */
  port?: number;
  /** Default: 0.0.0.0 when $PORT is set (running as a job), else 127.0.0.1. */
  host?: string;
  /** Largest request body accepted (default 1 MiB). */
  maxBodyBytes?: number;
  onEvent?: (event: GatewayEvent) => void;
}

/** The method map a definition serves at `GET /`. */
export function methodMapOf(def: GatewayDefinition<unknown, unknown, unknown>): MethodMap {
  const verb = (params: Params | undefined) => (params && Object.keys(params).length > 0 ? { params: { ...params } } : {});
  const map: MethodMap = {};
  if (def.providers) {
    map['/providers'] = { POST: verb(def.providers.params) };
    map['/providers/:id'] = { DELETE: {} };
  }
  map['/services'] = { POST: verb(def.services.params) };
  map['/services/:id'] = { DELETE: {} };
  map['/bindings'] = { POST: verb(def.bindings.params) };
  map['/bindings/:id'] = { DELETE: {} };
  return map;
}

type ServerState = 'listening' | 'stopping' | 'stopped';

class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

function refuse(problems: Problem[]): never {
  throw new BadRequestError(describeProblems(problems), { problems: Object.fromEntries(problems) });
}

export class GatewayServer {
  #state: ServerState = 'listening';
  readonly #inFlight = new Set<AbortController>();
  readonly #closed: Promise<Error | undefined>;
  #resolveClosed!: (err: Error | undefined) => void;
  readonly tier: Tier;
  readonly methodMap: MethodMap;

  private constructor(
    private readonly def: GatewayDefinition<unknown, unknown, unknown>,
    private readonly server: Server,
    private readonly options: ServeOptions,
  ) {
    this.tier = def.providers ? 3 : 2;
    this.methodMap = methodMapOf(def);
    this.#closed = new Promise((resolve) => (this.#resolveClosed = resolve));
  }

  static async listen<P, S, B>(def: GatewayDefinition<P, S, B>, options: ServeOptions = {}): Promise<GatewayServer> {
    const envPort = process.env['PORT'];
    const port = options.port ?? (envPort ? Number(envPort) : 0);
    const host = options.host ?? (envPort ? '0.0.0.0' : '127.0.0.1');
    const server = createServer();
    const gw = new GatewayServer(def as GatewayDefinition<unknown, unknown, unknown>, server, options);
    server.on('request', (req, res) => void gw.#serve(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (err) => void gw.stop(0, err));
    return gw;
  }

  get state(): ServerState {
    return this.#state;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `http://<host>:<port>` (127.0.0.1 when listening on every address). */
  get url(): string {
    const a = this.server.address() as AddressInfo;
    const host = a.address === '0.0.0.0' || a.address === '::' ? '127.0.0.1' : a.address.includes(':') ? `[${a.address}]` : a.address;
    return `http://${host}:${a.port}`;
  }

  /** Resolves once stopped, with the error that stopped the server if any. Never rejects. */
  closed(): Promise<Error | undefined> {
    return this.#closed;
  }

  /**
   * Stops accepting, waits up to `graceMs` (default 10 s) for requests in
   * flight, then aborts them and closes every connection. Idempotent.
   */
  async stop(graceMs = 10_000, cause?: Error): Promise<void> {
    if (this.#state !== 'listening') {
      if (graceMs <= 0) this.#force();
      await this.#closed;
      return;
    }
    this.#state = 'stopping';
    const done = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
      timer.unref();
    });
    if ((await Promise.race([done, grace])) === 'late') {
      this.#force();
      await done;
    }
    clearTimeout(timer);
    this.#state = 'stopped';
    this.#resolveClosed(cause);
  }

  #force(): void {
    for (const c of this.#inFlight) c.abort(new Error('gateway stopped'));
    this.server.closeAllConnections();
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const control = new AbortController();
    this.#inFlight.add(control);
    res.on('close', () => {
      if (!res.writableFinished) control.abort(new Error('caller hung up'));
      this.#inFlight.delete(control);
    });
    const url = new URL(req.url ?? '/', 'http://gateway');
    const method = req.method ?? 'GET';
    let answer: Answer;
    try {
      answer = await this.#route(method, url, req, control.signal);
    } catch (err) {
      if (err instanceof GatewayError) answer = new Answer(err.status, err.body());
      else {
        this.options.onEvent?.({ type: 'handler-error', method, path: url.pathname, error: err });
        answer = new Answer(500, { code: 500, message: 'the gateway failed to handle the request' } satisfies ErrorBody);
      }
    }
    if (this.#state !== 'listening') res.setHeader('Connection', 'close');
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    res.writeHead(answer.status, { ...answer.headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
    this.options.onEvent?.({ type: 'request', method, path: url.pathname, status: answer.status, ms: Date.now() - started });
  }

  async #route(method: string, url: URL, req: IncomingMessage, signal: AbortSignal): Promise<Answer> {
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const match = /^\/(providers|services|bindings)(?:\/([^/]+))?$/.exec(path);
    if (path === '/') {
      if (method !== 'GET' && method !== 'HEAD') throw new GatewayError(405, `method ${method} is not allowed on /`);
      return new Answer(200, this.methodMap);
    }
    if (!match || (match[1] === 'providers' && !this.def.providers)) throw new NotFoundError(`no endpoint ${path}`);
    const collection = match[1] as 'providers' | 'services' | 'bindings';
    let id: string | undefined;
    try {
      id = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
    } catch {
      throw new NotFoundError(`no endpoint ${path}: the id is not percent-encoded correctly`);
    }
    const allowed = id === undefined ? 'POST' : 'DELETE';
    if (method !== allowed) throw new GatewayError(405, `method ${method} is not allowed on ${path}; ${allowed} is`, { allowed: [allowed] });
    const ctx: RequestContext = { signal, headers: req.headers, query: url.searchParams };
    if (id === undefined) {
      const body = await this.#body(req);
      if (collection === 'providers') return this.#createProvider(body, ctx);
      if (collection === 'services') return this.#createService(body, ctx);
      return this.#createBinding(body, ctx);
    }
    if (collection === 'providers') return this.#deleteProvider(id, ctx);
    if (collection === 'services') return this.#deleteService(id, ctx);
    return this.#deleteBinding(id, ctx);
  }

  async #body(req: IncomingMessage): Promise<Record<string, unknown>> {
    const limit = this.options.maxBodyBytes ?? 1024 * 1024;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req as AsyncIterable<Buffer>) {
      size += c.length;
      if (size > limit) throw new GatewayError(413, `request body is larger than ${limit} bytes`);
      chunks.push(c);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    if (text.trim() === '') throw new BadRequestError('body must be a JSON object');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      throw new BadRequestError(`body is not JSON: ${(err as Error).message}`);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequestError('body must be a JSON object');
    return body as Record<string, unknown>;
  }

  /** The state the caller sent for `kind`, checked against `id` when given. */
  #stated(kind: StateKind, ctx: RequestContext, id?: string): Stated<unknown> | undefined {
    const raw = ctx.headers[STATE_HEADERS[kind].toLowerCase()];
    const header = Array.isArray(raw) ? raw[0] : raw;
    let envelope;
    try {
      envelope = decodeEnvelope<unknown>(header);
    } catch (err) {
      throw new BadRequestError(`${STATE_HEADERS[kind]}: ${(err as Error).message}`, undefined, { cause: err });
    }
    if (envelope && id !== undefined && envelope.id !== id) return undefined;
    return envelope ? { id: envelope.id, state: envelope.state } : undefined;
  }

  #requiredParams(params: Params | undefined, body: Record<string, unknown>): void {
    const given = (body['params'] ?? {}) as Record<string, unknown>;
    const missing = Object.keys(params ?? {}).filter((k) => given[k] === undefined || given[k] === null || given[k] === '');
    if (missing.length > 0) refuse(missing.map((k) => [`params.${k}`, 'is required']));
  }

  #object<T>(request: Record<string, unknown>, created: object, id: string, generatedName?: string): T {
    const out: Record<string, unknown> = { ...request };
    for (const [k, v] of Object.entries(created)) {
      if (k !== 'state' && k !== 'providerState' && k !== 'serviceState' && v !== undefined) out[k] = v;
    }
    out['id'] = id;
    if (generatedName !== undefined && (typeof out['name'] !== 'string' || out['name'] === '')) out['name'] = generatedName;
    return out as T;
  }

  async #createProvider(body: Record<string, unknown>, ctx: RequestContext): Promise<Answer> {
    const handlers = this.def.providers!;
    if (body['type'] === undefined && this.def.type !== undefined) body['type'] = this.def.type;
    const problems = providerRequestProblems(body);
    if (problems.length) refuse(problems);
    if (this.def.type !== undefined && body['type'] !== this.def.type) refuse([['type', `must be "${this.def.type}", the type this gateway serves`]]);
    this.#requiredParams(handlers.params, body);
    const created = await handlers.create(body as unknown as ProviderRequest, ctx);
    const id = created.id ?? randomUUID();
    const provider = this.#object<Provider>(body, created, id);
    return new Answer(201, provider, { [STATE_HEADERS.provider]: encodeEnvelope(id, created.state) });
  }

  async #deleteProvider(id: string, ctx: RequestContext): Promise<Answer> {
    const provider = this.#stated('provider', ctx, id);
    if (!provider) throw new NotFoundError(`unknown provider id "${id}" (no ${STATE_HEADERS.provider} for it was sent)`);
    await this.def.providers!.delete(provider, ctx);
    return new Answer(200, undefined);
  }

  async #createService(body: Record<string, unknown>, ctx: RequestContext): Promise<Answer> {
    const problems = serviceRequestProblems(body, this.tier);
    if (problems.length) refuse(problems);
    let provider: Stated<unknown> | undefined;
    if (this.tier === 3) {
      provider = this.#stated('provider', ctx, body['provider_id'] as string);
      if (!provider) refuse([['provider_id', `names no provider of this gateway (no matching ${STATE_HEADERS.provider} was sent)`]]);
    } else {
      provider = this.#stated('provider', ctx);
    }
    this.#requiredParams(this.def.services.params, body);
    const created = await this.def.services.create(body as ServiceRequest, { ...ctx, ...(provider ? { provider } : {}) });
    const id = created.id ?? randomUUID();
    const service = this.#object<Service>(body, created, id, `service_${randomAlphanum(10, 'lower')}`);
    const headers: Record<string, string> = { [STATE_HEADERS.service]: encodeEnvelope(id, created.state) };
    if (created.providerState !== undefined && provider) headers[STATE_HEADERS.provider] = encodeEnvelope(provider.id, created.providerState);
    return new Answer(201, service, headers);
  }

  async #deleteService(id: string, ctx: RequestContext): Promise<Answer> {
    const service = this.#stated('service', ctx, id);
    if (!service) throw new NotFoundError(`unknown service id "${id}" (no ${STATE_HEADERS.service} for it was sent)`);
    const force = ['true', '1', 'yes'].includes((ctx.query.get('force') ?? '').toLowerCase());
    const provider = this.#stated('provider', ctx);
    await this.def.services.delete(service, { ...ctx, force, ...(provider ? { provider } : {}) });
    return new Answer(200, undefined);
  }

  async #createBinding(body: Record<string, unknown>, ctx: RequestContext): Promise<Answer> {
    const problems = bindingRequestProblems(body);
    if (problems.length) refuse(problems);
    const service = this.#stated('service', ctx, body['service_id'] as string);
    if (!service) throw new NotFoundError(`unknown service id "${String(body['service_id'])}" (no matching ${STATE_HEADERS.service} was sent)`);
    const provider = this.#stated('provider', ctx);
    this.#requiredParams(this.def.bindings.params, body);
    const created = await this.def.bindings.create(body as unknown as BindingRequest, { ...ctx, service, ...(provider ? { provider } : {}) });
    const id = created.id ?? randomUUID();
    const binding = this.#object<Binding>(body, created, id, `binding_${randomAlphanum(10, 'lower')}`);
    const wrong = bindingProblems(binding);
    if (wrong.length) {
      // The handler's bug, not the caller's: say so in the gateway's events, answer 500.
      throw new Error(`the binding handler returned an invalid binding: ${describeProblems(wrong)}`);
    }
    const headers: Record<string, string> = { [STATE_HEADERS.binding]: encodeEnvelope(id, created.state) };
    if (created.serviceState !== undefined) headers[STATE_HEADERS.service] = encodeEnvelope(service.id, created.serviceState);
    if (created.providerState !== undefined && provider) headers[STATE_HEADERS.provider] = encodeEnvelope(provider.id, created.providerState);
    return new Answer(201, binding, headers);
  }

  async #deleteBinding(id: string, ctx: RequestContext): Promise<Answer> {
    const binding = this.#stated('binding', ctx, id);
    if (!binding) throw new NotFoundError(`unknown binding id "${id}" (no ${STATE_HEADERS.binding} for it was sent)`);
    const service = this.#stated('service', ctx);
    const provider = this.#stated('provider', ctx);
    await this.def.bindings.delete(binding, { ...ctx, ...(service ? { service } : {}), ...(provider ? { provider } : {}) });
    return new Answer(200, undefined);
  }
}

/** Serves `def` (see GatewayServer). */
export function serveGateway<P, S, B>(def: GatewayDefinition<P, S, B>, options: ServeOptions = {}): Promise<GatewayServer> {
  return GatewayServer.listen(def, options);
}

/**
 * Runs `def` as a job's program: listens on $PORT at 0.0.0.0, writes one line
 * per request and per handler error to stderr, and stops gracefully on SIGTERM
 * or SIGINT (then by force on a second one). Resolves when stopped.
 */
export async function runGateway<P, S, B>(def: GatewayDefinition<P, S, B>, options: ServeOptions = {}): Promise<void> {
  const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  const gw = await serveGateway(def, {
    onEvent: (e) => {
      if (e.type === 'request') log(`${e.method} ${e.path} ${e.status} ${e.ms}ms`);
      else log(`${e.method} ${e.path} handler error: ${e.error instanceof Error ? (e.error.stack ?? e.error.message) : String(e.error)}`);
    },
    ...options,
  });
  log(`gateway (${gw.tier}-tier) listening on port ${gw.port}`);
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    signals++;
    log(`${sig}: stopping${signals > 1 ? ' by force' : ''}`);
    void gw.stop(signals > 1 ? 0 : 10_000);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  await gw.closed();
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
}
