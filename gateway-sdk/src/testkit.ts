/**
 * A test kit for gateway authors: `GatewayTestKit` serves a gateway on
 * 127.0.0.1 (a port of its own) and drives it exactly as the cluster does:
 * through the same `GatewayClient`, checking every answer against the spec,
 * keeping the state headers each object came back with and sending them on
 * every later request about it (the provider's with its services and
 * bindings, the service's with its bindings). `restart()` serves the same
 * definition afresh, so a test shows that nothing lives in the gateway's
 * memory: everything it needs comes back in the headers.
 *
 *   const kit = await GatewayTestKit.start(myGateway);
 *   const service = await kit.createService({ params: { db: '1' } });
 *   const binding = await kit.createBinding({ service });
 *   await kit.restart();
 *   await kit.deleteBinding(binding);
 *   await kit.stop();
 */
import { GatewayClient, type States } from './client.js';
import { decodeEnvelope, STATE_HEADERS, type StateKind } from './state.js';
import { serveGateway, type GatewayDefinition, type GatewayServer, type ServeOptions } from './server.js';
import { tierOf, type Binding, type MethodMap, type Params, type Provider, type Service, type Tier } from './wire.js';

/** An object as the cluster keeps it: the gateway's answer and the state header it came with. */
export interface KitObject<T> {
  object: T;
  /** The state header value last returned for it (undefined if the gateway returned none). */
  state: string | undefined;
  /** The status of the create answer (201, or 200 for a POST that created nothing new). */
  status: number;
}
export interface KitProvider extends KitObject<Provider> {
  readonly kind: 'provider';
}
export interface KitService extends KitObject<Service> {
  readonly kind: 'service';
  provider: KitProvider | undefined;
}
export interface KitBinding extends KitObject<Binding> {
  readonly kind: 'binding';
  service: KitService;
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

export class GatewayTestKit {
  #client: GatewayClient;
  #server: GatewayServer | undefined;
  #map: MethodMap | undefined;

  private constructor(
    private readonly def: GatewayDefinition<never, never, never> | undefined,
    server: GatewayServer | undefined,
    url: string,
    private readonly options: ServeOptions & { timeoutMs?: number },
  ) {
    this.#server = server;
    this.#client = new GatewayClient(url, options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs });
  }

  /** Serves `def` on 127.0.0.1, port 0, and reads its method map as the cluster does at promotion. */
  static async start<P, S, B>(def: GatewayDefinition<P, S, B>, options: ServeOptions & { timeoutMs?: number } = {}): Promise<GatewayTestKit> {
    const server = await serveGateway(def, { host: '127.0.0.1', port: 0, ...options });
    const kit = new GatewayTestKit(def as unknown as GatewayDefinition<never, never, never>, server, server.url, options);
    try {
      await kit.describe();
    } catch (err) {
      await server.stop(0);
      throw err;
    }
    return kit;
  }

  /** Drives a gateway that runs elsewhere (any language); `restart()` is not available. */
  static async connect(url: string, options: { timeoutMs?: number } = {}): Promise<GatewayTestKit> {
    const kit = new GatewayTestKit(undefined, undefined, url, options);
    await kit.describe();
    return kit;
  }

  get url(): string {
    return this.#client.gateway;
  }

  get client(): GatewayClient {
    return this.#client;
  }

  get server(): GatewayServer | undefined {
    return this.#server;
  }

  /** The method map read at start. */
  get methodMap(): MethodMap {
    return this.#map!;
  }

  get tier(): Tier {
    return tierOf(this.#map!);
  }

  async describe(): Promise<MethodMap> {
    this.#map = await this.#client.describe();
    return this.#map;
  }

  async createProvider(request: { type?: string; name?: string; description?: string; params?: Params } = {}): Promise<KitProvider> {
    // `type` may be left out when the gateway declares the type it serves.
    const r = await this.#client.createProvider(request as Provider);
    return { kind: 'provider', object: r.object, state: r.states.provider, status: r.status };
  }

  async deleteProvider(provider: KitProvider): Promise<void> {
    await this.#client.deleteProvider(provider.object.id, this.#states(provider));
  }

  /** Creates a service; on a three-tier gateway pass the provider (its id and state are sent). */
  async createService(request: { provider?: KitProvider; name?: string; description?: string; params?: Params } = {}): Promise<KitService> {
    const { provider, ...body } = request;
    const r = await this.#client.createService({ ...body, ...(provider ? { provider_id: provider.object.id } : {}) }, provider ? this.#states(provider) : {});
    if (provider && r.states.provider) provider.state = r.states.provider;
    return { kind: 'service', object: r.object, state: r.states.service, status: r.status, provider };
  }

  async deleteService(service: KitService, options: { force?: boolean } = {}): Promise<void> {
    await this.#client.deleteService(service.object.id, this.#states(service), options);
  }

  async createBinding(request: { service: KitService; name?: string; description?: string; params?: Params }): Promise<KitBinding> {
    const { service, ...body } = request;
    const r = await this.#client.createBinding({ ...body, service_id: service.object.id }, this.#states(service));
    if (r.states.service) service.state = r.states.service;
    if (service.provider && r.states.provider) service.provider.state = r.states.provider;
    return { kind: 'binding', object: r.object, state: r.states.binding, status: r.status, service };
  }

  async deleteBinding(binding: KitBinding): Promise<void> {
    await this.#client.deleteBinding(binding.object.id, this.#states(binding));
  }

  /** The handler's state kept for `object` (decoded from its state header). */
  stateOf<T = unknown>(object: KitProvider | KitService | KitBinding): T | undefined {
    return decodeEnvelope<T>(object.state)?.state;
  }

  /** A request as given, for testing refusals: `states` are sent as headers, the answer is not checked. */
  async request(method: string, path: string, options: { body?: unknown; text?: string; states?: States } = {}): Promise<RawAnswer> {
    const headers: Record<string, string> = {};
    for (const [kind, value] of Object.entries(options.states ?? {}) as [StateKind, string | undefined][]) if (value) headers[STATE_HEADERS[kind]] = value;
    let body: string | undefined = options.text;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.url}${path}`, { method, headers, body: body ?? null });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: the text itself
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }

  /**
   * Stops the gateway and serves the same definition again on a new port: a
   * restarted gateway job. Objects created before keep working only through
   * the state their headers carry.
   */
  async restart(): Promise<void> {
    if (!this.def || !this.#server) throw new Error('restart() needs a kit made with GatewayTestKit.start');
    await this.#server.stop();
    this.#server = await serveGateway(this.def, { host: '127.0.0.1', port: 0, ...this.options });
    this.#client = new GatewayClient(this.#server.url, this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs });
    await this.describe();
  }

  /** Stops the served gateway (nothing for a connected one). */
  async stop(): Promise<void> {
    await this.#server?.stop();
  }

  #states(object: KitProvider | KitService | KitBinding): States {
    const out: States = {};
    const service = object.kind === 'binding' ? object.service : object.kind === 'service' ? object : undefined;
    const provider = object.kind === 'provider' ? object : service?.provider;
    if (provider?.state) out.provider = provider.state;
    if (service?.state) out.service = service.state;
    if (object.kind === 'binding' && object.state) out.binding = object.state;
    return out;
  }
}
