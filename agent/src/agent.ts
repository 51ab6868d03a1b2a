/**
 * Agent: one host's instance manager, wired together.
 *
 *   Session (Connect stream) ──StartInstance/StopInstance/ListFiles──▶ InstanceManager
 *        ▲                                                              │ InstanceRunner per instance
 *        └──── InstanceReport, LogBatch (LogShipper), FilesReply ◀──────┘ (isolation driver, cgroups,
 *                                                                          package cache via FetchBlob)
 * Lifecycle: `Agent.start()` re-attaches to instances left by an earlier run, starts the metrics
 * server and the session; `stop()` ends the session and leaves instances running (a restarted
 * agent re-attaches), unless `stopInstances` is given.
 */
import { lookup } from 'node:dns/promises';
import { chmodSync, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { ControllerAddresses, controllerList, createAgentServiceClient, instanceStateNumber, joinMetadata, PROTOCOL_VERSION, type AgentServiceClient, type Hello, type InstanceSpec, type Resources, type Snapshot } from '@platform/proto';
import { packFiles, stageChangedFiles } from './files/snapshot.js';
import { BwrapDriver, findExecutable, probeBwrap } from './isolation/bwrap.js';
import { Cgroups } from './isolation/cgroups.js';
import type { IsolationDriver, IsolationDriverName } from './isolation/driver.js';
import { canChangeIdentity, DEFAULT_INSTANCE_UIDS, parseUidRange, reachableBy, UidAllocator, type UidRange } from './isolation/identity.js';
import { PROCESS_DRIVER_GAPS, ProcessDriver } from './isolation/process.js';
import { detectResources, hostName, loadOrCreateUuid, systemTags } from './host/host.js';
import { DestinationPolicy, FLOOR_ENFORCED_TAG, FLOOR_NOT_ENFORCED_TAG, HOST_NETWORK_TAG, NETWORK_AGENT_TAG, OWN_NETWORK_TAG, parseHostPort, type AllowEntry, type HostPort, type Logger } from '@platform/proto/common';
import { AgentDrains } from './logs/drains.js';
import { LogShipper } from './logs/shipper.js';
import { AgentMetrics, serveMetrics } from './metrics/metrics.js';
import { PackageCache } from './packages/cache.js';
import { diskQuotaSupport } from './runner/disk-monitor.js';
import { InstanceManager } from './runner/manager.js';
import { LinkProxies } from './links/link-proxies.js';
import { hasSystemTool, missingNetworkTools } from './network/commands.js';
import { HostNetworks } from './network/host-networks.js';
import { withoutOwnSockets } from './network/own-sockets.js';
import { PortForwarders } from './network/port-forwarder.js';
import { DnsProxy } from './network/dns-proxy.js';
import { PortAllocator } from './runner/ports.js';
import { Session } from './session/session.js';
import { UsageReporter, type MeasuredInstance } from './usage/usage-reporter.js';

export const AGENT_VERSION = '0.1.0';

export interface AgentOptions {
  /** Controller gRPC address, host:port. */
  controller: string;
  dataDir: string;
  joinToken: string;
  tags?: string[];
  datacenter?: string;
  /** Undefined: bwrap when it works here, else process. */
  isolation?: IsolationDriverName;
  /** Address at which instance ports are reachable (default 127.0.0.1). */
  address?: string;
  /** Where /metrics listens; port 0 = a free port. */
  metricsListen?: { host: string; port: number };
  /** Use cgroups when the host allows (default true). */
  cgroups?: boolean;
  /** The host uids the agent gives its instances when it runs as root (default DEFAULT_INSTANCE_UIDS). */
  instanceUids?: UidRange;
  /** `process` driver only: run instances as the agent's user even when that is root (default false). */
  allowRootInstances?: boolean;
  /** Stop every instance when the agent stops (default false: they keep running). */
  stopInstancesOnExit?: boolean;
  /**
   * bwrap instances not on a virtual network get a network namespace of their own: true asks for
   * it, false leaves them on the host's network; by default (undefined) they get it where the
   * host allows it (root, ip, nft, nsenter), and the agent says loudly why not otherwise.
   */
  instanceNetworks?: boolean;
  /** The DNS server (host:port) for the names of outbound bindings and the instances' resolver; default: /etc/resolv.conf's. */
  resolver?: string;
  /** How often the names of outbound bindings are resolved again (default 30 s). */
  egressResolveMs?: number;
  /**
   * The bandwidth (bits per second) the instances on networks of their own share here
   * (--instance-bandwidth): their `network` floors divide it. Absent: floors are not enforced.
   */
  instanceBandwidth?: number;
  /** Network namespaces kept made ahead for instances on networks of their own (default 0: none). */
  networkPool?: number;
  log: Logger;
  now?: () => number;
  random?: () => number;
  /** Readiness poll interval (tests). */
  pollMs?: number;
  /** How often each instance's disk use is measured against its disk resource (default 2000 ms). */
  diskCheckMs?: number;
  /** How often instances and the host are measured for usage reports (default 10 s). */
  usageIntervalMs?: number;
  /** Usage samples kept while the controller cannot be reached (default 360). */
  usageBuffer?: number;
  /** Bound of the package archive cache in bytes (default 4 GiB). */
  cacheMaxBytes?: number;
  defaultMetrics?: boolean;
  /**
   * What log drains may reach although the destination rule refuses it by default (loopback,
   * link-local, this agent's and its controller's addresses; @platform/proto/common
   * destinations): hosts, addresses and CIDR blocks with optional ports (--allowed-destinations).
   */
  allowedDestinations?: readonly AllowEntry[];
  /** Refuse private addresses to drains too (--refuse-private-destinations). Default false. */
  refusePrivateDestinations?: boolean;
}

export class Agent {
  readonly uuid: string;
  readonly isolation: IsolationDriverName;
  readonly cgroups: Cgroups;
  readonly metrics: AgentMetrics;
  readonly manager: InstanceManager;
  readonly session: Session;
  /** Listeners of the instances' links to other jobs. */
  readonly links: LinkProxies;
  readonly usage: UsageReporter;
  #metricsServer: Server | undefined;
  /** The addresses of the controller (its name resolved at start): drains may not reach them. */
  #controllerAddresses: string[] = [];
  readonly #controllers: ControllerAddresses<AgentServiceClient>;
  #shipper: LogShipper;
  readonly #drains: AgentDrains;
  /** The rule of what users make this agent reach (drains); its own sockets are never opened to instances. */
  readonly #destinations: DestinationPolicy;
  #cache: PackageCache;
  #startedAt: number;
  /** opts.dataDir, absolute. */
  readonly #dataDir: string;
  #stopped = false;

  /** Virtual networks on this host; undefined when the agent cannot make them (missingNetworkTools). */
  readonly networks: HostNetworks | undefined;
  readonly #forwarders: PortForwarders;
  /** Whether bwrap instances not on a virtual network get a network of their own here. */
  readonly #ownNetworks: boolean;

  private constructor(private readonly opts: AgentOptions, driver: IsolationDriver, cgroups: Cgroups, identities: UidAllocator | undefined) {
    const now = opts.now ?? Date.now;
    const dataDir = resolve(opts.dataDir);
    this.#dataDir = dataDir;
    this.#startedAt = now();
    this.uuid = loadOrCreateUuid(dataDir);
    this.isolation = driver.name;
    this.cgroups = cgroups;
    const log = opts.log;
    this.links = new LinkProxies(join(dataDir, 'links.json'), log.child({ component: 'links' }), opts.address ?? '127.0.0.1');
    this.#forwarders = new PortForwarders(log.child({ component: 'networks' }));
    // Instances on virtual networks need namespaces, bridges and a bound hosts file: root and bwrap.
    const lacking = driver.name === 'bwrap' ? missingNetworkTools() : `the ${driver.name} driver cannot give an instance its own hosts file (bwrap can)`;
    this.networks = lacking
      ? undefined
      : new HostNetworks({
          address: opts.address ?? '127.0.0.1',
          uids: identities ? { first: identities.range.first, last: identities.range.first + identities.range.count - 1 } : undefined,
          agentUuid: this.uuid,
          log: log.child({ component: 'networks' }),
          forwarders: this.#forwarders,
          ownNetworks: opts.instanceNetworks !== false,
          dns: new DnsProxy(log.child({ component: 'dns' }), opts.resolver ? () => [opts.resolver!] : undefined),
          ...(opts.resolver ? { resolver: opts.resolver } : {}),
          ...(opts.egressResolveMs ? { egressResolveMs: opts.egressResolveMs } : {}),
          ...(opts.instanceBandwidth ? { bandwidth: opts.instanceBandwidth } : {}),
          ...(opts.networkPool ? { pool: opts.networkPool } : {}),
        });
    if (lacking) log.info('instances on virtual networks are not run here', { reason: lacking });
    this.#ownNetworks = !lacking && opts.instanceNetworks !== false;
    if (driver.name === 'process') {
      log.warn('instances share the host\'s network (the process driver gives them no namespace of their own): they reach whatever the host reaches', { system_tag: HOST_NETWORK_TAG });
    } else if (lacking) {
      // Loud: every instance here reaches the host's loopback (etcd, the controller's and the agent's ports) and every other instance.
      log.error('instance networks are not possible here: instances share the host\'s network and reach whatever the host reaches', { reason: lacking, system_tag: HOST_NETWORK_TAG });
    } else if (opts.instanceNetworks === false) {
      log.warn('instance networks are off (--instance-networks=off): instances share the host\'s network and reach whatever the host reaches', { system_tag: HOST_NETWORK_TAG });
    } else if (!hasSystemTool('tc')) {
      log.warn('tc is not installed (Debian package iproute2): netmax is not enforced on instances in networks of their own');
    }
    this.metrics = new AgentMetrics(() => (this.manager as InstanceManager | undefined)?.countByState() ?? {}, { defaultMetrics: opts.defaultMetrics ?? false });
    // One or several controllers (comma-separated: the controllers of a cluster on etcd).
    this.#controllers = new ControllerAddresses(controllerList(opts.controller), (address) =>
      createAgentServiceClient(address, undefined, {
        'grpc.keepalive_time_ms': 10_000,
        'grpc.keepalive_timeout_ms': 5_000,
        'grpc.keepalive_permit_without_calls': 1,
        'grpc.initial_reconnect_backoff_ms': 200,
        'grpc.max_reconnect_backoff_ms': 5_000,
      }),
    );
    const session: Session = new Session({
      controllers: this.#controllers,
      joinToken: opts.joinToken,
      log: log.child({ component: 'session' }),
      metrics: this.metrics,
      ...(opts.random ? { random: opts.random } : {}),
      now,
      handler: {
        hello: () => this.#hello(),
        welcome: (w, hello) => {
          this.networks?.setOwnSubnet(w.instanceSubnet ?? '');
          this.manager.delivered(hello.instances ?? []);
          this.manager.welcome(w.stop ?? []);
          this.usage.flush();
        },
        start: (m) => m.spec && this.#start(m.spec),
        linkTargets: (m) => this.links.update(m),
        jobDrains: (m) => this.#drains.setJob(m.jobUuid ?? '', m.jobFqn ?? '', m.drains ?? []),
        jobEgress: (m) => {
          const applied = this.networks?.setEgress(m.jobUuid ?? '', m.rules ?? [], this.#openable(m.endpoints ?? [], m.jobUuid ?? '')) ?? Promise.resolve();
          // The controller waits for it before a gateway is asked to reach what was opened.
          if (m.requestId) void applied.then(() => session.send({ egressApplied: { requestId: m.requestId ?? '' } }));
        },
        networkState: (m) => {
          this.networks?.update(m).catch((err: unknown) => log.warn('network state not applied', { network: m.networkUuid, err: (err as Error).message }));
        },
        instanceFiles: (m) => this.manager.updateFiles(m),
        stop: (m) => this.manager.stop(m),
        listFiles: (m) => {
          void this.manager.listFiles(m).then((files) => session.send({ files }));
        },
        snapshot: (m) => {
          this.#snapshot(m).catch((err: unknown) => log.error('snapshot upload failed', { err }));
        },
        // One pass of the shipper sends what every instance has written (batches go out in
        // order on this stream), then the answer follows them.
        // When the session is backed up, the answer waits for the pass that sends them.
        flushLogs: (m) => {
          this.#shipper.flushed(() => session.send({ logsFlushed: { requestId: m.requestId ?? '' } }));
        },
        usage: () => this.#usage(),
      },
    });
    this.session = session;
    // Drains reach what users name: never this host's loopback, metadata service, the agent's
    // own listeners, the address its instances listen at or the controller, unless listed.
    const destinations = new DestinationPolicy({
      purpose: 'log drains',
      setting: "the agent's --allowed-destinations (PLATFORM_ALLOWED_DESTINATIONS)",
      allow: opts.allowedDestinations ?? [],
      refusePrivate: opts.refusePrivateDestinations ?? false,
      listeners: () => this.#listeners(),
      platformAddresses: () => [opts.address ?? '127.0.0.1', ...this.#controllerAddresses],
    });
    this.#destinations = destinations;
    this.#drains = new AgentDrains({
      log: log.child({ component: 'log-drains' }),
      metrics: this.metrics,
      note: (line) => this.#shipper.note(line),
      destinations,
      ...(opts.now ? { now: opts.now } : {}),
    });
    this.#shipper = new LogShipper({ canSend: () => session.canSend(), sendLogs: (lines) => session.sendLogs(lines) }, this.metrics, { drains: this.#drains });
    // Cached packages are the agent's alone (a `process` instance sees the host file system).
    mkdirSync(join(dataDir, 'cache'), { recursive: true, mode: 0o700 });
    chmodSync(join(dataDir, 'cache'), 0o700);
    this.#cache = new PackageCache(join(dataDir, 'cache'), session.blobSource(), this.metrics, {
      ...(opts.cacheMaxBytes !== undefined ? { maxBytes: opts.cacheMaxBytes } : {}),
      now,
    });
    this.manager = new InstanceManager({
      instancesDir: join(dataDir, 'instances'),
      driver,
      cgroups,
      identities,
      cache: this.#cache,
      ports: new PortAllocator(),
      address: opts.address ?? '127.0.0.1',
      networks: this.networks,
      log: log.child({ component: 'runner' }),
      metrics: this.metrics,
      now,
      shipper: this.#shipper,
      sendReport: (instance) => {
        if (instance.state === instanceStateNumber('REMOVED')) {
          this.links.release(instance.instanceUuid ?? '');
          this.#jobGone(instance.jobUuid ?? '', instance.instanceUuid ?? '');
        }
        return session.send({ instance });
      },
      ...(opts.pollMs ? { pollMs: opts.pollMs } : {}),
      ...(opts.diskCheckMs ? { diskCheckMs: opts.diskCheckMs } : {}),
    });
    this.usage = new UsageReporter({
      instances: () => this.#measured(),
      outlet: { canSend: () => session.canSend(), sendUsage: (usage) => session.send({ usage }) },
      cgroups,
      dataDir,
      registry: this.metrics.registry,
      now,
      ...(opts.usageIntervalMs ? { intervalMs: opts.usageIntervalMs } : {}),
      ...(opts.usageBuffer ? { maxBuffered: opts.usageBuffer } : {}),
    });
  }

  /** The runners as the usage reporter reads them. */
  *#measured(): Iterable<MeasuredInstance> {
    for (const r of this.manager.runners()) {
      const rec = r.record;
      yield {
        uuid: r.uuid,
        jobUuid: rec.spec.jobUuid,
        jobFqn: rec.spec.jobFqn,
        running: r.processStartedMs !== undefined && !rec.exited && r.state !== 'TEARDOWN' && r.state !== 'REMOVED',
        pid: rec.pid,
        cgroups: rec.cgroups,
        resources: rec.spec.resources,
        root: r.root,
        interface: rec.network?.hostVeth,
        diskMonitored: rec.spec.resources.disk > 0 ? r.diskUsed : undefined,
      };
    }
  }

  /** Answers a Snapshot request: the files the instance changed since its process started, uploaded. */
  async #snapshot(m: Snapshot): Promise<void> {
    const requestId = m.requestId ?? '';
    const call = this.#controllers.client().uploadSnapshot(joinMetadata(this.opts.joinToken), () => undefined);
    const fail = (error: string, errorKind: string) => {
      call.write({ requestId, error, errorKind });
      call.end();
    };
    const runner = this.manager.get(m.instanceUuid ?? '');
    const since = runner?.processStartedMs;
    if (!runner || since === undefined) return fail('not_found', 'not_found');
    // Staged beside the instance root (same file system), in a directory of the agent's.
    let found: Awaited<ReturnType<typeof stageChangedFiles>>;
    try {
      found = await stageChangedFiles(runner.root, m.directory ?? '', since, dirname(runner.root));
    } catch (err) {
      // The instance's directory went away meanwhile, the disk is full...: answered all the same.
      this.opts.log.error('snapshot failed', { instance: m.instanceUuid, err });
      return fail('io_error', 'internal');
    }
    if ('kind' in found) return fail(found.error, found.kind);
    let first = true;
    try {
      // An empty tar (two zero blocks) when nothing changed: still a valid archive.
      const archive = found.files.length > 0 ? packFiles(found.staging, found.files) : Readable.from([gzipSync(Buffer.alloc(1024))]);
      for await (const data of archive) {
        const chunk = { data: data as Buffer, ...(first ? { requestId } : {}) };
        first = false;
        if (!call.write(chunk)) await new Promise((resolve) => call.once('drain', resolve));
      }
    } catch (err) {
      // Answered, so that the package does not wait for the upload for ever.
      this.opts.log.error('snapshot failed', { instance: m.instanceUuid, err });
      if (first) return fail('io_error', 'internal');
      call.cancel();
      return;
    } finally {
      await rm(found.staging, { recursive: true, force: true });
    }
    if (first) call.write({ requestId });
    call.end();
    this.opts.log.info('snapshot sent', { instance: m.instanceUuid, files: found.files.length });
  }

  /** Picks the isolation driver and cgroups, re-attaches to instances, starts serving. */
  static async start(opts: AgentOptions): Promise<Agent> {
    const log = opts.log;
    const dataDir = resolve(opts.dataDir);
    mkdirSync(dataDir, { recursive: true, mode: 0o711 });
    // Only root can give instances identities of their own; otherwise they run as the agent's user.
    const root = canChangeIdentity();
    const range = opts.instanceUids ?? parseUidRange(DEFAULT_INSTANCE_UIDS);
    let driver: IsolationDriver;
    const probe = opts.isolation === 'process' ? undefined : probeBwrap(root ? range.first : undefined);
    const bwrap = (path: string) => new BwrapDriver(path, { seccompFile: join(dataDir, 'seccomp.bpf') });
    if (opts.isolation === 'bwrap') {
      if (!probe?.ok) throw new Error(`--isolation bwrap: ${probe && !probe.ok ? probe.reason : 'unavailable'}`);
      driver = bwrap(probe.path);
    } else if (opts.isolation === 'process' || !probe?.ok) {
      driver = new ProcessDriver();
    } else {
      driver = bwrap(probe.path);
    }
    const rootInstances = driver.name === 'process' && root && !!opts.allowRootInstances;
    const identities = root && !rootInstances ? new UidAllocator(range) : undefined;
    if (identities) {
      if (!findExecutable('setpriv')) throw new Error('setpriv is not installed (Debian package util-linux): the agent runs as root and cannot give instances their own uid');
      // The instances' uids must reach their roots under the data directory (not list it).
      chmodSync(dataDir, 0o711);
      if (!reachableBy(dataDir, range.first, 'search')) {
        throw new Error(`the instance uids cannot reach the data directory ${dataDir}: give its parent directories search permission for others (chmod o+x)`);
      }
    }
    const last = range.first + range.count - 1;
    log.info('isolation driver chosen', {
      isolation: driver.name,
      ...(opts.isolation ? { requested: opts.isolation } : { why: probe?.ok ? 'bwrap works here' : probe?.reason }),
      instances_run_as: identities ? `their own uid in ${range.first}-${last}` : rootInstances ? 'root (--allow-root-instances)' : `the agent's user (uid ${process.getuid?.() ?? '?'})`,
    });
    if (driver.name === 'process') {
      log.warn('the process driver is for trusted hosts only', {
        does_not_isolate: PROCESS_DRIVER_GAPS,
        ...(rootInstances ? { root_instances: 'instances run as root (--allow-root-instances) and can do anything on this host' } : {}),
      });
    } else if (opts.allowRootInstances) {
      log.warn('--allow-root-instances is ignored by the bwrap driver: its instances never hold root on the host');
    }
    const cgroups = opts.cgroups === false ? Cgroups.disabled('switched off') : Cgroups.detect();
    log.info(cgroups.available ? 'cgroups available: memory and cpu limits enforced' : 'cgroups unavailable: no resource limits', {
      cgroups: cgroups.version, ...(cgroups.available ? {} : { reason: cgroups.reason }),
    });
    const agent = new Agent(opts, driver, cgroups, identities);
    const quota = diskQuotaSupport(join(agent.#dataDir, 'instances'));
    log.info('disk resources enforced by measuring instance roots', {
      file_system: quota?.fsType ?? 'unknown', project_quota: quota?.projectQuota ?? false,
      check_ms: opts.diskCheckMs ?? 2000, cache_max_bytes: agent.#cache.maxBytes,
    });
    await agent.#cache.cleanTmp();
    await agent.#cache.load();
    // Before the instances are taken back: their networks are set up again as the probe found.
    await agent.networks?.probeFloors();
    agent.manager.recover();
    // What an earlier run of this agent left on the host and no re-attached instance holds.
    await agent.#removeNetworkLeftovers([...agent.manager.runners()].flatMap((r) => (r.record.network ? [r.record.network] : [])));
    await agent.links.restore(new Set([...agent.manager.runners()].map((r) => r.uuid)));
    // Every controller given (several on etcd): drains may reach none of them.
    agent.#controllerAddresses = (await Promise.all(controllerList(opts.controller).map((c) => controllerAddresses(c, log)))).flat();
    const ml = opts.metricsListen ?? { host: '127.0.0.1', port: 0 };
    agent.#metricsServer = await serveMetrics(agent.metrics.registry, ml.host, ml.port);
    agent.#shipper.start();
    agent.usage.start();
    agent.session.start();
    log.info('agent started', {
      uuid: agent.uuid, controller: opts.controller, data_dir: agent.#dataDir, metrics: agent.metricsUrl,
      instances: agent.manager.size, version: AGENT_VERSION,
    });
    return agent;
  }

  /** `endpoints` a job's instances may be opened to: never the agent's own sockets (logged). */
  #openable(endpoints: readonly string[], job: string): string[] {
    const { kept, dropped } = withoutOwnSockets(endpoints, this.#destinations);
    if (dropped.length > 0) this.opts.log.warn("a job is not opened to the agent's own sockets", { job, endpoints: dropped });
    return kept;
  }

  /** The agent's own listening sockets (its /metrics): drains may not reach them. */
  #listeners(): HostPort[] {
    const a = this.#metricsServer?.address();
    return a && typeof a !== 'string' ? [{ host: a.address, port: a.port }] : [];
  }

  get metricsUrl(): string {
    const a = this.#metricsServer?.address();
    if (!a || typeof a === 'string') return '';
    const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
    return `http://${host}:${a.port}/metrics`;
  }

  #hello(): Hello {
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentUuid: this.uuid,
      hostname: hostName(),
      datacenter: this.opts.datacenter ?? '',
      tags: this.opts.tags ?? [],
      systemTags: [
        ...systemTags(this.isolation, this.cgroups.version),
        ...(this.networks ? [NETWORK_AGENT_TAG] : []),
        this.#ownNetworks ? OWN_NETWORK_TAG : HOST_NETWORK_TAG,
        this.#ownNetworks && this.networks?.floorsNotEnforced === undefined ? FLOOR_ENFORCED_TAG : FLOOR_NOT_ENFORCED_TAG,
      ],
      // What the cache may still grow into is not offered to instances.
      total: detectResources(this.#dataDir, Math.max(0, this.#cache.maxBytes - this.#cache.size)),
      isolation: this.isolation,
      cgroups: this.cgroups.available,
      startedAtMs: this.#startedAt,
      address: this.opts.address ?? '127.0.0.1',
      instances: this.manager.helloInstances(),
      version: AGENT_VERSION,
    };
  }

  async #removeNetworkLeftovers(keep: Parameters<HostNetworks['removeLeftovers']>[0]): Promise<void> {
    try {
      await this.networks?.removeLeftovers(keep);
    } catch (err) {
      this.opts.log.error('the leftovers of this agent on the host cannot be listed', { err: (err as Error).message });
    }
  }

  /** The last instance of a job here is removed: its drains' senders close. */
  #jobGone(job: string, removed: string): void {
    for (const r of this.manager.runners()) if (r.spec.jobUuid === job && r.uuid !== removed && r.state !== 'REMOVED') return;
    this.#drains.setJob(job, '', []);
  }

  /** A StartInstance: the instance's links listen first, and give it their variables. */
  #start(spec: InstanceSpec): void {
    if (spec.jobUuid && !this.manager.get(spec.instanceUuid ?? '')) this.#drains.setJob(spec.jobUuid, spec.jobFqn ?? '', spec.drains ?? []);
    if (spec.network?.networkUuid && !this.manager.get(spec.instanceUuid ?? '')) this.networks?.planned(spec.network, spec.jobUuid ?? '');
    // The spec is as new as the controller's last JobEgress for the job.
    if (spec.jobUuid && !this.manager.get(spec.instanceUuid ?? '')) void this.networks?.setEgress(spec.jobUuid, spec.egress ?? []);
    if (spec.endpoints) spec = { ...spec, endpoints: this.#openable(spec.endpoints, spec.jobUuid ?? '') };
    const links = spec.links ?? [];
    if (links.length === 0 || this.manager.get(spec.instanceUuid ?? '')) {
      this.manager.start(spec);
      return;
    }
    this.links.open(spec.instanceUuid ?? '', links).then(
      // Where the links listen is reachable from a network of the instance's own.
      (env) => this.manager.start({ ...spec, environment: { ...spec.environment, ...env }, endpoints: [...(spec.endpoints ?? []), ...linkEndpoints(env)] }),
      (err: unknown) => {
        this.opts.log.warn('instance refused: a link cannot listen', { instance: spec.instanceUuid, err: (err as Error).message });
        const now = (this.opts.now ?? Date.now)();
        this.session.send({
          instance: {
            instanceUuid: spec.instanceUuid ?? '', jobUuid: spec.jobUuid ?? '', jobVersionId: spec.jobVersionId ?? 0,
            state: instanceStateNumber('REMOVED'), failed: true, reason: `link: ${(err as Error).message}`, timeMs: now, createdMs: now,
          },
        });
      },
    );
  }

  /** The instances' use at the last usage sample, summed (cpu in ms per second, as Resources). */
  #usage(): Resources {
    let cpu = 0;
    let memory = 0;
    let disk = 0;
    for (const i of this.usage.last?.instances ?? []) {
      cpu += (i.cpuNs ?? 0) / 1e6;
      memory += i.memoryUsed ?? 0;
      disk += i.diskUsed ?? 0;
    }
    return { cpu, memory, disk, network: 0, netmax: 0 };
  }

  /**
   * Stops the agent: ends the session, sends what log lines it can, closes the metrics server.
   * Instances keep running unless `stopInstances` (or the option) says otherwise.
   */
  async stop(opts: { stopInstances?: boolean } = {}): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    const stopInstances = opts.stopInstances ?? this.opts.stopInstancesOnExit ?? false;
    // The namespaces made ahead are no instance's: they go whether the instances stay or not.
    await this.networks?.closePool();
    if (stopInstances) {
      await this.manager.stopAll('agent stopping');
      // The instances took their own objects with them; the uid table (and what a failed teardown left) goes now.
      await this.#removeNetworkLeftovers([]);
    }
    this.#shipper.tick();
    this.#shipper.stop();
    this.#drains.close();
    this.usage.flush();
    this.usage.stop();
    this.session.stop();
    this.links.close();
    this.#forwarders.closeAll();
    this.networks?.close();
    const server = this.#metricsServer;
    if (server) {
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
    }
    this.#controllers.close();
    this.opts.log.info('agent stopped', { instances_left_running: stopInstances ? 0 : this.manager.size });
  }
}

/**
 * The addresses of the controller `host:port` (a name resolved now; one that does not resolve
 * gives none, logged): the agent's drains may not reach them.
 */
async function controllerAddresses(controller: string, log: Logger): Promise<string[]> {
  let host: string;
  try {
    host = parseHostPort(controller, 'controller').host;
  } catch {
    return [];
  }
  if (isIP(host)) return [host];
  try {
    return (await lookup(host, { all: true })).map((a) => a.address);
  } catch (err) {
    log.warn('the controller address does not resolve now: drains are not kept from it by address', { controller, err: (err as Error).message });
    return [];
  }
}

/** "host:port" of the links' variables (tcp://host:port). */
function linkEndpoints(env: Record<string, string>): string[] {
  return [...new Set(Object.values(env).flatMap((v) => /^tcp:\/\/([^/:]+:\d+)$/.exec(v)?.[1] ?? []))];
}
