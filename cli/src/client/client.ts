/**
 * A typed client of the platform's REST API, on `fetch` only (Node 20.19+ and browsers).
 * Every method maps to one operation of the controller's OpenAPI document (GET
 * /openapi.json); `OPERATIONS` lists them, and a test checks each against the document.
 * Errors: ApiError for a non-2xx answer (its APIError body and request id),
 * ConnectionError when no answer came.
 */
import { ApiError, ConnectionError, apiErrorOf } from './errors.js';
import type {
  AuditEntry,
  Binding,
  BindingInput,
  Gateway,
  Provider,
  ProviderInput,
  Service,
  ServiceInput,
  ClusterInfo,
  FileEntry,
  Instance,
  InstanceManager,
  Job,
  JobHealth,
  JobInput,
  LogEvent,
  MetricAnswer,
  Package,
  PackageInput,
  PolicyDocument,
  Runtime,
  StagingPipeline,
  Task,
  TokenGrant,
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
    const cookies = typeof res.headers.getSetCookie === 'function' ? res.headers.getSetCookie() : [res.headers.get('set-cookie') ?? ''];
    for (const c of cookies) {
      const m = /^userinfo=([^;]+)/.exec(c);
      if (m) {
        try {
          grant.user = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(m[1]!), (ch) => ch.charCodeAt(0)))) as TokenGrant['user'];
        } catch {
          // a cookie we cannot read leaves `user` out
        }
      }
    }
    return grant;
  }

  // ---- cluster ----------------------------------------------------------------------------

  info = () => this.json<ClusterInfo>('GET', '/v1/info');
  version = () => this.json<VersionInfo>('GET', '/v1/version');
  runtimes = () => this.json<Runtime[]>('GET', '/v1/runtimes');
  instanceManagers = () => this.json<InstanceManager[]>('GET', '/v1/instance_managers');

  // ---- jobs -------------------------------------------------------------------------------

  listJobs = (query: Query = {}) => this.json<Job[]>('GET', '/v1/jobs', { query });
  /** The job of an FQN, or undefined. */
  async findJob(fqn: string): Promise<Job | undefined> {
    return (await this.listJobs({ fqn }))[0];
  }
  getJob = (uuid: string) => this.json<Job>('GET', `/v1/jobs/${enc(uuid)}`);
  createJob = (job: JobInput) => this.json<Job>('POST', '/v1/jobs', { json: job });
  putJob = (uuid: string, job: JobInput, ifMatch?: number) =>
    this.json<Job>('PUT', `/v1/jobs/${enc(uuid)}`, { json: job, ...(ifMatch === undefined ? {} : { headers: { 'If-Match': `"${ifMatch}"` } }) });
  /** A JSON Merge Patch of the job: only the fields it names change. */
  patchJob = (uuid: string, patch: Record<string, unknown>, ifMatch?: number) =>
    this.json<Job>('PATCH', `/v1/jobs/${enc(uuid)}`, {
      json: patch,
      headers: { 'Content-Type': 'application/merge-patch+json', ...(ifMatch === undefined ? {} : { 'If-Match': `"${ifMatch}"` }) },
    });
  deleteJob = async (uuid: string) => void (await this.request('DELETE', `/v1/jobs/${enc(uuid)}`));
  jobHealth = (uuids: readonly string[]) => this.json<JobHealth[]>('GET', '/v1/jobs/health', { query: { ids: uuids.join(',') } });
  instances = (job: string) => this.json<Instance[]>('GET', `/v1/jobs/${enc(job)}/instances`);
  stopInstance = async (job: string, instance: string) => void (await this.request('DELETE', `/v1/jobs/${enc(job)}/instances/${enc(instance)}`));
  files = (job: string, path = '', instance?: string) =>
    this.json<FileEntry[]>('GET', `/v1/jobs/${enc(job)}/files${path.replace(/^\/*/, '/').replace(/\/$/, '')}`, { query: { instance } });
  /** Every routed endpoint with the uuids of the jobs routed at it. */
  routes = () => this.json<Record<string, string[]>>('GET', '/v1/jobs/routes');

  /** The last `lines` lines of a job's log as text, each `[<short instance id>] line`. */
  async jobLogs(job: string, lines = 100, instance?: string): Promise<string> {
    return (await this.request('GET', `/v1/jobs/${enc(job)}/logs`, { query: { lines, instance }, headers: { Accept: 'text/plain' } })).text();
  }

  /** A live stream of a job's log lines (the last `lines` first) until `signal` aborts it or the server ends it. */
  tailJobLogs(job: string, o: { lines?: number; instance?: string; after?: number; signal?: AbortSignal } = {}): AsyncGenerator<LogEvent> {
    return this.#tail(`/v1/jobs/${enc(job)}/logs`, o);
  }

  // ---- packages ---------------------------------------------------------------------------

  listPackages = (query: Query = {}) => this.json<Package[]>('GET', '/v1/packages', { query });
  getPackage = (uuid: string) => this.json<Package>('GET', `/v1/packages/${enc(uuid)}`);
  createPackage = (pkg: PackageInput) => this.json<Package>('POST', '/v1/packages', { json: pkg });
  deletePackage = async (uuid: string) => void (await this.request('DELETE', `/v1/packages/${enc(uuid)}`));
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

  listPipelines = (fqn?: string) => this.json<StagingPipeline[]>('GET', '/v1/stagingpipelines', { query: { fqn } });
  getPipeline = (uuid: string) => this.json<StagingPipeline>('GET', `/v1/stagingpipelines/${enc(uuid)}`);
  createPipeline = (p: { fqn: string; stagers: { uuid: string }[] }) => this.json<StagingPipeline>('POST', '/v1/stagingpipelines', { json: p });
  putPipeline = (uuid: string, p: { fqn: string; stagers: { uuid: string }[] }) => this.json<StagingPipeline>('PUT', `/v1/stagingpipelines/${enc(uuid)}`, { json: p });
  deletePipeline = async (uuid: string) => void (await this.request('DELETE', `/v1/stagingpipelines/${enc(uuid)}`));

  // ---- audit, policy, users ----------------------------------------------------------------

  audit = (query: Query = {}) => this.json<AuditEntry[]>('GET', '/v1/audit', { query });
  auditEvents = () => this.json<string[]>('GET', '/v1/audit/events');
  listPolicies = () => this.json<PolicyDocument[]>('GET', '/v1/policy');
  getPolicy = (name: string, version?: number) => this.json<PolicyDocument & { version: number }>('GET', `/v1/policy/${enc(name)}`, { query: { version } });
  putPolicies = (docs: { name: string; text: string; for_version: number; description?: string }[]) =>
    this.json<PolicyDocument[]>('PUT', '/v1/policy', { json: { docs } });
  listUsers = () => this.json<User[]>('GET', '/v1/users');
  setUserPassword = (name: string, password: string) => this.json<User>('PUT', `/v1/users/${enc(name)}`, { json: { password } });
  deleteUser = async (name: string) => void (await this.request('DELETE', `/v1/users/${enc(name)}`));

  // ---- manifests, tasks, metric queries ------------------------------------------------------

  /** Deploys a manifest (`{manifest, variables}` or the manifest itself) in a task; answers the task's URL. */
  deployManifest = (body: Record<string, unknown>) => this.json<{ location: string }>('POST', '/v1/manifests', { json: body });
  /** What a manifest would do, without doing it. */
  expandManifest = (body: Record<string, unknown>) => this.json<Record<string, unknown>>('POST', '/v1/manifests/expansion', { json: body });
  /** A task with its events (`after`: only events after that UNIX time in nanoseconds). */
  getTask = (uuid: string, after?: number) => this.json<Task>('GET', `/v1/tasks/${enc(uuid)}`, { query: { time: after } });
  /** Metric queries (`<target>,<metric>[:<function>-<interval>][,<from>[,<until>]]`) of jobs, namespaces or instance managers. */
  metrics = (kind: 'jobs' | 'namespaces' | 'instance_managers', queries: readonly string[]) =>
    this.json<MetricAnswer>('GET', `/v1/metrics/${kind}`, { query: { metric: queries } });

  // ---- gateways, providers, services, bindings -----------------------------------------------

  listGateways = () => this.json<Gateway[]>('GET', '/v1/gateways');
  /** Promotes a job (with a RUNNING instance) to the gateway of a service type. */
  promoteGateway = (jobFqn: string, type: string) => this.json<Gateway>('POST', '/v1/gateways', { json: { job_fqn: jobFqn, type } });
  /** Demotes the gateway of a type; refused while services of the type exist, unless `force`. */
  demoteGateway = async (type: string, force = false) => void (await this.request('DELETE', `/v1/gateways/${enc(type)}`, { query: { force } }));
  listProviders = () => this.json<Provider[]>('GET', '/v1/providers');
  getProvider = (uuid: string) => this.json<Provider>('GET', `/v1/providers/${enc(uuid)}`);
  createProvider = (p: ProviderInput) => this.json<Provider>('POST', '/v1/providers', { json: p });
  deleteProvider = async (uuid: string, force = false) => void (await this.request('DELETE', `/v1/providers/${enc(uuid)}`, { query: { force } }));
  listServices = () => this.json<Service[]>('GET', '/v1/services');
  getService = (uuid: string) => this.json<Service>('GET', `/v1/services/${enc(uuid)}`);
  createService = (svc: ServiceInput) => this.json<Service>('POST', '/v1/services', { json: svc });
  deleteService = async (uuid: string, force = false) => void (await this.request('DELETE', `/v1/services/${enc(uuid)}`, { query: { force } }));
  /** Binds a job to a service (`service_fqn`) or links it to another job (`target_job_fqn`). */
  bind = (b: BindingInput) => this.json<Binding>('POST', '/v1/bindings', { json: b });
  unbind = async (job: string, service: string, force = false) => void (await this.request('POST', '/v1/unbind', { json: { job, service, ...(force ? { force } : {}) } }));
  unlink = async (fromJob: string, toJob: string, port?: number) =>
    void (await this.request('POST', '/v1/unlink', { json: { from_job: fromJob, to_job: toJob, ...(port === undefined ? {} : { port }) } }));

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
