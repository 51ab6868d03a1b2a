/**
 * The controller process: storage, actors, the REST API. One `Controller`
 * is started with `startController` and stopped with `stop()` (graceful, then
 * forced after the grace period); `closed` resolves when it has stopped.
 */
import { randomBytes } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { Counter } from 'prom-client';
import { isIP, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Deps } from './context.js';
import { AgentDirectory, DEFAULT_INSTANCE_SUBNET_POOL, DEFAULT_INSTANCE_SUBNET_PREFIX } from './agents/agent-directory.js';
import { AgentServer } from './agents/agent-server.js';
import { AuditLog } from './audit/audit-log.js';
import { AuditRetention } from './audit/audit-retention.js';
import { MetricStore } from './metrics/metric-store.js';
import { metricEndpoints } from './metrics/metric-routes.js';
import { DEFAULT_RESOLUTIONS, type Resolution } from './metrics/series.js';
import { auditEndpoints } from './audit/audit-routes.js';
import { InFlight } from './api/middleware.js';
import { Parts } from './util/parts.js';
import type { Detach, SharedListener } from './util/shared-listener.js';
import { ClientAddressProof } from './api/client-address.js';
import { answerClientErrors, createApiApp, MAX_HEADER_BYTES, servedRoutes } from './api/server.js';
import { routeUpgrades } from './api/websocket.js';
import type Koa from 'koa';
import { authEndpoints } from './auth/auth-routes.js';
import { authenticate } from './auth/authenticate.js';
import { ADMIN_USER, bootstrapAdmin } from './auth/bootstrap.js';
import { LdapAuthenticator, type LdapOptions } from './auth/ldap.js';
import { IdentityProvider, type IdpOptions } from './auth/idp.js';
import { deviceFlowEndpoints } from './auth/device-flow.js';
import { AppTokens } from './auth/app-tokens.js';
import { LoginRefusals } from './auth/login-refusals.js';
import { TokenService } from './auth/tokens.js';
import { UserService } from './auth/users.js';
import { BlobStore } from './blobs/blob-store.js';
import { clusterEndpoints } from './cluster/cluster-routes.js';
import { MINIMUM_CLIENT_VERSION, CONTROLLER_VERSION } from './cluster/version.js';
import { CliDownloads, cliDownloadEndpoints, DEFAULT_CLI_DOWNLOADS_DIR } from './cluster/cli-downloads.js';
import { instanceEndpoints } from './instances/instance-routes.js';
import { InstanceSnapshots, instanceSnapshotEndpoints } from './instances/instance-snapshot.js';
import { AgentReports } from './instances/agent-reports.js';
import { jobEndpoints } from './jobs/job-routes.js';
import { ServiceCatalog } from './services/catalog.js';
import { LinkFeed } from './services/link-feed.js';
import { DEFAULT_SUBNET_POOL, DEFAULT_SUBNET_PREFIX, NetworkCatalog } from './networks/network-catalog.js';
import { networkEndpoints } from './networks/network-routes.js';
import { serviceEndpoints } from './services/service-routes.js';
import { packageLogEndpoints } from './logs/log-routes.js';
import { LogStore } from './logs/log-store.js';
import { DrainFeed } from './logs/drain-feed.js';
import { EgressFeed } from './networks/egress-feed.js';
import { OUTBOUND_SERVICE_FQN } from './model/outbound.js';
import { Autoscaler } from './metrics/autoscaler.js';
import { RequestStatsTee } from './metrics/request-stats.js';
import { AUTOSCALER_PRINCIPAL } from './model/job.js';
import { autoscaleObserver } from './metrics/autoscale-sources.js';
import { drainEndpoints } from './logs/drain-routes.js';
import { JobService, StartedJobs } from './jobs/job-service.js';
import { DestinationPolicy, FdSink, JsonLogger, parseHostPort, type AllowEntry, type Logger, type LogLevel } from '@platform/proto/common';
import { createControllerMetrics, type ControllerMetrics } from './telemetry/controller-metrics.js';
import { packageEndpoints } from './packages/package-routes.js';
import { InstancePackages } from './packages/instance-packages.js';
import { PackageService } from './packages/package-service.js';
import { PipelineService } from './staging/pipeline.js';
import { accessControl, usable } from './policy/access.js';
import { ReferenceResolver } from './policy/references.js';
import { policyEndpoints } from './policy/policy-routes.js';
import { PolicyService } from './policy/policy-service.js';
import { QuotaService } from './quotas/quota-service.js';
import { SecretCipher } from './secrets/secret-cipher.js';
import { SecretService } from './secrets/secret-service.js';
import { secretEndpoints } from './secrets/secret-routes.js';
import { quotaEndpoints } from './quotas/quota-routes.js';
import { ForbiddenError } from './errors.js';
import { stagingEndpoints } from './staging/staging-routes.js';
import { BUILTIN_PRINCIPAL, probeHost, registerBuiltins } from './staging/builtins/register-builtins.js';
import { locateGatewaySdk, registerBuiltinGateways } from './services/builtin-gateways.js';
import { StagingCoordinator } from './staging/coordinator/staging-coordinator.js';
import { stagerEndpoints } from './staging/coordinator/stager-api.js';
import { AgentStagerLauncher } from './staging/agent-launcher.js';
import { LocalStagerLauncher } from './staging/local-launcher.js';
import type { StagerLauncher, StagingLogSink } from './staging/stager-launcher.js';
import { DependencyResolver } from './packages/dependencies.js';
import { dependencyEndpoints } from './packages/dependency-routes.js';
import { InstrumentedStore } from './store/instrumented-store.js';
import { keys } from './store/keys.js';
import { DEFAULT_INLINE_COMMIT_MS, RocksStore } from './store/rocks-store.js';
import type { EtcdStore, EtcdStoreOptions } from './store/etcd-store.js';
import type { ControllerStatus } from './store/leadership.js';
import { RouteService } from './router/route-service.js';
import { routeEndpoints } from './router/router-routes.js';
import { Router, type RouterTlsOptions } from './router/proxy/router.js';
import { RouteWatchService } from './router/route-watch.js';
import { RequestStats, type RequestStatsSource } from './router/request-stats.js';
import { TaskService } from './tasks/task-service.js';
import { ContainerService } from './images/container-service.js';
import { containerEndpoints } from './images/container-routes.js';
import { ManifestService } from './manifests/manifest-service.js';
import { manifestEndpoints } from './manifests/manifest-routes.js';
import { serviceKinds } from './manifests/service-kinds.js';
import { networkKinds } from './manifests/network-kinds.js';
import { taskEndpoints } from './tasks/task-routes.js';
import type { Store } from './store/store.js';
import { SystemClock, type Clock } from './util/clock.js';
import { randomIds, type IdSource } from './util/ids.js';
import { checkingIntervalMs, DEFAULT_HTTP_LIMITS, limitRequests, type HttpLimits } from './util/http-limits.js';
import { RequestTimeoutError } from './errors.js';
import type { HostPort } from '@platform/proto/common';
import type { ApiState, Endpoint } from './api/endpoint.js';
import { openApiEndpoint } from './api/openapi.js';
import { consoleEndpoints } from './console/console-routes.js';
import { consoleSite } from './console/console-site.js';

export type { HostPort };

/** What an operator or a test may set. Everything but `dataDir` has a default. */
export interface ControllerOptions {
  dataDir: string;
  /** API and auth hosts. Default 127.0.0.1:8080; port 0 picks a free port. */
  listen?: HostPort;
  /** Where agents dial in. Default 127.0.0.1:7070. */
  grpcListen?: HostPort;
  /**
   * The embedded router's HTTP listener; `none` (the default of the library; the binary's is
   * 127.0.0.1:8000) runs no router in this process.
   */
  routerListen?: HostPort | 'none';
  /** The ports `tcp://auto` routes take. Default 30000-30999. */
  routerTcpPorts?: { from: number; to: number };
  /**
   * The IP address that clients reach the routers at, named in the endpoints `tcp://auto` makes
   * (`tcp://<address>:<port>`): for routers that listen on 0.0.0.0 or behind NAT. Default: the
   * embedded router's listen address, 127.0.0.1 when that is a wildcard or there is no router.
   */
  routerAdvertiseAddress?: string;
  /** The embedded router's HTTPS listener and certificates (PEM); none when absent. */
  routerTls?: RouterTlsOptions;
  /** Cluster domain: `api.<domain>` and `<mechanism>auth.<domain>` select handlers. */
  domain?: string;
  /** The bootstrap administrator's password on first start; generated when absent. */
  adminPassword?: string;
  adminEmail?: string;
  clusterName?: string;
  logLevel?: LogLevel;
  /** fsync the store's log and each archive before acknowledging. Default true. */
  sync?: boolean;
  /**
   * With sync: the store commits on the main thread while its commits average at most this many
   * ms, and on its writer thread when slower (0: always the writer thread). Default 5.
   */
  inlineCommitMs?: number;
  /** How long an actor stays in memory without messages. Default 60 s. */
  actorIdleMs?: number;
  /** Jobs, and packages, kept in the read caches. Default 10,000 each. */
  cacheSize?: number;
  /** Audit items older than this many seconds are deleted; 0 keeps them for ever. Default 90 days. */
  auditRetentionSeconds?: number;
  /**
   * Resolutions and retention of instance usage series (metrics/series.ts): default
   * `10s:24h,1m:7d,1h:365d` (PLATFORM_METRICS_RETENTION, --metrics-retention).
   */
  metricsRetention?: readonly Resolution[];
  /**
   * The cluster's records in etcd instead of this controller's RocksDB (`--store etcd://...`);
   * metric series and log lines stay in the local RocksDB either way.
   */
  etcd?: EtcdStoreOptions;
  /**
   * With etcd: seconds the leading controller's lease lives without keep-alives, the longest a
   * dead leader holds the lead before another takes over (PLATFORM_ETCD_LEASE_TTL). Default 5.
   */
  leaseTtlSeconds?: number;
  /**
   * Package archives and image layers, content-addressed (PLATFORM_BLOB_DIR). Default
   * `<data-dir>/blobs`; controllers that share etcd share this directory too (a shared mount),
   * so that an archive one of them took is there for the next.
   */
  blobDir?: string;
  /**
   * Set by ControllerNode (node.ts) for each term in which this controller leads the others on
   * etcd: the stores are the node's (neither opened nor closed here), and `controllers` lists
   * the controllers for /cluster/admin.
   */
  term?: ControllerTerm;
  /** Largest JSON request body. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * How long a client may take to send a request, on the API and the embedded router
   * (util/http-limits.ts; PLATFORM_HTTP_HEADERS_TIMEOUT_MS, PLATFORM_HTTP_BODY_IDLE_TIMEOUT_MS,
   * PLATFORM_HTTP_REQUEST_TIMEOUT_MS, PLATFORM_HTTP_KEEP_ALIVE_TIMEOUT_MS). Defaults: 20 s for the
   * head, 30 s without a byte of a body, one hour for the whole request, 65 s for an idle
   * keep-alive connection.
   */
  httpLimits?: Partial<HttpLimits>;
  /** Largest package archive. Default 4 GiB. */
  maxPackageBytes?: number;
  /** How archives made from container images code their compressible layers (PLATFORM_IMAGE_ARCHIVE_COMPRESSION). Default `huffman`. */
  imageArchiveCompression?: 'huffman' | 'stored';
  /** Bytes of image layers kept for later pulls (PLATFORM_IMAGE_LAYER_CACHE_BYTES). Default 10 GiB. */
  imageLayerCacheBytes?: number;
  /** How long `stop()` waits for requests in flight. Default 10 s. */
  stopGraceMs?: number;
  buildId?: string;
  /** The command-line client's archives (cli/scripts/build-downloads.mjs). Default: cli/downloads of this repository. */
  cliDownloadsDir?: string;
  /** The secret agents present to join. Default: made on first start, kept in DATA_DIR/join-token. */
  joinToken?: string;
  /** How often agents send heartbeats. Default 2 s. */
  heartbeatIntervalMs?: number;
  /** An agent not heard of for this long is lost and its instances move. Default 10 s. */
  agentLostAfterMs?: number;
  /** LDAP authentication on `ldapauth.<domain>` (and grant_type=ldap_basic); off when absent. */
  ldap?: LdapOptions;
  /**
   * The key secrets are encrypted with at rest: a file holding 32 bytes as base64 or hex
   * (PLATFORM_SECRETS_KEY_FILE). Default: made on first start, kept in DATA_DIR/secrets.key (0600).
   */
  secretsKeyFile?: string;
  /** External OpenID Connect providers users log in with (device flow); none by default. */
  identityProviders?: IdpOptions[];
  /** How long an app token lives (PLATFORM_APP_TOKEN_TTL_SECONDS); renewed at half of it. Default 900. */
  appTokenTtlSeconds?: number;
  /** A stager run longer than this is stopped and its package fails. Default 10 minutes. */
  stagerTimeoutMs?: number;
  /** The IPv4 block virtual networks get their subnets from. Default 10.224.0.0/12. */
  networkSubnetPool?: string;
  /** The prefix length of each network's subnet from the pool. Default 24. */
  networkSubnetSize?: number;
  /** The IPv4 block agents' instance subnets are carved from (instances' own networks). Default 10.192.0.0/12. */
  agentSubnetPool?: string;
  /** The prefix length of each agent's instance subnet. Default 24. */
  agentSubnetSize?: number;
  /** Bound of one call to a service gateway, connection included. Default 30 s. */
  gatewayTimeoutMs?: number;
  /**
   * How much longer a create at a gateway that timed out is waited for, so that what the
   * gateway made is deleted again when its answer comes. Default 10 minutes; 0: not waited for.
   */
  gatewayLateAnswerMs?: number;
  /** Base of STAGER_URL as stager instances reach the API; default the API's own URL. */
  stagerBaseUrl?: string;
  /** Register the built-in os, runtime and stager packages, stager jobs and pipelines. Default true. */
  builtins?: boolean;
  /**
   * What image pulls may reach although the destination rule refuses it by default (loopback,
   * link-local, this controller's own addresses; @platform/proto/common destinations): hosts,
   * addresses and CIDR blocks, each with an optional port (--allowed-registries). Default none.
   */
  allowedRegistries?: readonly AllowEntry[];
  /** The same for log drains and autoscaling http_metric urls (--allowed-destinations). Default none. */
  allowedDestinations?: readonly AllowEntry[];
  /** Refuse private addresses (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) to all of them too. Default false. */
  refusePrivateDestinations?: boolean;
  /**
   * What runs stager instances: the agents (the default: one-off instances of the
   * stager job placed by the scheduler), another launcher, `local` (child processes
   * on this host, for development and tests), or `none` (packages wait in `staging`).
   */
  stagerLauncher?: StagerLauncher | 'local' | 'none';
  /** Where staging output goes; default the controller's log. */
  stagingLogSink?: StagingLogSink;
  /**
   * Where the metric store takes per-job request windows from (requests_per_second,
   * request_latency series, autoscaling); default the controller's own request stats (its
   * embedded router and the platform-routers that report to it).
   */
  requestStats?: RequestStatsSource;
  // Injected for tests; defaults are the real ones.
  log?: Logger;
  clock?: Clock;
  ids?: IdSource;
  metrics?: ControllerMetrics;
}

/** One term of a controller among several on etcd (see ControllerOptions.term). */
export interface ControllerTerm {
  rocks: RocksStore;
  etcd: EtcdStore;
  controllers: () => Promise<ControllerStatus[]>;
  /** The key the controllers prove a client's address with on what a standby sends on (api/client-address.ts). */
  clientAddressKey: Buffer;
  /**
   * The API address, bound by the node for the whole process (its standby front answers it
   * between terms): the term's API is attached to it instead of listening, so that the address
   * never refuses connections while the lead changes hands.
   */
  api?: SharedListener;
  /**
   * Frees the agents' port, which the node's standby front holds until then: called just before
   * the agents' endpoint binds it, so that agents dialing while the state loads are held at the
   * front (answered once this controller serves) rather than refused.
   */
  releaseAgentsPort?: () => Promise<void>;
}

export type ResolvedControllerOptions = Required<
  Omit<ControllerOptions, 'adminPassword' | 'joinToken' | 'log' | 'clock' | 'ids' | 'metrics' | 'ldap' | 'secretsKeyFile' | 'identityProviders' | 'appTokenTtlSeconds' | 'stagerLauncher' | 'stagingLogSink' | 'routerTls' | 'routerAdvertiseAddress' | 'requestStats' | 'httpLimits' | 'etcd' | 'term'>
> &
  Pick<ControllerOptions, 'adminPassword' | 'joinToken' | 'ldap' | 'secretsKeyFile' | 'identityProviders' | 'appTokenTtlSeconds' | 'stagerLauncher' | 'stagingLogSink' | 'routerTls' | 'routerAdvertiseAddress' | 'requestStats' | 'etcd'> & { httpLimits: HttpLimits };

export const DEFAULT_AUDIT_RETENTION_SECONDS = 90 * 86_400;

export function resolveControllerOptions(o: ControllerOptions): ResolvedControllerOptions {
  return {
    dataDir: resolve(o.dataDir),
    listen: o.listen ?? { host: '127.0.0.1', port: 8080 },
    grpcListen: o.grpcListen ?? { host: '127.0.0.1', port: 7070 },
    routerListen: o.routerListen ?? 'none',
    routerTcpPorts: o.routerTcpPorts ?? { from: 30000, to: 30999 },
    ...(o.routerTls ? { routerTls: o.routerTls } : {}),
    ...(o.routerAdvertiseAddress ? { routerAdvertiseAddress: o.routerAdvertiseAddress } : {}),
    domain: o.domain ?? '',
    ...(o.adminPassword ? { adminPassword: o.adminPassword } : {}),
    adminEmail: o.adminEmail ?? '',
    clusterName: o.clusterName ?? 'platform',
    logLevel: o.logLevel ?? 'info',
    sync: o.sync ?? true,
    inlineCommitMs: o.inlineCommitMs ?? DEFAULT_INLINE_COMMIT_MS,
    actorIdleMs: o.actorIdleMs ?? 60_000,
    cacheSize: o.cacheSize ?? 10_000,
    auditRetentionSeconds: o.auditRetentionSeconds ?? DEFAULT_AUDIT_RETENTION_SECONDS,
    metricsRetention: o.metricsRetention ?? DEFAULT_RESOLUTIONS,
    maxBodyBytes: o.maxBodyBytes ?? 1024 * 1024,
    httpLimits: { ...DEFAULT_HTTP_LIMITS, ...o.httpLimits },
    ...(o.etcd ? { etcd: o.etcd } : {}),
    leaseTtlSeconds: o.leaseTtlSeconds ?? 5,
    blobDir: resolve(o.blobDir ?? join(o.dataDir, 'blobs')),
    maxPackageBytes: o.maxPackageBytes ?? 4 * 1024 * 1024 * 1024,
    imageArchiveCompression: o.imageArchiveCompression ?? 'huffman',
    imageLayerCacheBytes: o.imageLayerCacheBytes ?? 10 * 1024 * 1024 * 1024,
    stopGraceMs: o.stopGraceMs ?? 10_000,
    buildId: o.buildId ?? 'dev',
    cliDownloadsDir: o.cliDownloadsDir ?? DEFAULT_CLI_DOWNLOADS_DIR,
    ...(o.joinToken ? { joinToken: o.joinToken } : {}),
    heartbeatIntervalMs: o.heartbeatIntervalMs ?? 2_000,
    agentLostAfterMs: o.agentLostAfterMs ?? 10_000,
    ...(o.ldap ? { ldap: o.ldap } : {}),
    ...(o.secretsKeyFile ? { secretsKeyFile: o.secretsKeyFile } : {}),
    ...(o.identityProviders?.length ? { identityProviders: o.identityProviders } : {}),
    ...(o.appTokenTtlSeconds ? { appTokenTtlSeconds: o.appTokenTtlSeconds } : {}),
    stagerTimeoutMs: o.stagerTimeoutMs ?? 10 * 60_000,
    stagerBaseUrl: o.stagerBaseUrl ?? '',
    gatewayTimeoutMs: o.gatewayTimeoutMs ?? 30_000,
    gatewayLateAnswerMs: o.gatewayLateAnswerMs ?? 10 * 60_000,
    networkSubnetPool: o.networkSubnetPool ?? DEFAULT_SUBNET_POOL,
    networkSubnetSize: o.networkSubnetSize ?? DEFAULT_SUBNET_PREFIX,
    agentSubnetPool: o.agentSubnetPool ?? DEFAULT_INSTANCE_SUBNET_POOL,
    agentSubnetSize: o.agentSubnetSize ?? DEFAULT_INSTANCE_SUBNET_PREFIX,
    builtins: o.builtins ?? true,
    allowedRegistries: o.allowedRegistries ?? [],
    allowedDestinations: o.allowedDestinations ?? [],
    refusePrivateDestinations: o.refusePrivateDestinations ?? false,
    ...(o.stagerLauncher ? { stagerLauncher: o.stagerLauncher } : {}),
    ...(o.stagingLogSink ? { stagingLogSink: o.stagingLogSink } : {}),
    ...(o.requestStats ? { requestStats: o.requestStats } : {}),
  };
}

const SCHEMA_VERSION = 1;

/** The operator's settings that allow more destinations, as refusals name them. */
export const ALLOWED_REGISTRIES_SETTING = '--allowed-registries (PLATFORM_ALLOWED_REGISTRIES)';
export const ALLOWED_DESTINATIONS_SETTING = '--allowed-destinations (PLATFORM_ALLOWED_DESTINATIONS)';

/** The API app behind each controller's server, for servedRoutes(). */
const API_APPS = new WeakMap<Server, Koa<ApiState>>();
/** API servers attached to a node's shared listener (not listening themselves): their address, and how they detach. */
const ATTACHED_APIS = new WeakMap<Server, { address: AddressInfo; detach: Detach }>();

/** Where the API server answers: its own bound address, or the shared listener's it is attached to. */
function apiAddress(server: Server): AddressInfo {
  return ATTACHED_APIS.get(server)?.address ?? (server.address() as AddressInfo);
}

export class Controller {
  #stopping: Promise<void> | undefined;
  readonly #closed: Promise<void>;
  #markClosed!: () => void;

  private constructor(
    readonly options: ResolvedControllerOptions,
    readonly log: Logger,
    readonly metrics: ControllerMetrics,
    /** Closes the stores (etcd's client, then the local RocksDB). */
    private readonly closeStores: () => Promise<void>,
    private readonly server: Server,
    readonly jobs: JobService,
    readonly packages: PackageService,
    readonly staging: StagingCoordinator,
    readonly resolver: DependencyResolver,
    readonly pipelines: PipelineService,
    /** What bodies may refer to; `references.trusted()` for writes of the controller's own. */
    readonly references: ReferenceResolver,
    /** What runs, each part named: stopped in STOP_ORDER, before the stores close. */
    private readonly parts: Parts,
    /** The embedded router, unless `routerListen` is `none`. */
    readonly router: Router | undefined,
    /**
     * Requests per job through every router (the embedded one and the standalone ones that
     * report), since the previous drain: for metric queries and autoscaling.
     */
    readonly requestStats: RequestStatsSource,
    /** Asynchronous operations (tasks/): their streams end before the API closes. */
    readonly tasks: TaskService,
  ) {
    this.#closed = new Promise((resolve) => (this.#markClosed = resolve));
  }

  /** Every route the REST API serves (method, router path without `/v1`), for the check of its OpenAPI document. */
  servedRoutes(): { method: string; path: string }[] {
    const app = API_APPS.get(this.server);
    return app ? servedRoutes(app) : [];
  }

  /** The API's base URL, e.g. http://127.0.0.1:8080 */
  get url(): string {
    const address = apiAddress(this.server);
    // A wildcard bind is reachable on loopback; show a URL that a local client can use.
    const ip = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
    const host = address.family === 'IPv6' ? `[${ip}]` : ip;
    return `http://${host}:${address.port}`;
  }

  /** Resolves once the controller has stopped. */
  get closed(): Promise<void> {
    return this.#closed;
  }

  /**
   * Opens the stores, then starts in four steps, each a function below: `prepare` (schema, audit
   * log, blob store), `startAccess` (administrator, tokens, users, policy), `startWorkloads`
   * (the services and their actors, restored from the store) and `serve` (the agents' endpoint,
   * the router, the API). The parts (util/parts.ts), each declared with its start and its stop,
   * start in this order:
   *
   *   login-refusals -> audit-retention -> logs -> service-catalog -> agents -> metric-store ->
   *   autoscaler -> app-tokens -> staging -> jobs -> packages -> tasks -> route-watch ->
   *   agent-server -> router -> api
   *
   * A part that fails to start stops those started (hurried) and the start fails with a
   * PartStartError naming it; `stop()` stops them in STOP_ORDER. On etcd the node (node.ts) runs
   * one start for each term in which this controller leads, and its stop when the term ends.
   */
  static async start(userOptions: ControllerOptions): Promise<Controller> {
    const options = resolveControllerOptions(userOptions);
    const log = userOptions.log ?? new JsonLogger(new FdSink(1), options.logLevel, { component: 'controller' });
    const metrics = userOptions.metrics ?? createControllerMetrics();
    const clock = userOptions.clock ?? new SystemClock();
    const ids = userOptions.ids ?? randomIds;

    const term = userOptions.term;
    if (options.etcd && !term) throw new Error('a controller on etcd is one of several: start it with ControllerNode.start (node.ts)');
    await mkdir(options.dataDir, { recursive: true });
    // With etcd the node (node.ts) holds the stores across its terms; a single controller opens its own.
    const rocks = term?.rocks ?? (await openLocalStore(options, log));
    // Each controller's own RocksDB keeps its high-volume data (metric series, log lines); the
    // cluster's records go to etcd when one is given (docs/architecture.md: what lives where).
    const local = new InstrumentedStore(rocks, metrics.storeDuration);
    const etcd = term?.etcd;
    const store = etcd ? new InstrumentedStore(etcd, metrics.storeDuration) : local;
    const closeStores = async () => {
      if (!term) await local.close();
    };
    metrics.gaugeFrom('platform_store_commit_thread', 'Where store commits are made now: 1 for that thread (main or writer), 0 for the other.', 'thread', () => {
      const main = rocks.commitPath === 'inline' ? 1 : 0;
      return { main, writer: 1 - main };
    });
    // Each part, once it runs: what stop() stops (in STOP_ORDER), and what a failed start stops.
    const parts = new Parts(log);
    try {
      const b = await prepare({ options, userOptions, log, metrics, clock, ids, term, store, local, etcd });
      const access = await startAccess(b, parts);
      const work = await startWorkloads(b, access, parts);
      const { grpcPort, router, server } = await serve(b, access, work, parts);
      const { jobs, packages, staging, resolver, pipelines, references, requestTee, tasks, restoredPackages } = work;
      const controller = new Controller(options, log, metrics, closeStores, server, jobs, packages, staging, resolver, pipelines, references, parts, router, requestTee.second, tasks);
      b.addresses.api = controller.url;
      if (term) {
        // A takeover: the stagers ran under the controller that is gone, and their outcome is
        // unknown here; the packages fail, saying why, and are staged again on request.
        for (const uuid of restoredPackages.staging) {
          await packages
            .failStaging(uuid, 'the controller that ran this staging stopped and another took over: its outcome is unknown; stage the package again', { principal: 'controller', requestId: 'takeover' })
            .catch((err: unknown) => log.warn('a staging cut short by the takeover could not be marked failed', { package: uuid, err }));
        }
      } else {
        // Pipelines interrupted by the last stop run again, now that STAGER_URL can be reached.
        for (const uuid of restoredPackages.staging) staging.stage(uuid);
      }
      log.info('controller ready', {
        api: controller.url,
        console: `${controller.url}/console/`,
        grpc: `${options.grpcListen.host.includes(':') ? `[${options.grpcListen.host}]` : options.grpcListen.host}:${grpcPort}`,
        ...(router ? { router: router.address } : {}),
        ...(router?.tlsAddress ? { router_tls: router.tlsAddress } : {}),
        version: CONTROLLER_VERSION,
        data_dir: options.dataDir,
        sync: options.sync,
        store: etcd ? `etcd (${options.etcd!.endpoints.join(',')}, ${etcd.prefix})` : 'rocksdb',
      });
      return controller;
    } catch (err) {
      // Whatever started must stop, or a failed start would leave a process that never exits.
      await parts.stop([], false).catch(() => undefined);
      await closeStores().catch(() => undefined);
      throw err;
    }
  }

  /**
   * Stops every part in STOP_ORDER (a part that fails to stop is logged, the others still
   * stop): stager runs, the agents' endpoint, then the API and the router, letting requests in
   * flight finish (for up to the grace period, then closing their connections), then the
   * actors, their mailboxes drained; then closes the stores. Safe to call more than once.
   */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.log.info('controller stopping');
      try {
        await this.parts.stop(STOP_ORDER);
      } catch (err) {
        // Logged part by part; the stores close all the same.
        this.log.error('the controller did not stop cleanly', { err });
      }
      await this.closeStores();
      this.log.info('controller stopped');
      this.#markClosed();
    })();
    return this.#stopping;
  }
}

/**
 * The order the controller's parts stop in (util/parts.ts): one phase after the other, the parts
 * of a phase together; parts no phase names stop last, in the reverse of their start.
 */
const STOP_ORDER: readonly (readonly string[])[] = [
  // Stager runs first, while agents can still be told to stop them (the next start stages again).
  ['staging'],
  // Agents and standalone routers reconnect to the next controller; instances keep running meanwhile.
  ['agents', 'route-watch'],
  ['agent-server'],
  ['logs'],
  // Asynchronous operations: their streams end before the API closes.
  ['tasks'],
  // The API and the embedded router drain together: requests in flight finish within the grace period.
  ['api', 'router'],
  // What writes to the store, last, once no handler runs.
  ['jobs', 'packages', 'login-refusals', 'audit-retention', 'service-catalog', 'metric-store', 'autoscaler', 'app-tokens'],
];

/** What each step of a controller's start uses: its settings, its stores, and its addresses. */
interface StartBase {
  options: ResolvedControllerOptions;
  userOptions: ControllerOptions;
  log: Logger;
  metrics: ControllerMetrics;
  clock: Clock;
  ids: IdSource;
  term: ControllerTerm | undefined;
  /** The cluster's records: etcd's, or the local store. */
  store: Store;
  /** This controller's own RocksDB (metric series, log lines). */
  local: Store;
  etcd: EtcdStore | undefined;
  deps: Deps;
  audit: AuditLog;
  blobs: BlobStore;
  /** With etcd, another controller may hold an archive this one lacks: never answered as missing. */
  blobsElsewhere: { setting: string; dir: string } | undefined;
  /** The controller's own listening sockets, refused as destinations of what users make it reach; each added once bound. */
  ownListeners: HostPort[];
  /** The other sockets of the platform refused as those (etcd's members, names resolved at start). */
  platformSockets: HostPort[];
  /** The API's URL and the embedded router's address, once they listen. */
  addresses: { api: string; router?: string | undefined };
}

/**
 * etcd's members as sockets (names resolved now, every address): nothing a user makes the
 * platform reach may be one of them, nor may an instance be opened to one.
 */
async function etcdSockets(endpoints: readonly string[], log: Logger): Promise<HostPort[]> {
  const out: HostPort[] = [];
  for (const e of endpoints) {
    let hp: HostPort;
    try {
      hp = parseHostPort(e.replace(/^[a-z]+:\/\//i, ''), 'etcd endpoint');
    } catch {
      continue; // the store refused it already
    }
    if (isIP(hp.host)) {
      out.push(hp);
      continue;
    }
    try {
      for (const a of await dnsLookup(hp.host, { all: true })) out.push({ host: a.address, port: hp.port });
    } catch (err) {
      log.warn('an etcd endpoint does not resolve: its addresses are not refused as destinations', { endpoint: e, error: (err as Error).message });
    }
  }
  return out;
}

/** Checks the schema and opens the audit log and the blob store. */
async function prepare(o: Pick<StartBase, 'options' | 'userOptions' | 'log' | 'metrics' | 'clock' | 'ids' | 'term' | 'store' | 'local' | 'etcd'>): Promise<StartBase> {
  const { options, userOptions, log, clock, ids, store, etcd } = o;
  await checkSchema(store);
  const audit = new AuditLog({ store, clock, ids });
  const deps: Deps = { store, clock, ids, log, audit };
  const blobs = new BlobStore(options.blobDir, { sync: options.sync });
  await blobs.init();
  // With etcd, another controller may hold an archive this one lacks: never answered as missing.
  const blobsElsewhere = etcd ? { setting: 'PLATFORM_BLOB_DIR', dir: options.blobDir } : undefined;
  if (etcd && userOptions.blobDir === undefined) {
    log.warn('the blob directory is this controller\'s own (DATA_DIR/blobs): give every controller that shares etcd the same PLATFORM_BLOB_DIR on a shared mount, or archives taken by one are unavailable at the others', { blob_dir: options.blobDir });
  }

  const platformSockets = await etcdSockets(userOptions.etcd?.endpoints ?? [], log);
  return { ...o, deps, audit, blobs, blobsElsewhere, ownListeners: [], platformSockets, addresses: { api: '' } };
}

/** Who may do what: the administrator, the cluster's identity and token key, users, policy, LDAP and identity providers. */
async function startAccess(b: StartBase, parts: Parts) {
  const { options, log, clock, store, etcd, deps } = b;
  const admin = await bootstrapAdmin(deps, options.dataDir, options.adminPassword);
  if (admin.generatedPassword) {
    process.stderr.write(
      `\nThe bootstrap administrator is "admin" with password: ${admin.generatedPassword}\n` +
        `It is shown this once and kept in ${admin.passwordFile}\n\n`,
    );
    log.info('bootstrap administrator created', { user: ADMIN_USER, password_file: admin.passwordFile });
  } else if (admin.created) {
    log.info('bootstrap administrator created', { user: ADMIN_USER, password_from: 'PLATFORM_ADMIN_PASSWORD' });
  }

  const clusterId = await clusterIdentity(deps);
  const issuer = `urn:platform:cluster:${clusterId}`;
  const tokens = etcd ? await TokenService.fromStore(store, issuer, clock) : await TokenService.open(options.dataDir, issuer, clock);
  const users = new UserService(deps);
  await users.load();
  const refusals = new LoginRefusals(deps);
  await parts.start({ name: 'login-refusals', start: () => refusals.start(), stop: () => refusals.stop() });
  if (options.auditRetentionSeconds > 0) {
    const retention = new AuditRetention(deps, { retentionSeconds: options.auditRetentionSeconds });
    await parts.start({ name: 'audit-retention', start: () => retention.start(), stop: () => retention.stop() });
  }
  const policy = new PolicyService(deps);
  const loadedPolicy = await policy.load({ principal: 'controller', requestId: 'startup' });
  log.info('policy loaded', { documents: loadedPolicy.documents, bootstrapped: loadedPolicy.bootstrapped });
  const ldap = options.ldap ? await LdapAuthenticator.create(options.ldap, { clock, log: log.child({ component: 'ldap' }) }) : undefined;
  if (ldap) log.info('LDAP authentication enabled', ldap.describe());
  const identityProviders = new Map<string, IdentityProvider>();
  // Providers are reached by the rule of outbound addresses (--allowed-destinations), the
  // controller's own listeners (`ownListeners`, filled once bound) refused.
  const idpRule = new DestinationPolicy({
    purpose: 'identity providers',
    setting: ALLOWED_DESTINATIONS_SETTING,
    allow: options.allowedDestinations,
    refusePrivate: options.refusePrivateDestinations,
    listeners: () => b.ownListeners,
    platformSockets: () => b.platformSockets,
  });
  for (const o of options.identityProviders ?? []) {
    const idp = new IdentityProvider(o, log.child({ component: 'idp' }), idpRule);
    if (identityProviders.has(idp.name)) throw new Error(`identity provider ${idp.name} is configured twice`);
    identityProviders.set(idp.name, idp);
    log.info('identity provider trusted', idp.describe());
  }

  return { clusterId, tokens, users, refusals, policy, ldap, identityProviders };
}

type Access = Awaited<ReturnType<typeof startAccess>>;

/**
 * The cluster's work: packages and pipelines, jobs and their instances on the agents, routes,
 * services, networks, secrets, usage series and autoscaling, app tokens, staging, tasks and
 * images; restored from the store, their background parts started.
 */
async function startWorkloads(b: StartBase, access: Access, parts: Parts) {
  const { options, log, metrics, clock, store, local, etcd, deps, blobs, blobsElsewhere } = b;
  const { tokens, policy } = access;
  // Runs while the state loads (registerBuiltins below waits for it); a probe that fails leaves the controller without built-ins.
  const hostProbe = options.builtins ? probeHost(log) : undefined;
  hostProbe?.catch(() => undefined);
  // How long each step of the state's load took, for the log (what a takeover waits for).
  const took: Record<string, number> = {};
  let lapStart = performance.now();
  const lap = (step: string) => {
    const now = performance.now();
    took[step] = Math.round(now - lapStart);
    lapStart = now;
  };
  const actorHooks = (kind: string) => ({
    onActivate: () => metrics.actorActivations.inc({ kind }),
    onPassivate: () => metrics.actorPassivations.inc({ kind }),
  });
  const pipelines = new PipelineService(deps);
  const packages = new PackageService(deps, blobs, pipelines, {
    actorIdleMs: options.actorIdleMs,
    cacheSize: options.cacheSize,
    maxPackageBytes: options.maxPackageBytes,
    onUploadBytes: (n) => metrics.uploadBytes.inc(n),
    ...(blobsElsewhere ? { blobsElsewhere } : {}),
    ...actorHooks('package'),
  });
  const logs = new LogStore(local);
  await parts.start({ name: 'logs', stop: () => logs.close() });
  const agents = new AgentDirectory({
    store,
    clock,
    log,
    heartbeatIntervalMs: options.heartbeatIntervalMs,
    lostAfterMs: options.agentLostAfterMs,
    instanceSubnets: { pool: options.agentSubnetPool, prefix: options.agentSubnetSize },
  });
  // Staging output is the staged package's log: tailable like a job's (GET /packages/{uuid}/logs).
  const stagingSink: StagingLogSink =
    options.stagingLogSink ??
    ((pkg, stream, text) => {
      logs.append(pkg, [{ time_ms: clock.nowMs(), instance: '', stream, text }]).catch((err: unknown) =>
        log.warn('staging output not stored', { package: pkg, err: (err as Error).message }),
      );
    });
  const resolver = new DependencyResolver(store, (ids) => packages.findMany(ids), () => packages.generation);
  const usableBy = usable(policy);
  // Dependencies resolve among the packages the job's principal may use (policy/references.ts).
  const installs = new InstancePackages(store, (ids, principal) => resolver.resolveInstallOrder(ids, { bestEffort: true, ...usableBy(principal) }));
  // The environment of bound jobs comes from the service catalog, made once jobs exist.
  const late: { catalog?: ServiceCatalog; links?: LinkFeed; drains?: DrainFeed; egress?: EgressFeed; networks?: NetworkCatalog; secrets?: SecretService; appTokens?: AppTokens; apiUrl?: () => string } = {};
  const instances = new AgentReports(deps, agents, logs, installs, {
    stagingSink,
    environmentFor: (job) => ({ ...late.catalog?.environmentFor(job), ...late.secrets?.environmentFor(job), ...late.appTokens?.environmentFor(job) }),
    filesFor: (job) => [...(late.secrets?.filesFor(job) ?? []), ...(late.appTokens?.filesFor(job) ?? [])],
    linksFor: (job) => late.links?.linksFor(job) ?? [],
    // Where the job's instances are let through from networks of their own: its bound services,
    // and the API its app token is for (PLATFORM_API_URL).
    endpointsFor: (job) => [...(late.catalog?.endpointsFor(job) ?? []), ...(job.app_token ? urlEndpoint(late.apiUrl?.() ?? '') : [])],
    addressFor: (job, instance) => late.networks?.addressFor(job, instance) ?? (job.network_ref ? { reason: 'networks are not loaded yet' } : {}),
    networkFor: (job, record) => late.networks?.networkFor(job, record),
    // Log drains are sent by the agents holding the instances (logs/drain-feed.ts).
    drainsChanged: (job) => late.drains?.jobChanged(job),
    // And what they may reach outside (networks/egress-feed.ts).
    egressChanged: (job) => late.egress?.jobChanged(job),
    jobDeleted: (job) => {
      late.drains?.jobDeleted(job);
      late.egress?.jobDeleted(job);
    },
  });
  // Without a domain, default routes live under `localhost`, whose names resolve to this host.
  // tcp://auto endpoints name the routers' advertised address; without one, the router's own
  // address (the loopback one when it listens on all, with a warning).
  const wildcard = options.routerListen !== 'none' && ['0.0.0.0', '::'].includes(options.routerListen.host);
  const routerHost = options.routerAdvertiseAddress ?? (options.routerListen === 'none' || wildcard ? '127.0.0.1' : options.routerListen.host);
  if (options.routerAdvertiseAddress !== undefined && isIP(options.routerAdvertiseAddress) === 0) {
    throw new Error(`routerAdvertiseAddress "${options.routerAdvertiseAddress}" is not an IP address`);
  }
  if (wildcard && !options.routerAdvertiseAddress) {
    log.warn('the router listens on every address: tcp://auto endpoints will name 127.0.0.1; give --router-advertise-address for the one clients use', {
      router_listen: options.routerListen,
    });
  }
  // The rules for the addresses users make the platform reach: pulls, drains, http_metric
  // urls. The controller's own listening sockets are refused; each is added once bound.
  const rule = (purpose: string, setting: string, allow: readonly AllowEntry[]) =>
    new DestinationPolicy({ purpose, setting, allow, refusePrivate: options.refusePrivateDestinations, listeners: () => b.ownListeners, platformSockets: () => b.platformSockets });
  const registryRule = rule('image pulls', ALLOWED_REGISTRIES_SETTING, options.allowedRegistries);
  const destinations = {
    drains: rule('log drains', ALLOWED_DESTINATIONS_SETTING, options.allowedDestinations),
    metrics: rule('http_metric urls', ALLOWED_DESTINATIONS_SETTING, options.allowedDestinations),
    providers: rule('provider urls', ALLOWED_DESTINATIONS_SETTING, options.allowedDestinations),
  };
  log.info('destination rules', {
    allowed_registries: registryRule.allowed,
    allowed_destinations: destinations.drains.allowed,
    refuse_private: options.refusePrivateDestinations,
  });
  const routes = new RouteService({ domain: options.domain || 'localhost', tcpPorts: options.routerTcpPorts, streamAddress: routerHost });
  // The instances and the jobs' routes are read at once, two ranges of the store: on etcd each
  // waited on etcd for much of its time, and etcd works on both while this thread parses.
  // The jobs are read once, for their routes and for the started ones that restore activates.
  const storedStarted = new StartedJobs();
  const readJobs = async () => {
    for await (const [, value] of store.iterate({ prefix: keys.jobPrefix })) {
      routes.takeStoredJob(value);
      storedStarted.take(value);
    }
  };
  await Promise.all([instances.load(), readJobs()]);
  lap('instances_and_jobs_read');
  routes.addInstances(instances.table.all());
  instances.table.watch((record, uuid) => routes.instanceChanged(record, uuid));
  // Quotas of policy, enforced on every change that raises a namespace's use (quotas/).
  const quotas = new QuotaService(policy);
  const jobs = new JobService(deps, {
    quotas,
    secrets: {
      hold: (secrets) => {
        if (!late.secrets) throw new Error('secrets are not loaded yet');
        return late.secrets.hold(secrets);
      },
    },
    actorIdleMs: options.actorIdleMs,
    cacheSize: options.cacheSize,
    packageStates: (ids) => packages.states(ids),
    systemPackages: async (ids, principal) =>
      (await resolver.resolveInstallOrder(ids, { bestEffort: true, ...usableBy(principal) }))
        .filter((r) => !ids.includes(r.package.uuid))
        .map((r) => ({ uuid: r.package.uuid, state: r.package.state })),
    run: instances,
    routes,
    destinations,
    ...actorHooks('job'),
  });
  instances.attach(jobs.actors);
  // What bodies may refer to, resolved and authorised in one place (policy/references.ts).
  const references = new ReferenceResolver();
  references.register('job', jobs.referenceLookup());
  references.register('package', packages.referenceLookup());
  references.register('stagpipe', pipelines.referenceLookup());
  const catalog = new ServiceCatalog(deps, jobs, {
    gatewayTimeoutMs: options.gatewayTimeoutMs,
    gatewayLateAnswerMs: options.gatewayLateAnswerMs,
    instancesOf: (job) => instances.table.ofJob(job),
    trusted: references.trusted(),
    onOrphan: (type, kind, outcome) => metrics.gatewayOrphans.inc({ type, kind, outcome }),
    // A gateway job reaches its providers' back-ends from a network of its own (networks/egress-feed.ts).
    reach: (job) => late.egress?.reach(job) ?? Promise.resolve(),
    destinations: destinations.providers,
  });
  await parts.start({
    name: 'service-catalog',
    start: async () => {
      await catalog.load();
      await catalog.ensureOutboundService();
    },
    // Waits for the late answers of gateway creates end at stop (each logged and counted).
    stop: () => catalog.stop(),
  });
  late.catalog = catalog;
  const links = new LinkFeed(instances.table, agents, (id) => jobs.find(id), log.child({ component: 'links' }));
  instances.table.watch((record) => links.instanceChanged(record));
  late.links = links;
  const drainFeed = new DrainFeed(instances.table, agents, (id) => jobs.find(id), log.child({ component: 'log-drains' }));
  instances.table.watch((record) => drainFeed.instanceChanged(record));
  late.drains = drainFeed;
  const egressFeed = new EgressFeed(instances.table, agents, (id) => jobs.find(id), log.child({ component: 'egress' }), (job) => catalog.gatewayEndpoints(job));
  instances.table.watch((record) => egressFeed.instanceChanged(record));
  late.egress = egressFeed;
  const networks = new NetworkCatalog(deps, jobs, instances.table, agents, {
    pool: options.networkSubnetPool,
    prefix: options.networkSubnetSize,
  });
  lap('services');
  await networks.load();
  lap('networks');
  late.networks = networks;
  references.register('network', networks.referenceLookup());
  references.register('service', catalog.referenceLookup('service'));
  references.register('provider', catalog.referenceLookup('provider'));
  // Secrets, encrypted at rest, installed into jobs as variables or files (secrets/).
  // With etcd the key is the cluster's too, or a controller that takes over could not open the secrets.
  const secretCipher = etcd ? await SecretCipher.openShared(store, options.secretsKeyFile) : await SecretCipher.open(options.dataDir, options.secretsKeyFile);
  if (etcd && !options.secretsKeyFile) log.warn('the secrets key is kept in etcd: secret values are as safe as etcd\'s access; give every controller the same PLATFORM_SECRETS_KEY_FILE to keep them safer');
  const secrets = new SecretService(deps, secretCipher, jobs, { trusted: references.trusted() });
  const secretCount = await secrets.load();
  lap('secrets');
  late.secrets = secrets;
  references.register('secret', secrets.referenceLookup());
  const agentLauncher = new AgentStagerLauncher(deps, jobs.actors, installs, agents, instances.table, { stagingSink });
  instances.followRuns(agentLauncher);
  await parts.start({ name: 'agents', start: () => agents.start(instances), stop: () => agents.stop() });
  // What the routers served, per job: kept as series by the metric store, and drained by
  // Controller.requestStats too (each consumer sees every window).
  const requestStats = new RequestStats(() => clock.nowMs());
  const requestTee = new RequestStatsTee(requestStats);
  // Instance usage from the agents, kept as series (GET /metrics/...); flushed at stop.
  const metricStore = new MetricStore({
    store: local, clock, log: log.child({ component: 'metrics' }), registry: metrics.registry,
    jobFqn: async (uuid) => (await jobs.find(uuid))?.fqn,
    resolutions: options.metricsRetention,
    requestStats: options.requestStats ?? requestTee.first,
  });
  agents.setUsageSink(metricStore);
  await parts.start({ name: 'metric-store', start: () => metricStore.start(), stop: () => metricStore.stop() });
  // Autoscaling: started jobs with `autoscaling`, scaled by job updates of the autoscaler.
  const autoscaler = new Autoscaler({
    clock,
    log: log.child({ component: 'autoscaler' }),
    // From memory: listing the store would read and parse every job of the cluster each tick.
    jobs: async () => jobs.startedJobs().filter((j) => j.autoscaling !== null),
    observe: autoscaleObserver({
      metrics: metricStore,
      nowMs: () => clock.nowMs(),
      instancesOf: (job) => instances.table.ofJob(job),
      destinations: destinations.metrics,
      log: log.child({ component: 'autoscaler' }),
    }),
    scale: async (job, wanted, reason) => {
      const current = await jobs.find(job.uuid);
      if (!current) return;
      // Only as far as the quotas leave room; the job's health says when it is held.
      const { to, heldBy } = quotas.fitInstances(current, wanted);
      const say = (text: string) => logs.append(job.uuid, [{ time_ms: clock.nowMs(), instance: '', stream: 'stderr', text: `[${text}]` }]).catch(() => undefined);
      if (heldBy) void say(heldBy);
      if (to === current.num_instances) return to;
      const body = { ...jobs.inputOf(current), num_instances: to };
      try {
        await jobs.update(job.uuid, body, { principal: AUTOSCALER_PRINCIPAL, requestId: 'autoscaler' }, references.trusted(), { mode: 'patch', ifMatch: [current.version_id] });
      } catch (err) {
        // Another change took the room in between.
        if (!(err instanceof ForbiddenError)) throw err;
        quotas.held(job.uuid, err.message);
        void say(`autoscaling held: ${err.message}`);
        return current.num_instances;
      }
      if (to === wanted) void say(reason);
      return to;
    },
  });
  await parts.start({ name: 'autoscaler', start: () => autoscaler.start(), stop: () => autoscaler.stop() });
  // App tokens of jobs that ask for them: in their instances, renewed before they expire.
  const appTokens = new AppTokens({
    tokens,
    nowMs: () => clock.nowMs(),
    findJob: (uuid) => jobs.find(uuid),
    startedJobs: () => jobs.startedJobs(),
    pushFiles: (job, files) => {
      for (const i of instances.table.ofJob(job.uuid)) {
        if (i.state !== 'REMOVED' && i.agent_uuid) agents.send(i.agent_uuid, { instanceFiles: { instanceUuid: i.uuid, files } });
      }
    },
    apiUrl: () => options.stagerBaseUrl || b.addresses.api,
    ...(options.appTokenTtlSeconds ? { ttlSeconds: options.appTokenTtlSeconds } : {}),
  });
  late.appTokens = appTokens;
  late.apiUrl = () => options.stagerBaseUrl || b.addresses.api;
  await parts.start({ name: 'app-tokens', start: () => appTokens.start(), stop: () => appTokens.stop() });
  const stagerLauncher =
    options.stagerLauncher === 'local'
      ? new LocalStagerLauncher({ jobs, resolver, usableBy, sink: stagingSink, log: log.child({ component: 'local-stager' }), workDir: join(options.dataDir, 'stagers') })
      : options.stagerLauncher === 'none'
        ? undefined
        : (options.stagerLauncher ?? agentLauncher);
  const staging = new StagingCoordinator(deps, packages, pipelines, jobs, resolver, {
    launcher: stagerLauncher,
    sink: stagingSink,
    baseUrl: () => options.stagerBaseUrl || b.addresses.api,
    stagerTimeoutMs: options.stagerTimeoutMs,
    usableBy,
  });
  packages.setStagingListener((uuid) => staging.stage(uuid));
  await parts.start({ name: 'staging', stop: () => staging.stop() });
  lap('agents_metrics_staging');
  await pipelines.restore();
  const restoredJobs = await parts.startWith('jobs', () => jobs.restore(instances.liveJobs(), storedStarted), () => jobs.stop());
  lap('started_jobs_activated');
  const restoredPackages = await parts.startWith('packages', () => packages.restore(), () => packages.stop());
  lap('packages');
  if (options.builtins) {
    // A host that cannot be probed still gets a working controller, without built-ins.
    try {
      const builtins = await registerBuiltins({ packages, jobs, pipelines, log, references: references.trusted() }, { host: hostProbe });
      const gateways = await registerBuiltinGateways({ packages, jobs, log, references: references.trusted() }, { principal: BUILTIN_PRINCIPAL, requestId: 'builtins' }, await locateGatewaySdk());
      log.info('built-in packages registered', { ...builtins, gateways });
    } catch (err) {
      log.error('built-in packages could not be registered', { err });
    }
  }
  lap('builtins');
  log.info('state restored', {
    ms: took,
    started_jobs: restoredJobs,
    staging_packages: restoredPackages.restored,
    orphan_blobs_removed: restoredPackages.orphanBlobs,
    secrets: secretCount,
  });

  const tasks = new TaskService(deps);
  const interruptedTasks = await parts.startWith('tasks', () => tasks.restore(), () => tasks.stop());
  if (interruptedTasks > 0) log.info('tasks cut short by the last stop ended errored', { tasks: interruptedTasks });
  const layerBytes = new Counter({ name: 'platform_image_layer_bytes_total', help: 'Bytes of container image layers pulled from registries.', registers: [metrics.registry] });
  const containers = new ContainerService(deps, packages, {
    dir: join(options.dataDir, 'images'),
    registries: registryRule,
    maxPackageBytes: options.maxPackageBytes,
    durable: options.sync,
    archiveCompression: options.imageArchiveCompression,
    layerCacheBytes: options.imageLayerCacheBytes,
    onLayerBytes: (n) => layerBytes.inc(n),
  });
  await containers.init();
  // Services, links and bindings are deployed through the service catalog; a job's drains and
  // autoscaling ride on its body (checked by parseJobInput before anything changes); networks
  // are created and joined through the network catalog. Affinity and ssh join as their
  // capabilities land (manifests/kinds.ts): until then manifests naming them are refused.
  const manifests = new ManifestService(jobs, containers, tasks, { ...serviceKinds(catalog, jobs), ...networkKinds(networks), drains: true, autoscaling: true });

  const registries = [jobs.actors, packages.actors];
  metrics.gaugeFrom('platform_actor_mailbox_depth', 'Messages queued or running in actor mailboxes, by kind.', 'kind', () =>
    Object.fromEntries(registries.map((r) => [r.kind, r.mailboxDepth])),
  );
  metrics.gaugeFrom('platform_tasks_running', 'Asynchronous tasks running, by thread.', 'thread', () => tasks.runningByThread());
  metrics.gaugeFrom('platform_actors_live', 'Actors in memory, by kind.', 'kind', () =>
    Object.fromEntries(registries.map((r) => [r.kind, r.size])),
  );

  return { pipelines, packages, logs, agents, resolver, late, instances, routes, quotas, jobs, references, catalog, networks, secretCipher, secrets, requestStats, requestTee, metricStore, appTokens, staging, restoredPackages, tasks, containers, manifests };
}

type Workloads = Awaited<ReturnType<typeof startWorkloads>>;

/** The API app, then the agents' endpoint, the embedded router and the API's listener. */
async function serve(b: StartBase, access: Access, work: Workloads, parts: Parts) {
  const { options, log, metrics, clock, ids, term, store, deps, audit, blobs, blobsElsewhere } = b;
  const { clusterId, tokens, users, refusals, policy, ldap, identityProviders } = access;
  const { pipelines, packages, logs, agents, resolver, late, instances, routes, quotas, jobs, references, catalog, networks, secretCipher, secrets, requestStats, metricStore, appTokens, staging, tasks, containers, manifests } = work;
  const cliDownloads = await CliDownloads.load(options.cliDownloadsDir, log);
  const inFlight = new InFlight();
  // Handlers that do not end (one waiting for a body that never comes) show here.
  metrics.gaugeFrom('platform_http_requests_in_flight', 'REST API requests whose handlers are running, this scrape included.', 'listener', () => ({ api: inFlight.count }));
  const app = createApiApp({
    site: consoleSite({ routerAddress: () => b.addresses.router }),
    // A standby's proof of its client's address is made by the wall clock of its host: compared with this host's.
    clientAddress: term ? new ClientAddressProof(term.clientAddressKey) : undefined,
    inFlight,
    log,
    metrics,
    ids,
    minimumClientVersion: MINIMUM_CLIENT_VERSION,
    // Authentication, then each request's policy view (ctx.state.access) for the endpoints' checks.
    authenticate: accessControl(policy, audit, references, authenticate(tokens, users, { ldapEnabled: ldap !== undefined, identityProviders: new Set(identityProviders.keys()), appTokenProblem: (claims) => appTokens.problem(claims) })),
    endpoints: withOpenApi([
      ...authEndpoints(tokens, users, audit, refusals, options.domain, options.maxBodyBytes, policy, ldap),
      ...deviceFlowEndpoints(identityProviders, { tokens, policy, audit, sealer: secretCipher, nowMs: () => clock.nowMs() }),
      ...policyEndpoints(policy),
      ...quotaEndpoints(quotas),
      ...secretEndpoints(secrets, options.maxBodyBytes),
      ...auditEndpoints(audit),
      ...instanceEndpoints(jobs, instances, agents, logs, clock, (uuid) => routes.table.announced(uuid)),
      ...routeEndpoints(routes.table),
      ...taskEndpoints(tasks),
      ...containerEndpoints(containers, packages, jobs, tasks, options.maxBodyBytes, async (jobFqn, change, refs) => {
        await late.catalog!.bind({ jobFqn, serviceFqn: OUTBOUND_SERVICE_FQN, name: 'allow_egress', targetJobPort: 0, parameters: { ipnet: '0.0.0.0/0' } }, change, refs);
      }),
      ...manifestEndpoints(manifests, options.maxBodyBytes),
      ...instanceSnapshotEndpoints(jobs, new InstanceSnapshots(deps, packages, agents, instances.table, join(options.dataDir, 'snapshot-tmp'))),
      ...packageLogEndpoints(async (uuid) => (await packages.find(uuid))?.package, logs),
      ...metricEndpoints(metricStore, jobs, agents, () => clock.nowMs()),
      ...drainEndpoints(jobs, options.maxBodyBytes),
      ...jobEndpoints(jobs, options.maxBodyBytes),
      ...serviceEndpoints(catalog, options.maxBodyBytes),
      ...networkEndpoints(networks, options.maxBodyBytes),
      ...packageEndpoints(packages, options.maxBodyBytes),
      ...stagingEndpoints(pipelines, options.maxBodyBytes),
      ...dependencyEndpoints(resolver, options.maxBodyBytes),
      ...stagerEndpoints(staging, packages, join(options.dataDir, 'staging-tmp')),
      ...clusterEndpoints({
        clusterName: options.clusterName,
        domain: options.domain,
        adminName: ADMIN_USER,
        adminEmail: options.adminEmail,
        buildId: options.buildId,
        buildNumber: '0',
        downloads: cliDownloads,
        ...(term ? { controllers: term.controllers } : {}),
      }),
      ...cliDownloadEndpoints(cliDownloads),
      ...consoleEndpoints(),
    ]),
  });
  // gRPC first: a port in use fails the start before the API listens.
  // With etcd the secret is the cluster's, as the records are: a controller that takes over admits the same agents.
  const joinSecret = options.etcd ? await sharedJoinToken(options, store) : await joinToken(options);
  const agentServer = new AgentServer({ directory: agents, blobs, joinSecret, clusterId, log, ...(blobsElsewhere ? { blobsElsewhere } : {}) });
  // Standalone routers follow the route table on the agents' port, with the same secret.
  const routeWatch = new RouteWatchService({ table: routes.table, authorized: (m) => agentServer.authorized(m), requests: requestStats, log });
  agentServer.addService(routeWatch.definition, routeWatch.implementation);
  await parts.start({ name: 'route-watch', stop: () => routeWatch.stop() });
  const grpcPort = await parts.startWith(
    'agent-server',
    async () => {
      await b.term?.releaseAgentsPort?.();
      return listenAgents(agentServer, options.grpcListen);
    },
    (_, graceful) => agentServer.stop(graceful ? 1_000 : 0),
  );
  b.ownListeners.push({ host: options.grpcListen.host, port: grpcPort });
  agents.watch();
  const router =
    options.routerListen === 'none'
      ? undefined
      : await parts.startWith(
          'router',
          () =>
            Router.start({
              listen: options.routerListen as HostPort,
              ...(options.routerTls ? { tls: options.routerTls } : {}),
              feed: (listener) => routes.table.subscribe(listener),
              registry: metrics.registry,
              log: log.child({ component: 'router' }),
              requestId: () => ids.requestId(),
              httpLimits: options.httpLimits,
            }),
          (r, graceful) => r.stop(graceful ? options.stopGraceMs : 0),
        );
  if (router) {
    b.addresses.router = router.address;
    requestStats.attach(router.requests);
    for (const address of [router.address, router.tlsAddress]) if (address) b.ownListeners.push(parseHostPort(address, 'router address'));
  }
  const server = await parts.startWith('api', () => listenApi(app, options, log, ids, b.term?.api), (s) => closeApi(s, inFlight, options.stopGraceMs, log));
  const bound = apiAddress(server);
  b.ownListeners.push({ host: bound.address, port: bound.port });
  return { grpcPort, router, server };
}

/** The agents' endpoint, listening on `listen`; resolves with its port. One that fails to listen is stopped. */
async function listenAgents(server: AgentServer, listen: HostPort): Promise<number> {
  try {
    return await server.listen(listen.host, listen.port);
  } catch (err) {
    await server.stop(0).catch(() => undefined);
    throw err;
  }
}

/** The REST API's HTTP server for `app`, listening on `options.listen`, or attached to `shared` (a node's, which listens there). */
async function listenApi(app: Koa<ApiState>, options: ResolvedControllerOptions, log: Logger, ids: IdSource, shared?: SharedListener): Promise<Server> {
  const callback = app.callback();
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, connectionsCheckingInterval: checkingIntervalMs(options.httpLimits) }, callback);
  API_APPS.set(server, app);
  answerClientErrors(server, log, ids);
  const { bodyIdleTimeoutMs } = options.httpLimits;
  limitRequests(server, options.httpLimits, () => new RequestTimeoutError(`the request body stalled: no byte of it arrived for ${bodyIdleTimeoutMs / 1000} s`));
  routeUpgrades(server, callback);
  if (shared) {
    ATTACHED_APIS.set(server, { address: shared.address, detach: shared.attach(server) });
    return server;
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.listen.port, options.listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/**
 * Stops the API: no new connections, idle ones closed, the others closed after the grace period;
 * then handlers whose connection was closed may still be unwinding: they finish what they
 * persist before the store closes.
 */
async function closeApi(server: Server, inFlight: InFlight, graceMs: number, log: Logger): Promise<void> {
  const attached = ATTACHED_APIS.get(server);
  if (attached) {
    // New connections go to the node's front at once; this server's own end as below.
    await attached.detach(graceMs);
    if (!(await inFlight.idle(graceMs))) log.warn('handlers still running after the grace period; closing anyway', { in_flight: inFlight.count });
    return;
  }
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), graceMs);
  force.unref();
  await closed;
  clearTimeout(force);
  if (!(await inFlight.idle(graceMs))) log.warn('handlers still running after the grace period; closing anyway', { in_flight: inFlight.count });
}

/** This controller's own RocksDB in its data directory. */
export async function openLocalStore(options: ResolvedControllerOptions, log: Logger): Promise<RocksStore> {
  return RocksStore.open(join(options.dataDir, 'db'), {
    sync: options.sync,
    inlineCommitMs: options.inlineCommitMs,
    onCommitPath: (path, averageMs) =>
      log.info(path === 'writer' ? 'store commits moved to the writer thread: the disk is slow' : 'store commits back on the main thread', {
        average_commit_ms: Math.round(averageMs * 100) / 100,
        inline_commit_ms: options.inlineCommitMs,
      }),
    onWriterFailure: (err) => log.error('the store writer thread died: commits are made on the main thread from now on', { err }),
  });
}

/** The join secret: given by the operator, or made on first start and kept in DATA_DIR/join-token (0600). */
async function joinToken(options: ResolvedControllerOptions): Promise<string> {
  if (options.joinToken) return options.joinToken;
  const file = join(options.dataDir, 'join-token');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomBytes(24).toString('base64url');
  await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}

/**
 * The join secret of controllers that share their records in etcd: given by the operator, or
 * made once and kept in the store (`meta/join-token`); written to DATA_DIR/join-token too, where
 * an operator finds it to start agents, as with a single controller.
 */
async function sharedJoinToken(options: ResolvedControllerOptions, store: Store): Promise<string> {
  if (options.joinToken) return options.joinToken;
  let secret = await store.get(keys.meta('join-token'));
  if (secret === undefined) {
    secret = randomBytes(24).toString('base64url');
    await store.batch([{ type: 'put', key: keys.meta('join-token'), value: secret }]);
  }
  await writeFile(join(options.dataDir, 'join-token'), `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** This cluster's identity, made on first start; tokens name it as their issuer. */
async function clusterIdentity(deps: Deps): Promise<string> {
  const existing = await deps.store.get(keys.meta('cluster-id'));
  if (existing !== undefined) return existing;
  const id = deps.ids.uuid();
  await deps.store.batch([{ type: 'put', key: keys.meta('cluster-id'), value: id }]);
  return id;
}

async function checkSchema(store: Store): Promise<void> {
  const raw = await store.get(keys.meta('schema'));
  if (raw === undefined) {
    await store.batch([{ type: 'put', key: keys.meta('schema'), value: String(SCHEMA_VERSION) }]);
    return;
  }
  if (Number(raw) > SCHEMA_VERSION) {
    throw new Error(`the data directory has schema ${raw}, newer than this controller's ${SCHEMA_VERSION}; upgrade the controller`);
  }
}

export function startController(options: ControllerOptions): Promise<Controller> {
  return Controller.start(options);
}

/** The endpoints with GET /openapi.json, whose document lists them all (itself and /metrics included). */
function withOpenApi(endpoints: Endpoint[]): Endpoint[] {
  const metrics: Endpoint = {
    method: 'GET',
    path: '/metrics',
    doc: { summary: 'The controller\'s Prometheus metrics', public: true, responseMedia: ['text/plain; version=0.0.4; charset=utf-8'] },
    handler: () => Promise.resolve(),
  };
  const all: Endpoint[] = [...endpoints];
  all.push(openApiEndpoint(() => all, { title: 'platform REST API', version: CONTROLLER_VERSION, extra: [metrics] }));
  return all;
}

/** "host:port" of a url (its scheme's port when it names none); none when it is not one. */
function urlEndpoint(url: string): string[] {
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === 'https:' ? '443' : u.protocol === 'http:' ? '80' : '');
    return u.hostname && port ? [`${u.hostname.replace(/^\[|\]$/g, '')}:${port}`] : [];
  } catch {
    return [];
  }
}
