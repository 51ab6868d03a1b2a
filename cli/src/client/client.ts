/**
 * A typed client of the platform's REST API, on `fetch` only (Node 20.19+ and browsers).
 * Every method maps to one operation of the controller's OpenAPI document (GET
 * /openapi.json); `OPERATIONS` lists them, and a test checks each against the document.
 * Errors: ApiError for a non-2xx answer (its APIError body and request id),
 * ConnectionError when no answer came.
 */
import type { AnswerOr, ApiMethod, ApiPath, RequestBody } from './api-types.js';
import { ApiError, ConnectionError, apiErrorOf } from './errors.js';
import type {
  AuditEntry,
  BindingInput,
  ProviderInput,
  ServiceInput,
  ClusterInfo,
  DeviceCodeGrant,
  DrainInput,
  IdentityProviderInfo,
  JoinInput,
  NetworkInput,
  FileEntry,
  Instance,
  InstanceManager,
  Job,
  JobHealth,
  JobInput,
  JobPatch,
  LogEvent,
  MetricAnswer,
  PackageInput,
  PipelineInput,
  PolicyDocument,
  PolicyUpdate,
  Runtime,
  StagingPipeline,
  Task,
  TokenGrant,
  UnbindInput,
  UnlinkInput,
  User,
  VersionInfo,
} from './types.js';

export interface ClientOptions {
  /** The API's base URL, such as `http://127.0.0.1:8080`. */
  url: string;
  /** A bearer token from `token()`. */
  token?: string;
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
  /** Sent as User-Agent where the runtime allows it. */
  userAgent?: string;
}

export type Query = Record<string, string | number | boolean | undefined | readonly string[]>;

export interface RequestOptions {
  query?: Query;
  /** A JSON body (serialized here) or a raw one (a stream or bytes, sent as is). */
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The operations the client calls: method and path as the OpenAPI document writes them. */
export const OPERATIONS = [
  'POST /v1/oauth2/token',
  'GET /v1/info',
  'GET /v1/version',
  'GET /v1/runtimes',
  'GET /v1/jobs',
  'POST /v1/jobs',
  'GET /v1/jobs/health',
  'GET /v1/jobs/{uuid}',
  'PUT /v1/jobs/{uuid}',
  'PATCH /v1/jobs/{uuid}',
  'DELETE /v1/jobs/{uuid}',
  'GET /v1/jobs/{uuid}/instances',
  'DELETE /v1/jobs/{uuid}/instances/{instance}',
  'GET /v1/jobs/{uuid}/logs',
  'GET /v1/jobs/{uuid}/files',
  'GET /v1/jobs/{uuid}/files/{path}',
  'GET /v1/jobs/routes',
  'GET /v1/packages',
  'POST /v1/packages',
  'GET /v1/packages/{uuid}',
  'DELETE /v1/packages/{uuid}',
  'PUT /v1/packages/{uuid}/resources/{resource}',
  'GET /v1/packages/{uuid}/resources/{resource}',
  'GET /v1/packages/{uuid}/logs',
  'GET /v1/stagingpipelines',
  'POST /v1/stagingpipelines',
  'GET /v1/stagingpipelines/{uuid}',
  'PUT /v1/stagingpipelines/{uuid}',
  'DELETE /v1/stagingpipelines/{uuid}',
  'GET /v1/instance_managers',
  'GET /v1/audit',
  'GET /v1/audit/events',
  'GET /v1/policy',
  'GET /v1/policy/{name}',
  'PUT /v1/policy',
  'POST /v1/manifests',
  'POST /v1/manifests/expansion',
  'GET /v1/tasks/{uuid}',
  'GET /v1/metrics/jobs',
  'GET /v1/metrics/namespaces',
  'GET /v1/metrics/instance_managers',
  'GET /v1/users',
  'PUT /v1/users/{name}',
  'DELETE /v1/users/{name}',
  'GET /v1/gateways',
  'POST /v1/gateways',
  'DELETE /v1/gateways/{type}',
  'GET /v1/providers',
  'POST /v1/providers',
  'GET /v1/providers/{uuid}',
  'DELETE /v1/providers/{uuid}',
  'GET /v1/services',
  'POST /v1/services',
  'GET /v1/services/{uuid}',
  'DELETE /v1/services/{uuid}',
  'POST /v1/bindings',
  'POST /v1/unbind',
  'POST /v1/unlink',
  'GET /v1/jobs/{uuid}/logs/drains',
  'POST /v1/jobs/{uuid}/logs/drains',
  'DELETE /v1/jobs/{uuid}/logs/drains/{drain}',
  'GET /v1/networks',
  'POST /v1/networks',
  'GET /v1/networks/{uuid}',
  'DELETE /v1/networks/{uuid}',
  'POST /v1/networks/{uuid}/join',
  'POST /v1/networks/{uuid}/leave',
  'GET /v1/oauth2/providers',
  'GET /v1/oauth2/device/{idp}/getcode',
  'POST /v1/oauth2/device/{idp}/redeemed',
  'POST /v1/oauth2/device/{idp}/refresh',
] as const;

const enc = encodeURIComponent;

export class PlatformClient {
  readonly url: string;
  token: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #userAgent: string | undefined;

  constructor(options: ClientOptions) {
    this.url = options.url.replace(/\/+$/, '');
    this.token = options.token;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#userAgent = options.userAgent;
  }

  /** Sends one request; answers the Response of a 2xx, throws ApiError otherwise. */
  async request(method: string, path: string, o: RequestOptions = {}): Promise<Response> {
    const url = new URL(this.url + path);
    for (const [k, v] of Object.entries(o.query ?? {})) {
      if (v === undefined || v === false) continue;
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, item);
      else url.searchParams.set(k, v === true ? '' : String(v));
    }
    const headers: Record<string, string> = { Accept: 'application/json', ...o.headers };
    if (this.token && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) headers['Authorization'] = `Bearer ${this.token}`;
    if (this.#userAgent) headers['User-Agent'] = this.#userAgent;
    let body = o.body;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers['Content-Type'] ??= 'application/json';
    }
    const init: RequestInit & { duplex?: 'half' } = { method, headers, ...(o.signal ? { signal: o.signal } : {}) };
    if (body !== undefined) {
      init.body = body;
      // A streamed body (an upload) needs half duplex in Node's fetch.
      if (typeof (body as { getReader?: unknown }).getReader === 'function') init.duplex = 'half';
    }
    let res: Response;
    try {
      res = await this.#fetch(url, init);
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new ConnectionError(this.url, { cause: err });
    }
    if (res.status < 200 || res.status > 299) throw await apiErrorOf(res, method, path);
    return res;
  }

  async json<T>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
    const res = await this.request(method, path, o);
    const text = await res.text();
    return (text === '' ? null : JSON.parse(text)) as T;
  }

  // ---- authentication -----------------------------------------------------------------

  /**
   * Asks the token endpoint for a token with a user's password (`basic`: users of the
   * controller; `ldap`: the LDAP directory). Does not keep the token: set `client.token` to use it.
   */
  async login(user: string, password: string, mechanism: 'basic' | 'ldap' = 'basic'): Promise<TokenGrant> {
    const res = await this.request('POST', '/v1/oauth2/token', {
      headers: {
        Authorization: `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${password}`)))}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: `grant_type=${mechanism === 'ldap' ? 'ldap_basic' : 'basic'}`,
    });
    const grant = (await res.json()) as TokenGrant;
    const info = userinfoOf(res);
    if (info) grant.user = info;
    return grant;
  }

  /** The identity providers the cluster trusts (device-flow logins). */
  async identityProviders(): Promise<IdentityProviderInfo[]> {
    return this.json<IdentityProviderInfo[]>('GET', '/v1/oauth2/providers');
  }

  /** Starts a device-flow login at identity provider `idp`: the code to show the user, and where. */
  async deviceCode(idp: string, scope?: string): Promise<DeviceCodeGrant> {
    return this.json<DeviceCodeGrant>('GET', `/v1/oauth2/device/${enc(idp)}/getcode`, { query: { scope } });
  }

  /**
   * The refresh token of a device code once the user signed in. Throws ApiError 429 (with
   * `try_again_in_ms`) while the user has not: wait that long and ask again.
   */
  async redeemDeviceCode(idp: string, deviceCode: string): Promise<{ refresh_token: string; token_type: string }> {
    return this.json('POST', `/v1/oauth2/device/${enc(idp)}/redeemed`, { json: { device_code: deviceCode } });
  }

  /** An access token (and the next refresh token) for an IDP_REFRESH token. */
  async refreshDeviceToken(idp: string, refreshToken: string): Promise<TokenGrant & { refresh_token: string }> {
    const res = await this.request('POST', `/v1/oauth2/device/${enc(idp)}/refresh`, { json: { refresh_token: refreshToken, token_type: 'IDP_REFRESH' } });
    const grant = (await res.json()) as TokenGrant & { refresh_token: string };
    const user = userinfoOf(res);
    if (user) grant.user = user;
    return grant;
  }

  /**
   * One operation of the OpenAPI document: `path` as the document writes it, its `{name}`
   * parts filled from `params`; the body and the answer typed as the document declares them.
   */
  async call<P extends ApiPath, M extends ApiMethod, Described = unknown>(
    method: M,
    path: P,
    params: Record<string, string> = {},
    o: Omit<RequestOptions, 'json'> & { json?: RequestBody<P, M> } = {},
  ): Promise<AnswerOr<P, M, Described>> {
    const filled = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const value = params[name];
      if (value === undefined) throw new TypeError(`${path}: no value for {${name}}`);
      return enc(value);
    });
    return this.json<AnswerOr<P, M, Described>>(method.toUpperCase(), filled, o);
  }

  // ---- cluster ----------------------------------------------------------------------------

  info = () => this.call<'/v1/info', 'get', ClusterInfo>('get', '/v1/info');
  version = () => this.call<'/v1/version', 'get', VersionInfo>('get', '/v1/version');
  runtimes = () => this.call<'/v1/runtimes', 'get', Runtime[]>('get', '/v1/runtimes');
  instanceManagers = () => this.call<'/v1/instance_managers', 'get', InstanceManager[]>('get', '/v1/instance_managers');

  // ---- jobs -------------------------------------------------------------------------------

  listJobs = (query: Query = {}) => this.call('get', '/v1/jobs', {}, { query });
  /** The job of an FQN, or undefined. */
  async findJob(fqn: string): Promise<Job | undefined> {
    return (await this.listJobs({ fqn }))[0];
  }
  getJob = (uuid: string) => this.call('get', '/v1/jobs/{uuid}', { uuid });
  // Nulls (absent fields, as answers show them) are the controller's own leniency, not in the document.
  createJob = (job: JobInput) => this.call('post', '/v1/jobs', {}, { json: job as RequestBody<'/v1/jobs', 'post'> });
  putJob = (uuid: string, job: JobInput, ifMatch?: number) =>
    this.call('put', '/v1/jobs/{uuid}', { uuid }, { json: job as RequestBody<'/v1/jobs/{uuid}', 'put'>, ...(ifMatch === undefined ? {} : { headers: { 'If-Match': `"${ifMatch}"` } }) });
  /** A JSON Merge Patch of the job: only the fields it names change. */
  patchJob = (uuid: string, patch: JobPatch, ifMatch?: number) =>
    this.call('patch', '/v1/jobs/{uuid}', { uuid }, {
      // The document describes the fields a patch may name; null (remove) is JSON Merge Patch's own.
      json: patch as RequestBody<'/v1/jobs/{uuid}', 'patch'>,
      headers: { 'Content-Type': 'application/merge-patch+json', ...(ifMatch === undefined ? {} : { 'If-Match': `"${ifMatch}"` }) },
    });
  deleteJob = async (uuid: string) => void (await this.call('delete', '/v1/jobs/{uuid}', { uuid }));
  jobHealth = (uuids: readonly string[]) => this.call<'/v1/jobs/health', 'get', JobHealth[]>('get', '/v1/jobs/health', {}, { query: { ids: uuids.join(',') } });
  instances = (job: string) => this.call<'/v1/jobs/{uuid}/instances', 'get', Instance[]>('get', '/v1/jobs/{uuid}/instances', { uuid: job });
  stopInstance = async (job: string, instance: string) => void (await this.call('delete', '/v1/jobs/{uuid}/instances/{instance}', { uuid: job, instance }));
  files = (job: string, path = '', instance?: string) =>
    this.json<FileEntry[]>('GET', `/v1/jobs/${enc(job)}/files${path.replace(/^\/*/, '/').replace(/\/$/, '')}`, { query: { instance } });
  /** Every routed endpoint with the uuids of the jobs routed at it. */
  routes = () => this.call<'/v1/jobs/routes', 'get', Record<string, string[]>>('get', '/v1/jobs/routes');

  /** A job's log drains (syslog collectors its log lines are sent to). */
  listDrains = (job: string) => this.call('get', '/v1/jobs/{uuid}/logs/drains', { uuid: job });
  /** Adds a drain (a change of the job); 409 when the job drains to that url already. */
  addDrain = (job: string, drain: DrainInput) => this.call('post', '/v1/jobs/{uuid}/logs/drains', { uuid: job }, { json: drain });
  /** Removes a drain; answers the job. */
  removeDrain = (job: string, drain: string) => this.call('delete', '/v1/jobs/{uuid}/logs/drains/{drain}', { uuid: job, drain });

  /** The last `lines` lines of a job's log as text, each `[<short instance id>] line`. */
  async jobLogs(job: string, lines = 100, instance?: string): Promise<string> {
    return (await this.request('GET', `/v1/jobs/${enc(job)}/logs`, { query: { lines, instance }, headers: { Accept: 'text/plain' } })).text();
  }

  /** A live stream of a job's log lines (the last `lines` first) until `signal` aborts it or the server ends it. */
  tailJobLogs(job: string, o: { lines?: number; instance?: string; after?: number; signal?: AbortSignal } = {}): AsyncGenerator<LogEvent> {
    return this.#tail(`/v1/jobs/${enc(job)}/logs`, o);
  }

  // ---- packages ---------------------------------------------------------------------------

  listPackages = (query: Query = {}) => this.call('get', '/v1/packages', {}, { query });
  getPackage = (uuid: string) => this.call('get', '/v1/packages/{uuid}', { uuid });
  createPackage = (pkg: PackageInput) => this.call('post', '/v1/packages', {}, { json: pkg });
  deletePackage = async (uuid: string) => void (await this.call('delete', '/v1/packages/{uuid}', { uuid }));
  /** Uploads an archive the package declared (its length and digest must match). */
  uploadResource = async (pkg: string, resource: string, body: BodyInit, length: number) =>
    void (await this.request('PUT', `/v1/packages/${enc(pkg)}/resources/${enc(resource)}`, {
      body,
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(length) },
    }));
  /** The archive of a package's resource, as a byte stream. */
  async downloadResource(pkg: string, resource: string): Promise<Response> {
    return this.request('GET', `/v1/packages/${enc(pkg)}/resources/${enc(resource)}`, { headers: { Accept: 'application/octet-stream' } });
  }
  async packageLogs(pkg: string, o: { lines?: number; after?: number } = {}): Promise<string> {
    const query: Query = { lines: o.lines, ...(o.after === undefined ? {} : { lastEventId: o.after }) };
    return (await this.request('GET', `/v1/packages/${enc(pkg)}/logs`, { query, headers: { Accept: 'text/plain' } })).text();
  }
  tailPackageLogs(pkg: string, o: { lines?: number; after?: number; signal?: AbortSignal } = {}): AsyncGenerator<LogEvent> {
    return this.#tail(`/v1/packages/${enc(pkg)}/logs`, o);
  }

  // ---- staging pipelines -------------------------------------------------------------------

  listPipelines = (fqn?: string) => this.call<'/v1/stagingpipelines', 'get', StagingPipeline[]>('get', '/v1/stagingpipelines', {}, { query: { fqn } });
  getPipeline = (uuid: string) => this.call<'/v1/stagingpipelines/{uuid}', 'get', StagingPipeline>('get', '/v1/stagingpipelines/{uuid}', { uuid });
  createPipeline = (p: PipelineInput) => this.call<'/v1/stagingpipelines', 'post', StagingPipeline>('post', '/v1/stagingpipelines', {}, { json: p });
  putPipeline = (uuid: string, p: PipelineInput) => this.call<'/v1/stagingpipelines/{uuid}', 'put', StagingPipeline>('put', '/v1/stagingpipelines/{uuid}', { uuid }, { json: p });
  deletePipeline = async (uuid: string) => void (await this.call('delete', '/v1/stagingpipelines/{uuid}', { uuid }));

  // ---- audit, policy, users ----------------------------------------------------------------

  audit = (query: Query = {}) => this.call<'/v1/audit', 'get', AuditEntry[]>('get', '/v1/audit', {}, { query });
  auditEvents = () => this.call<'/v1/audit/events', 'get', string[]>('get', '/v1/audit/events');
  listPolicies = () => this.call<'/v1/policy', 'get', PolicyDocument[]>('get', '/v1/policy');
  getPolicy = (name: string, version?: number) => this.call<'/v1/policy/{name}', 'get', PolicyDocument & { version: number }>('get', '/v1/policy/{name}', { name }, { query: { version } });
  putPolicies = (docs: PolicyUpdate['docs']) => this.call<'/v1/policy', 'put', PolicyDocument[]>('put', '/v1/policy', {}, { json: { docs } });
  listUsers = () => this.call<'/v1/users', 'get', User[]>('get', '/v1/users');
  setUserPassword = (name: string, password: string) => this.call<'/v1/users/{name}', 'put', User>('put', '/v1/users/{name}', { name }, { json: { password } });
  deleteUser = async (name: string) => void (await this.call('delete', '/v1/users/{name}', { name }));

  // ---- manifests, tasks, metric queries ------------------------------------------------------

  /** Deploys a manifest (`{manifest, variables}` or the manifest itself) in a task; answers the task's URL. */
  // The document does not describe the manifest bodies (the manifest parser validates them), so
  // these two are sent as given.
  deployManifest = (body: Record<string, unknown>) => this.json<{ location: string }>('POST', '/v1/manifests', { json: body });
  /** What a manifest would do, without doing it. */
  expandManifest = (body: Record<string, unknown>) => this.json<Record<string, unknown>>('POST', '/v1/manifests/expansion', { json: body });
  /** A task with its events (`after`: only events after that UNIX time in nanoseconds). */
  getTask = (uuid: string, after?: number) => this.call<'/v1/tasks/{uuid}', 'get', Task>('get', '/v1/tasks/{uuid}', { uuid }, { query: { time: after } });
  /** Metric queries (`<target>,<metric>[:<function>-<interval>][,<from>[,<until>]]`) of jobs, namespaces or instance managers. */
  metrics = (kind: 'jobs' | 'namespaces' | 'instance_managers', queries: readonly string[]) =>
    this.json<MetricAnswer>('GET', `/v1/metrics/${kind}`, { query: { metric: queries } });

  // ---- gateways, providers, services, bindings -----------------------------------------------

  listGateways = () => this.call('get', '/v1/gateways');
  /** Promotes a job (with a RUNNING instance) to the gateway of a service type. */
  promoteGateway = (jobFqn: string, type: string) => this.call('post', '/v1/gateways', {}, { json: { job_fqn: jobFqn, type } });
  /** Demotes the gateway of a type; refused while services of the type exist, unless `force`. */
  demoteGateway = async (type: string, force = false) => void (await this.call('delete', '/v1/gateways/{type}', { type }, { query: { force } }));
  listProviders = () => this.call('get', '/v1/providers');
  getProvider = (uuid: string) => this.call('get', '/v1/providers/{uuid}', { uuid });
  createProvider = (p: ProviderInput) => this.call('post', '/v1/providers', {}, { json: p });
  deleteProvider = async (uuid: string, force = false) => void (await this.call('delete', '/v1/providers/{uuid}', { uuid }, { query: { force } }));
  listServices = () => this.call('get', '/v1/services');
  getService = (uuid: string) => this.call('get', '/v1/services/{uuid}', { uuid });
  createService = (svc: ServiceInput) => this.call('post', '/v1/services', {}, { json: svc });
  deleteService = async (uuid: string, force = false) => void (await this.call('delete', '/v1/services/{uuid}', { uuid }, { query: { force } }));
  /** Binds a job to a service (`service_fqn`) or links it to another job (`target_job_fqn`). */
  bind = (b: BindingInput) => this.call('post', '/v1/bindings', {}, { json: b });
  unbind = async (u: UnbindInput) => void (await this.call('post', '/v1/unbind', {}, { json: u }));
  unlink = async (u: UnlinkInput) => void (await this.call('post', '/v1/unlink', {}, { json: u }));

  // ---- virtual networks ---------------------------------------------------------------------

  /** The networks the caller may read; `ipam: false` leaves the instances' addresses out. */
  listNetworks = (ipam = true) => this.call('get', '/v1/networks', {}, ipam ? {} : { query: { ipam: false } });
  getNetwork = (uuid: string) => this.call('get', '/v1/networks/{uuid}', { uuid });
  createNetwork = (n: NetworkInput) => this.call('post', '/v1/networks', {}, { json: n });
  /** Refused while jobs are members, unless `force` (they leave first). */
  deleteNetwork = async (uuid: string, force = false) => void (await this.call('delete', '/v1/networks/{uuid}', { uuid }, { query: { force } }));
  /** Puts a job on the network, or changes its options there; answers the network. */
  joinNetwork = (uuid: string, join: JoinInput) => this.call('post', '/v1/networks/{uuid}/join', { uuid }, { json: join });
  leaveNetwork = (uuid: string, jobFqn: string) => this.call('post', '/v1/networks/{uuid}/leave', { uuid }, { json: { job_fqn: jobFqn } });

  // ---- Server-Sent Events -------------------------------------------------------------------

  async *#tail(path: string, o: { lines?: number; instance?: string; after?: number; signal?: AbortSignal }): AsyncGenerator<LogEvent> {
    const query: Query = { tail: true, lines: o.lines, instance: o.instance, ...(o.after === undefined ? {} : { lastEventId: o.after }) };
    const res = await this.request('GET', path, { query, headers: { Accept: 'text/event-stream' }, ...(o.signal ? { signal: o.signal } : {}) });
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = res.body.getReader();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (err) {
          if (o.signal?.aborted) return;
          throw err;
        }
        if (chunk.done) return;
        buffer += decoder.decode(chunk.value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (data && /^event: log$/m.test(block)) yield JSON.parse(data) as LogEvent;
        }
      }
    } finally {
      reader.releaseLock();
      await res.body.cancel().catch(() => undefined);
    }
  }
}

export { ApiError, ConnectionError };

/** The `userinfo` cookie of a token answer, decoded; undefined when there is none or it cannot be read. */
function userinfoOf(res: Response): TokenGrant['user'] {
  const cookies = typeof res.headers.getSetCookie === 'function' ? res.headers.getSetCookie() : [res.headers.get('set-cookie') ?? ''];
  for (const c of cookies) {
    const m = /^userinfo=([^;]+)/.exec(c);
    if (!m) continue;
    try {
      return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(m[1]!), (ch) => ch.charCodeAt(0)))) as TokenGrant['user'];
    } catch {
      return undefined;
    }
  }
  return undefined;
}
