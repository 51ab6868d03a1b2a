/**
 * Virtual networks on this host (the agent's side of networks/ in the controller).
 *
 * An instance of a job on a network gets, from its setup step (runner/steps/network.ts):
 *
 *   netns pln-<agent>-<instance uuid>  its own network namespace (bwrap runs inside it: nsenter)
 *     eth0  <address>/<prefix>         the instance end of a veth pair, MAC from the address
 *     lo    up
 *     default via <gateway>            the bridge: the host (and, through it, nothing further)
 *     <multicast/aggregate> dev eth0   the member's multicast_addresses, the job's aggregate routes
 *   plv<ag><inst>   host end of the veth, a port of the network's bridge
 *   plb<ag><net>    the network's bridge, <gateway>/<prefix> (the same on every agent host, with
 *                   the same MAC, so that the gateway answers alike wherever a member asks)
 *   plx<ag><net>    a VXLAN device on the bridge (VNI of the network, UDP 4789) with a flood
 *                   entry per other agent host that has members, once there is one
 *   /etc/hosts      a file per instance (in its directory) bound over the instance's /etc/hosts:
 *                   `<discovery_address>.platform.local` of every member instance, rewritten in
 *                   place (the bind keeps the inode) when members come and go
 *   nft bridge table platform_bc_<agent>_<instance>
 *                   when broadcast_enable is false: broadcast frames (but ARP) are not forwarded
 *                   to the instance's port
 *   nft inet table platform_netuid_<agent>
 *                   instances that are not on the network (their own uids, identity.ts) cannot
 *                   send to any network bridge: only members (in their namespaces) and the
 *                   agent reach member addresses
 * and its ports forwarded from the host (port-forwarder.ts).
 *
 * Teardown deletes the namespace (its veth pair goes with it), the broadcast table, and the bridge
 * (with its VXLAN device) once no veth is left on it. Every name starts with a fixed prefix
 * (NAME_PREFIXES) followed by a part of the agent's uuid (<agent>: 11 hex digits, <ag>: 5, for
 * interface names have at most 15 characters), so that two agents on one host never share an
 * object and what an agent left is its own to find by name: `removeLeftovers` deletes, at the
 * agent's start, whatever of its own no re-attached instance holds (an agent killed with -9, an
 * instance record lost), and everything after the agent stopped its instances.
 *
 * Changes of one network run one at a time (a chain per network): a NetworkState from the
 * controller waits for an instance being attached, and the reverse.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { NetworkSpec, NetworkState } from '@platform/proto';
import { cidrsOverlap, formatIpv4, parseCidr, parseIpv4, prefixMask, type Cidr, type Logger } from '@platform/proto/common';
import { descendants } from '../isolation/procfs.js';
import { listeningPortsOf } from '../runner/ports.js';
import { hasSystemTool, NOT_THERE, run, runIgnoring, runScript, runScriptIgnoring, tool } from './commands.js';
import { instanceShaping, instanceUnshaping, probeShaping, shapingBandwidthChange, shapingSetup } from './shaping.js';
import type { PortForwarders } from './port-forwarder.js';
import type { DnsProxy } from './dns-proxy.js';
import { Resolver } from 'node:dns/promises';
import type { EgressRule } from '@platform/proto';

/** What an instance holds on its network; kept in its instance record (release reads it there). */
export interface NetworkAttachment {
  network: string;
  jobUuid: string;
  instance: string;
  netns: string;
  hostVeth: string;
  bridge: string;
  vxlan: string;
  address: string;
  prefix: number;
  gateway: string;
  vni: number;
  hostsFile: string;
  /** The job's aggregate routes (fixed for the instance's life). */
  baseRoutes: string[];
  /** The routes applied now (base and multicast). */
  routes: string[];
  /** The broadcast filter's table, when broadcast frames are kept from the instance. */
  broadcastTable?: string;
  /** Host ports forwarded to the instance's address. */
  ports: number[];
  /** The instance's ports they go to, in the same order (absent: the same numbers). */
  insidePorts?: number[];
  /**
   * A network of the instance's own (not a virtual network): on the agent's bridge, with an
   * address from the agent's instance subnet, ports isolated from the other instances', egress
   * refused but for the agent's resolver (`network` is OWN_NETWORK).
   */
  own?: true;
  /** The resolv.conf bound over the instance's /etc/resolv.conf (the agent's resolver). */
  resolvConf?: string;
  /**
   * What the platform provides the instance at "host:port" (its links, bound services, the
   * stager's controller): reachable from its own network, an address on the host's loopback
   * included (passed through the gateway address).
   */
  endpoints?: string[];
}

/** A namespace made ahead for an instance on a network of its own (HostNetworksOptions.pool). */
interface Pooled {
  netns: string;
  hostVeth: string;
  address: string;
  /** The subnet it was made in ("a.b.c.d/n"). */
  subnet: string;
}

/** How long after the last instance attached the pool is filled again (a burst of starts goes first). */
export const POOL_QUIET_MS = 1000;

/** What the names of pooled namespaces have after the agent's prefix. */
export const POOL_NAME = 'pool-';

const cidrText = (c: Cidr) => `${formatIpv4(c.base)}/${c.prefix}`;

/** The `network` of an attachment to a network of the instance's own. */
export const OWN_NETWORK = 'own';

/** What the setup step gives: the instance's network as the controller sent it. */
export interface NetworkPlan {
  uuid: string;
  fqn: string;
  subnet: string;
  address: string;
  gateway: string;
  vni: number;
  broadcastEnable: boolean;
  routes: string[];
  multicastRoutes: string[];
  hosts: { name: string; address: string }[];
  peers: string[];
  hardwareAddress: string;
}

/** The first characters of every name this module gives host objects. */
export const NAME_PREFIXES = { netns: 'pln-', veth: 'plv', peer: 'plp', bridge: 'plb', vxlan: 'plx', ifb: 'plq', table: 'platform_bc_', uidTable: 'platform_netuid_', egressTable: 'platform_egress_' } as const;

const hex = (uuid: string) => uuid.replace(/[^0-9a-f]/gi, '').toLowerCase();
/** 11 hex digits of a uuid (table names). */
const short = (uuid: string) => hex(uuid).slice(0, 11).padEnd(11, '0');
/** The agent's part of an interface name (5 hex digits) and the instance's or network's (7): 3 + 5 + 7 = 15. */
const agentLink = (agent: string) => hex(agent).slice(0, 5).padEnd(5, '0');
const objLink = (uuid: string) => hex(uuid).slice(0, 7).padEnd(7, '0');

/** The prefixes of every name an agent gives host objects (after NAME_PREFIXES: its own part). */
export function agentPrefixes(agentUuid: string): { netns: string; veth: string; bridge: string; vxlan: string; ifb: string; table: string; uidTable: string; egressTable: string; ownBridge: string; ownIfb: string } {
  return {
    egressTable: `${NAME_PREFIXES.egressTable}${short(agentUuid)}`,
    ownBridge: `${NAME_PREFIXES.bridge}${agentLink(agentUuid)}own`,
    ownIfb: `${NAME_PREFIXES.ifb}${agentLink(agentUuid)}own`,
    ifb: `${NAME_PREFIXES.ifb}${agentLink(agentUuid)}`,
    netns: `${NAME_PREFIXES.netns}${short(agentUuid)}-`,
    veth: `${NAME_PREFIXES.veth}${agentLink(agentUuid)}`,
    bridge: `${NAME_PREFIXES.bridge}${agentLink(agentUuid)}`,
    vxlan: `${NAME_PREFIXES.vxlan}${agentLink(agentUuid)}`,
    table: `${NAME_PREFIXES.table}${short(agentUuid)}_`,
    uidTable: `${NAME_PREFIXES.uidTable}${short(agentUuid)}`,
  };
}

export const VXLAN_PORT = 4789;
/** Leaves room for the VXLAN header (50 bytes) on a 1500-byte underlay. */
const MTU = 1450;

interface HostNetwork {
  bridge: string;
  vxlan: string;
  vni: number;
  gateway: string;
  prefix: number;
  hosts: { name: string; address: string }[];
  peers: string[];
  /** The VXLAN destinations written now. */
  flooding: Set<string>;
  members: Map<string, { broadcastEnable: boolean; routes: string[] }>;
  instances: Map<string, NetworkAttachment>;
}

export interface HostNetworksOptions {
  /** The address ports are forwarded from (the agent's --address) and VXLAN packets leave from. */
  address: string;
  /** The instance uids (kept off the bridges); absent when instances run as the agent's user. */
  uids?: { first: number; last: number } | undefined;
  /** Whether instances not on a virtual network get a network of their own (attachOwn). */
  ownNetworks?: boolean;
  /** The agent's resolver for them (listens on the own bridge's gateway address). */
  dns?: DnsProxy;
  /** The DNS server (host:port) the names of outbound openings are resolved with; default the system's. */
  resolver?: string;
  /** How often those names are resolved again (default 30 s). */
  egressResolveMs?: number;
  /**
   * The bandwidth (bits per second) the instances on networks of their own share here: their
   * `network` floors divide it (shaping.ts). Absent: the floors are not enforced.
   */
  bandwidth?: number;
  /**
   * How many namespaces of networks of their own are kept made ahead (eth0 on the own bridge
   * with an address, lo, the default route), handed to starting instances and made again while
   * no instance is being attached (default 0: each is made at its instance's start).
   */
  pool?: number;
  agentUuid: string;
  log: Logger;
  forwarders: PortForwarders;
}

export class HostNetworks {
  readonly #networks = new Map<string, HostNetwork>();
  readonly #chains = new Map<string, Promise<unknown>>();
  /**
   * The last NetworkState of a network with no instance attached here yet (one may be in its
   * setup): applied when the first attaches, for it is newer than the instance's spec.
   */
  readonly #pending = new Map<string, NetworkState>();
  #uidTable: Promise<void> | undefined;
  /** The agent's instance subnet (from the controller's Welcome); own networks wait for it. */
  #ownSubnet: Cidr | undefined;
  /** Instances on networks of their own, by instance uuid. */
  readonly #own = new Map<string, NetworkAttachment>();
  /** The own bridge, its egress table and the resolver, made once per subnet. */
  #ownReady: Promise<void> | undefined;
  /** What each job may reach outside (its bindings to the outbound network service). */
  readonly #egress = new Map<string, EgressRule[]>();
  /** The last address given to an instance on a network of its own (as a number). */
  #lastOwn: number | undefined;
  /** The writes of each instance's namespace rules, one at a time. */
  readonly #nsChains = new Map<string, Promise<unknown>>();
  /** What each job's instances reach besides their spec's endpoints (JobEgress endpoints). */
  readonly #jobEndpoints = new Map<string, string[]>();
  /** The addresses each name of an opening resolves to now. */
  readonly #names = new Map<string, string[]>();
  #resolveTimer: NodeJS.Timeout | undefined;
  /** Namespaces made ahead for instances on networks of their own (`pool`), oldest first. */
  #pool: Pooled[] = [];
  /** The addresses of the pooled namespaces being made. */
  readonly #poolMaking = new Set<string>();
  /** The pool being filled, if it is. */
  #filling: Promise<void> | undefined;
  /** A fill was asked for while one ran. */
  #fillAgain = false;
  /** Instances being attached to networks of their own now (the pool is filled only when none is). */
  #attaching = 0;
  /** Pending while instances were attached within POOL_QUIET_MS (the pool is not filled meanwhile). */
  #quiet: NodeJS.Timeout | undefined;
  /** Bumped whenever the pool is emptied: a namespace made for an older pool is deleted, not kept. */
  #poolGeneration = 0;
  #closed = false;
  /** The egress rules are written one at a time, the last wish winning. */
  #egressChain: Promise<void> = Promise.resolve();
  /**
   * The write waiting for its turn, if any: the whole table (`full`), or only the forwarded
   * ports' map brought up to date (what a start or stop of an instance with ports and nothing
   * else needs). A wish for the whole table turns a waiting map update into a whole write.
   */
  #egressQueued: { done: Promise<void>; full: boolean } | undefined;
  /** The forwarded ports' map as last written to the egress table: host port -> `address . port`. */
  #mapped = new Map<number, string>();
  /** Why the `network` floors are not enforced here (undefined: they are); set by probeFloors. */
  #floorsNot: string | undefined = 'not probed yet';

  constructor(private readonly o: HostNetworksOptions) {}

  static names(agent: string, instance: string, network: string): Pick<NetworkAttachment, 'netns' | 'hostVeth' | 'bridge' | 'vxlan'> & { peer: string; table: string } {
    const p = agentPrefixes(agent);
    return {
      netns: `${p.netns}${instance}`,
      hostVeth: `${p.veth}${objLink(instance)}`,
      peer: `${NAME_PREFIXES.peer}${agentLink(agent)}${objLink(instance)}`,
      bridge: `${p.bridge}${objLink(network)}`,
      vxlan: `${p.vxlan}${objLink(network)}`,
      table: `${p.table}${short(instance)}`,
    };
  }

  /** /run/netns/<name>: what nsenter joins. */
  static netnsPath(a: Pick<NetworkAttachment, 'netns'>): string {
    return `/run/netns/${a.netns}`;
  }

  #serial<T>(network: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.#chains.get(network) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const settled = next.catch(() => {});
    this.#chains.set(network, settled);
    void settled.then(() => {
      if (this.#chains.get(network) === settled) this.#chains.delete(network);
    });
    return next;
  }

  #network(plan: NetworkPlan, bridge: string, vxlan: string): HostNetwork {
    let n = this.#networks.get(plan.uuid);
    if (!n) {
      n = {
        bridge, vxlan, vni: plan.vni, gateway: plan.gateway, prefix: Number(plan.subnet.split('/')[1]),
        hosts: plan.hosts, peers: plan.peers, flooding: new Set(), members: new Map(), instances: new Map(),
      };
      this.#networks.set(plan.uuid, n);
      const pending = this.#pending.get(plan.uuid);
      this.#pending.delete(plan.uuid);
      if (pending) this.#take(n, pending);
    }
    return n;
  }

  /**
   * A StartInstance on the network, in the order messages came: its spec is as new as the
   * controller's last NetworkState, so it counts as one (for the instances here already too).
   */
  planned(spec: NetworkSpec, jobUuid: string): void {
    void this.update({
      networkUuid: spec.networkUuid ?? '',
      hosts: spec.hosts ?? [],
      peers: spec.peers ?? [],
      members: [{ jobUuid, broadcastEnable: spec.broadcastEnable !== false, routes: spec.multicastRoutes ?? [] }],
    }).catch((err: unknown) => this.o.log.warn('network state not applied', { network: spec.networkUuid, err: (err as Error).message }));
  }

  /**
   * Puts instance `instance` (of `jobUuid`) on its network: `record` is called with what it holds
   * before each object is made, so that a release after a failure half way finds it.
   */
  attach(
    instance: string,
    jobUuid: string,
    plan: NetworkPlan,
    dir: string,
    record: (a: NetworkAttachment) => void,
  ): Promise<NetworkAttachment> {
    return this.#serial(plan.uuid, async () => {
      const names = HostNetworks.names(this.o.agentUuid, instance, plan.uuid);
      const prefix = Number(plan.subnet.split('/')[1]);
      const a: NetworkAttachment = {
        network: plan.uuid, jobUuid, instance, netns: names.netns, hostVeth: names.hostVeth, bridge: names.bridge, vxlan: names.vxlan,
        address: plan.address, prefix, gateway: plan.gateway, vni: plan.vni, hostsFile: join(dir, 'hosts'),
        baseRoutes: plan.routes, routes: [], ports: [],
      };
      record(a);
      const known = this.#networks.has(plan.uuid);
      const n = this.#network(plan, names.bridge, names.vxlan);
      if (!known || !n.members.has(jobUuid)) n.members.set(jobUuid, { broadcastEnable: plan.broadcastEnable, routes: plan.multicastRoutes });
      n.instances.set(instance, a);
      const ip = tool('ip');
      await this.#ensureUidTable();
      // The namespace before the bridge: a bridge without veths next to a young namespace is being set up.
      await run([ip, 'netns', 'add', a.netns]);
      await this.#ensureBridge(plan.uuid, n);
      const inNs = [ip, '-n', a.netns];
      await run([ip, 'link', 'add', a.hostVeth, 'mtu', String(MTU), 'type', 'veth', 'peer', 'name', names.peer, 'mtu', String(MTU), 'netns', a.netns]);
      await run([ip, 'link', 'set', a.hostVeth, 'master', n.bridge, 'up']);
      await run([...inNs, 'link', 'set', names.peer, 'name', 'eth0', 'address', plan.hardwareAddress]);
      await run([...inNs, 'addr', 'add', `${a.address}/${prefix}`, 'dev', 'eth0']);
      await run([...inNs, 'link', 'set', 'eth0', 'up']);
      await run([...inNs, 'link', 'set', 'lo', 'up']);
      await run([...inNs, 'route', 'add', 'default', 'via', a.gateway]);
      this.#writeHosts(a, n);
      await this.#applyMember(a, n);
      await this.#applyPeers(n);
      this.o.log.info('instance on its network', { instance, network: plan.uuid, address: a.address, bridge: n.bridge, netns: a.netns });
      return a;
    });
  }

  /**
   * The agent's instance subnet, from the controller. Instances already on networks of their
   * own keep their addresses; a new subnet (the controller's pool was changed) applies to the
   * next ones once those are gone.
   */
  setOwnSubnet(cidr: string): void {
    if (!this.o.ownNetworks || !cidr) return;
    const subnet = parseCidr(cidr);
    if (this.#ownSubnet && this.#ownSubnet.base === subnet.base && this.#ownSubnet.prefix === subnet.prefix) return;
    if (this.#own.size > 0 && this.#ownSubnet) {
      this.o.log.warn('the controller gave this agent another instance subnet: kept until its instances on the old one are gone', { now: cidr });
      return;
    }
    if (this.#ownSubnet) void this.emptyPool();
    this.#ownSubnet = subnet;
    this.#ownReady = undefined;
    this.o.log.info('instances get networks of their own', { subnet: cidr, bridge: agentPrefixes(this.o.agentUuid).ownBridge });
  }

  /** The agent stops: its resolver stops listening (a restarted agent listens again for the instances it takes back). */
  close(): void {
    this.#closed = true;
    clearInterval(this.#resolveTimer);
    this.#resolveTimer = undefined;
    this.o.dns?.close();
    this.#ownReady = undefined;
  }

  /**
   * Whether the `network` floors can be enforced here (shaping.ts): instances on networks of
   * their own, the bandwidth they share given (--instance-bandwidth), tc, and the kernel's HTB,
   * u32, mirred, ifb and ingress tried in a namespace of the agent's own. Once, at the agent's
   * start; what is missing is in `floorsNotEnforced` and the log.
   */
  async probeFloors(): Promise<void> {
    if (!this.o.ownNetworks) this.#floorsNot = 'instances have no networks of their own here';
    else if (!this.o.bandwidth) this.#floorsNot = 'the bandwidth the instances share is not known (--instance-bandwidth)';
    else if (!hasSystemTool('tc')) this.#floorsNot = 'tc is not installed (Debian package iproute2)';
    else this.#floorsNot = await probeShaping(`${agentPrefixes(this.o.agentUuid).netns}probe`);
    if (this.#floorsNot === undefined) this.o.log.info('network floors are enforced: instances share the bandwidth given, each guaranteed its floor', { bandwidth: this.o.bandwidth });
    else this.o.log[this.o.bandwidth ? 'warn' : 'info']('network floors are not enforced here: instances get no guaranteed bandwidth', { reason: this.#floorsNot });
  }

  /** Why the `network` floors are not enforced here; undefined when they are. */
  get floorsNotEnforced(): string | undefined {
    return this.#floorsNot;
  }

  /** Whether an instance not on a virtual network gets a network of its own now. */
  get ownNetworks(): boolean {
    return !!this.o.ownNetworks && this.#ownSubnet !== undefined;
  }

  /**
   * Gives instance `instance` a network of its own: a namespace with `eth0` on the agent's own
   * bridge (its port isolated from the other instances'), an address from the agent's subnet,
   * its loopback, a default route via the bridge; its hosts file and a resolv.conf naming the
   * agent's resolver. `record` is called with what it holds before anything is made. With
   * `ports` (host ports and the instance's ports they go to, in the same order), its ports are
   * forwarded too, as `forward` does, the namespace's rules written by the same script that
   * makes the namespace (commands.ts runScript).
   */
  async attachOwn(
    instance: string,
    jobUuid: string,
    dir: string,
    endpoints: readonly string[],
    record: (a: NetworkAttachment) => void,
    ports?: { host: readonly number[]; inside: readonly number[] },
  ): Promise<NetworkAttachment> {
    const subnet = this.#ownSubnet;
    if (!subnet) throw new Error('this agent has no instance subnet yet (the controller gives it in its Welcome)');
    this.#attaching++;
    try {
      const names = HostNetworks.names(this.o.agentUuid, instance, OWN_NETWORK);
      const bridge = agentPrefixes(this.o.agentUuid).ownBridge;
      const gateway = formatIpv4(subnet.base + 1);
      // A namespace made ahead (its objects are there, named for the pool, not the instance).
      const pooled = this.#takePooled(subnet);
      const a: NetworkAttachment = {
        network: OWN_NETWORK, jobUuid, instance, netns: pooled?.netns ?? names.netns, hostVeth: pooled?.hostVeth ?? names.hostVeth, bridge, vxlan: '',
        address: pooled?.address ?? this.#freeOwnAddress(subnet), prefix: subnet.prefix, gateway, vni: 0, hostsFile: join(dir, 'hosts'), resolvConf: join(dir, 'resolv.conf'),
        baseRoutes: [], routes: [], ports: ports ? [...ports.host] : [], own: true, endpoints: [...new Set(endpoints)].filter((e) => ENDPOINT.test(e)),
        ...(ports ? { insidePorts: [...ports.inside] } : {}),
      };
      this.#own.set(instance, a);
      record(a);
      await this.#ensureOwn(subnet);
      // One script: the namespace (unless it was made ahead) and, with the ports, its rules.
      await this.#instanceRules(a, false, pooled ? [] : this.#ownNamespaceScript(a.netns, a.hostVeth, names.peer, a.address, subnet), !!ports, !!pooled);
      // From the thread pool: making files waits for a busy disk, and a burst of starts makes many.
      await Promise.all([
        writeFile(a.hostsFile, ['127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback', `${a.address}\ti-${instance.slice(0, 8)}`, ''].join('\n'), { mode: 0o644 }),
        writeFile(a.resolvConf!, `nameserver ${gateway}\n`, { mode: 0o644 }),
      ]);
      // The agent's listeners hold the host ports (forward).
      if (ports) await this.o.forwarders.open(a.instance, this.o.address, a.ports, a.address, a.insidePorts ?? a.ports);
      if (this.#egress.has(jobUuid) || this.#endpointsOf(a).length > 0) await this.#rewriteEgress();
      else if (a.ports.length > 0) await this.#updateForwards();
      this.o.log.info('instance on a network of its own', { instance, address: a.address, netns: a.netns, ...(pooled ? { pooled: true } : {}) });
      return a;
    } finally {
      this.#attaching--;
      this.#fillPoolWhenQuiet();
    }
  }

  /**
   * After a start: the pool is filled again once no instance has been attached for
   * POOL_QUIET_MS, not between two starts of a burst (whose every start then competed with the
   * namespaces being made for the pool).
   */
  #fillPoolWhenQuiet(): void {
    if ((this.o.pool ?? 0) <= 0 || this.#closed) return;
    clearTimeout(this.#quiet);
    this.#quiet = setTimeout(() => {
      this.#quiet = undefined;
      if (this.#attaching === 0) void this.#fillPool();
    }, POOL_QUIET_MS);
    this.#quiet.unref();
  }

  /** The parts of a script (commands.ts runScript) that make a namespace on the own bridge. */
  #ownNamespaceScript(netns: string, hostVeth: string, peer: string, address: string, subnet: Cidr): Parameters<typeof runScript>[0] {
    const ip = tool('ip');
    const bridge = agentPrefixes(this.o.agentUuid).ownBridge;
    return [
      {
        argv: [ip, '-batch', '-'],
        what: `ip -batch (namespace ${netns}, host side)`,
        input: [
          `netns add ${netns}`,
          `link add ${hostVeth} mtu 1500 type veth peer name ${peer} netns ${netns}`,
          `link set ${hostVeth} master ${bridge} up`,
          `link set dev ${hostVeth} type bridge_slave isolated on`,
          '',
        ].join('\n'),
      },
      {
        argv: [ip, '-n', netns, '-batch', '-'],
        what: `ip -n ${netns} -batch (instance side)`,
        input: [
          `link set ${peer} name eth0`,
          `addr add ${address}/${subnet.prefix} dev eth0`,
          'link set eth0 up',
          'link set lo up',
          `route add default via ${formatIpv4(subnet.base + 1)}`,
          '',
        ].join('\n'),
      },
    ];
  }

  /** The oldest pooled namespace of `subnet`, taken out of the pool (those of another subnet are deleted). */
  #takePooled(subnet: Cidr): Pooled | undefined {
    for (;;) {
      const p = this.#pool.shift();
      if (!p) return undefined;
      // Another subnet's; or deleted meanwhile by someone else (its veth went with it).
      if (p.subnet === cidrText(subnet) && existsSync(`/run/netns/${p.netns}`)) return p;
      void this.#deletePooled([p]);
    }
  }

  /** How many namespaces the pool holds now (made, not yet handed out). */
  get pooled(): number {
    return this.#pool.length;
  }

  /**
   * Fills the pool up to its size, one namespace at a time, while no instance is being attached
   * nor was within POOL_QUIET_MS (a start never waits for the pool, nor competes with it) and the
   * own bridge is there.
   * Resolves once this fill is done (a failure is logged: the next start makes its own).
   */
  #fillPool(): Promise<void> {
    const size = this.o.pool ?? 0;
    if (size <= 0 || this.#closed) return Promise.resolve();
    // Asked again while a fill runs (it may have stopped for an instance being attached): once more after it.
    if (this.#filling) {
      this.#fillAgain = true;
      return this.#filling;
    }
    if (!this.#ownReady) return Promise.resolve();
    this.#fillAgain = false;
    let failed = false;
    const generation = this.#poolGeneration;
    this.#filling = (async () => {
      while (!this.#closed && this.#attaching === 0 && this.#quiet === undefined && generation === this.#poolGeneration && this.#pool.length + this.#poolMaking.size < size) {
        const subnet = this.#ownSubnet;
        if (!subnet || !this.#ownReady) return;
        await this.#ownReady;
        const id = randomUUID();
        const names = HostNetworks.names(this.o.agentUuid, id, OWN_NETWORK);
        // Named as the pool's (the veth cannot say it: 15 characters), found as the agent's by its prefix.
        names.netns = `${agentPrefixes(this.o.agentUuid).netns}${POOL_NAME}${id}`;
        const address = this.#freeOwnAddress(subnet);
        const p: Pooled = { netns: names.netns, hostVeth: names.hostVeth, address, subnet: cidrText(subnet) };
        this.#poolMaking.add(address);
        try {
          // With the instance's nat table (its ports set empty): a start only adds its ports.
          await runScript([
            ...this.#ownNamespaceScript(p.netns, p.hostVeth, names.peer, address, subnet),
            instanceRulesPart(HostNetworks.netnsPath(p), p.netns, [], [], formatIpv4(subnet.base + 1), address),
          ]);
        } catch (err) {
          await this.#deletePooled([p]);
          throw err;
        } finally {
          this.#poolMaking.delete(address);
        }
        // Emptied (agent stopping, leftovers removed, another subnet) while it was being made.
        if (this.#closed || generation !== this.#poolGeneration) {
          await this.#deletePooled([p]);
          return;
        }
        this.#pool.push(p);
      }
    })()
      .catch((err: unknown) => {
        failed = true;
        this.o.log.warn('a namespace for the pool cannot be made: instances make their own', { err: (err as Error).message });
      })
      .finally(() => {
        this.#filling = undefined;
        // After a failure, the next start asks again (not a loop of failures).
        if (this.#fillAgain && !failed) void this.#fillPool();
      });
    return this.#filling;
  }

  /** Deletes pooled namespaces (their veths go with them): one process. */
  async #deletePooled(pooled: readonly Pooled[]): Promise<void> {
    if (pooled.length === 0) return;
    try {
      await run([tool('ip'), '-force', '-batch', '-'], pooled.map((p) => `netns delete ${p.netns}\n`).join(''));
    } catch (err) {
      // Left for removeLeftovers (the agent's next start).
      this.o.log.warn('pooled namespaces cannot be deleted', { netns: pooled.map((p) => p.netns), err: (err as Error).message });
    }
  }

  /** The agent stops: no namespace is made ahead any more, and those made are deleted. */
  async closePool(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#quiet);
    await this.emptyPool();
  }

  /** Empties the pool: the namespaces made ahead are deleted (once a fill under way is done). */
  async emptyPool(): Promise<void> {
    this.#poolGeneration++;
    const filling = this.#filling;
    const pooled = this.#pool.splice(0);
    await this.#deletePooled(pooled);
    await filling;
  }

  /**
   * What job `job` may reach outside now (its bindings to the outbound network service) and, when
   * given, what else its instances reach ("host:port": a gateway job's back-ends, live): the rules
   * of its instances here are rewritten at once, without restarting them. Resolves once they are
   * in place (never rejects: a failure is logged).
   */
  async setEgress(job: string, rules: readonly EgressRule[], endpoints?: readonly string[]): Promise<void> {
    if (!this.o.ownNetworks) return;
    const before = JSON.stringify(this.#egress.get(job) ?? []);
    if (rules.length > 0) this.#egress.set(job, [...rules]);
    else this.#egress.delete(job);
    const rulesChanged = JSON.stringify(rules) !== before;
    let endpointsChanged = false;
    if (endpoints) {
      const now = [...new Set(endpoints.map((e) => e.replace(/^localhost:/, '127.0.0.1:')))].filter((e) => ENDPOINT.test(e)).sort();
      endpointsChanged = JSON.stringify(now) !== JSON.stringify(this.#jobEndpoints.get(job) ?? []);
      if (now.length > 0) this.#jobEndpoints.set(job, now);
      else this.#jobEndpoints.delete(job);
    }
    if (!rulesChanged && !endpointsChanged) return;
    this.o.log.info('outbound openings of a job', { job, rules: rules.map(describeRule), ...(endpoints ? { endpoints: this.#jobEndpoints.get(job) ?? [] } : {}) });
    if (rulesChanged) this.#watchNames();
    await this.#rewriteEgress();
    // Its instances' own rules send those on the host's loopback to the gateway address.
    if (endpointsChanged) {
      for (const a of [...this.#own.values()].filter((i) => i.jobUuid === job)) {
        await this.#instanceRules(a, true).catch((err: unknown) =>
          this.o.log.error('the rules of an instance\'s namespace cannot be written', { instance: a.instance, err: (err as Error).message }),
        );
      }
    }
  }

  /** What instance `a` reaches that the platform provides: its own endpoints and its job's. */
  #endpointsOf(a: NetworkAttachment): string[] {
    return [...new Set([...(a.endpoints ?? []), ...(this.#jobEndpoints.get(a.jobUuid) ?? [])])];
  }

  /** The names of the openings, resolved now and again every egressResolveMs while any is in use. */
  #watchNames(): void {
    const names = new Set([...this.#egress.values()].flat().flatMap((r) => (r.domainname ? [r.domainname] : [])));
    for (const n of [...this.#names.keys()]) if (!names.has(n)) this.#names.delete(n);
    if (names.size === 0) {
      clearInterval(this.#resolveTimer);
      this.#resolveTimer = undefined;
      return;
    }
    void this.#resolveNames();
    this.#resolveTimer ??= setInterval(() => void this.#resolveNames(), this.o.egressResolveMs ?? 30_000);
    this.#resolveTimer.unref();
  }

  async #resolveNames(): Promise<void> {
    const resolver = new Resolver({ timeout: 3000, tries: 2 });
    if (this.o.resolver) resolver.setServers([this.o.resolver]);
    const names = new Set([...this.#egress.values()].flat().flatMap((r) => (r.domainname ? [r.domainname] : [])));
    let changed = false;
    for (const name of names) {
      let addresses: string[];
      try {
        addresses = (await resolver.resolve4(name)).sort();
      } catch (err) {
        // A name that does not resolve (now) opens nothing; one that failed to answer keeps what it had.
        const code = (err as { code?: string }).code;
        if (code !== 'ENOTFOUND' && code !== 'ENODATA') continue;
        addresses = [];
      }
      if (JSON.stringify(this.#names.get(name) ?? null) !== JSON.stringify(addresses)) {
        this.#names.set(name, addresses);
        changed = true;
        this.o.log.info('a name of an outbound opening resolves anew', { name, addresses });
      }
    }
    if (changed) await this.#rewriteEgress();
  }

  /**
   * The rules of every instance here on a network of its own: its job's openings (forward), and
   * its endpoints (input when on the host, forward when not, and a DNAT from the gateway address
   * to the host's loopback).
   */
  #allowLines(gateway: string): EgressAllow {
    const lines: string[] = [];
    const input: string[] = [];
    const dnat: string[] = [];
    for (const a of this.#own.values()) {
      for (const e of this.#endpointsOf(a)) {
        const [host, port] = e.split(':');
        input.push(`ip saddr ${a.address} ip daddr ${host} tcp dport ${port}`);
        if (host!.startsWith('127.')) dnat.push(`ip saddr ${a.address} ip daddr ${gateway} tcp dport ${port} dnat ip to ${host}:${port}`);
        else lines.push(`ip saddr ${a.address} ip daddr ${host} tcp dport ${port}`);
      }
      for (const rule of this.#egress.get(a.jobUuid) ?? []) {
        const to = rule.ipnet ? [rule.ipnet] : (this.#names.get(rule.domainname ?? '') ?? []);
        if (to.length === 0) continue;
        const first = rule.portFirst ?? 0;
        const last = rule.portLast ?? 0;
        const ports = first === 0 ? '' : first === last ? ` th dport ${first}` : ` th dport ${first}-${last}`;
        const protocol = rule.protocol === 'tcp' || rule.protocol === 'udp' ? rule.protocol : undefined;
        const l4 = protocol ? ` meta l4proto ${protocol}` : ports ? ' meta l4proto { tcp, udp }' : '';
        lines.push(`ip saddr ${a.address} ip daddr { ${to.join(', ')} }${l4}${ports}`);
      }
    }
    const forwards = this.#forwards();
    const remote = !this.o.address.startsWith('127.') && hostForwards();
    return { forward: lines, input, dnat, ports: { address: this.o.address, remote, forwards } };
  }

  /** Writes the egress table whole (one nft transaction) and the bridge's sysctls it needs. */
  async #writeEgress(subnet: Cidr): Promise<void> {
    const p = agentPrefixes(this.o.agentUuid);
    const gateway = formatIpv4(subnet.base + 1);
    const allow = this.#allowLines(gateway);
    // Forwarding from the bridge only once something is open (the rules refuse the rest anyway);
    // packets for the host's loopback from it only once an endpoint is there.
    if (allow.forward.length > 0 || allow.ports?.remote) setForwarding(p.ownBridge, true);
    // The host's own connections from its loopback to forwarded ports, and the endpoints there:
    // packets with a loopback address on the bridge (its own setting; the host's others stay).
    if (allow.dnat.length > 0 || (allow.ports?.forwards.length ?? 0) > 0) setSysctl(p.ownBridge, 'route_localnet', true);
    // In one of the agent's shells: rewritten after each start with ports, by a burst of starts too.
    this.#mapped = new Map();
    await runScript([{ argv: [tool('nft'), '-f', '-'], what: `nft -f (table inet ${p.egressTable})`, input: egressRules(p.egressTable, p.ownBridge, gateway, `${formatIpv4(subnet.base)}/${subnet.prefix}`, allow) + '\n' }]);
    this.#mapped = forwardsMap(allow.ports?.forwards ?? []);
  }

  /**
   * Brings the forwarded ports' map of the egress table up to date with the instances here: the
   * entries that changed deleted and added in one nft transaction, a few ms where the whole
   * table takes tens (its nat hooks registered again). When that fails (the table is not what
   * was last written), the whole table is written.
   */
  async #syncForwards(subnet: Cidr): Promise<void> {
    const p = agentPrefixes(this.o.agentUuid);
    const want = forwardsMap(this.#forwards());
    const stale = [...this.#mapped].filter(([port, to]) => want.get(port) !== to).map(([port]) => port);
    const fresh = [...want].filter(([port, to]) => this.#mapped.get(port) !== to);
    if (stale.length === 0 && fresh.length === 0) return;
    if (want.size > 0) setSysctl(p.ownBridge, 'route_localnet', true);
    const lines = [
      ...(stale.length > 0 ? [`delete element inet ${p.egressTable} forwards { ${stale.join(', ')} }`] : []),
      ...(fresh.length > 0 ? [`add element inet ${p.egressTable} forwards { ${fresh.map(([port, to]) => `${port} : ${to}`).join(', ')} }`] : []),
    ];
    try {
      await runScript([{ argv: [tool('nft'), '-f', '-'], what: `nft -f (the forwarded ports of table inet ${p.egressTable})`, input: lines.join('\n') + '\n' }]);
      this.#mapped = want;
    } catch (err) {
      this.o.log.warn('the forwarded ports cannot be updated alone: the whole outbound table is written', { err: (err as Error).message });
      await this.#writeEgress(subnet);
    }
  }

  /** Every forwarded port of the instances on networks of their own: host port -> `address:port` inside. */
  #forwards(): { hostPort: number; to: string }[] {
    return [...this.#own.values()].flatMap((a) => a.ports.map((hostPort, i) => ({ hostPort, to: `${a.address}:${a.insidePorts?.[i] ?? hostPort}` })));
  }

  /** Rewrites the egress table, once the own bridge is there. */
  #rewriteEgress(): Promise<void> {
    return this.#queueEgress(true);
  }

  /**
   * After an instance with forwarded ports and no other rule came or went: only the forwarded
   * ports' map is brought up to date (#syncForwards), in turn with the whole writes.
   */
  #updateForwards(): Promise<void> {
    return this.#queueEgress(false);
  }

  #queueEgress(full: boolean): Promise<void> {
    // A write waiting for its turn writes what is there when it runs: later wishes join it.
    const queued = this.#egressQueued;
    if (queued) {
      queued.full ||= full;
      return queued.done;
    }
    const entry = { done: Promise.resolve(), full };
    const next = this.#egressChain.then(async () => {
      this.#egressQueued = undefined;
      const subnet = this.#ownSubnet;
      if (!subnet || !this.#ownReady) return;
      await this.#ownReady;
      await (entry.full ? this.#writeEgress(subnet) : this.#syncForwards(subnet));
    });
    this.#egressChain = next.catch((err: unknown) => this.o.log.error('the outbound rules cannot be written', { err: (err as Error).message }));
    entry.done = this.#egressChain;
    this.#egressQueued = entry;
    return this.#egressChain;
  }

  /**
   * The next free address after the last one given (round the subnet): an address an instance
   * left is given again only after the others, for the host still knows it for a while (its
   * neighbour entry with the old MAC, connections in its connection tracking).
   */
  #freeOwnAddress(subnet: Cidr): string {
    const used = new Set([...[...this.#own.values(), ...this.#pool].map((a) => a.address), ...this.#poolMaking]);
    const first = subnet.base + 2;
    const count = 2 ** (32 - subnet.prefix) - 3;
    const from = this.#lastOwn !== undefined && this.#lastOwn >= first && this.#lastOwn < first + count ? this.#lastOwn - first + 1 : 0;
    for (let i = 0; i < count; i++) {
      const n = first + ((from + i) % count);
      const address = formatIpv4(n);
      if (!used.has(address)) {
        this.#lastOwn = n;
        return address;
      }
    }
    throw new Error(`the agent's instance subnet ${formatIpv4(subnet.base)}/${subnet.prefix} has no free address left`);
  }


  /** The own bridge (gateway address, up, forwarding off), the egress table and the resolver: once per subnet. */
  #ensureOwn(subnet: Cidr): Promise<void> {
    this.#ownReady ??= (async () => {
      const p = agentPrefixes(this.o.agentUuid);
      const ip = tool('ip');
      const gateway = formatIpv4(subnet.base + 1);
      // A subnet that an interface of the host already has (another agent on this host given the
      // same block by another cluster, the host's own network) would put two routes for one block
      // on the host: instances would be reached on the wrong bridge, or not at all. Refused with
      // what it meets, rather than made and silently misrouted.
      const clash = ownSubnetClash(await run([ip, '-o', '-4', 'addr', 'show']), subnet, p.ownBridge);
      if (clash) throw new Error(`the instance subnet ${formatIpv4(subnet.base)}/${subnet.prefix} overlaps ${clash.cidr} of interface ${clash.device} on this host: give this cluster's controller another --agent-subnet-pool`);
      try {
        await run([ip, 'link', 'add', p.ownBridge, 'type', 'bridge']);
      } catch (err) {
        if (!/File exists/.test((err as Error).message)) throw err;
      }
      await run([ip, 'addr', 'replace', `${gateway}/${subnet.prefix}`, 'dev', p.ownBridge]);
      await run([ip, 'link', 'set', p.ownBridge, 'up']);
      await this.#ensureShaping(subnet);
      await this.#writeEgress(subnet);
      // Without its resolver an instance still runs (and names in its hosts file resolve).
      await this.o.dns?.listen(gateway).catch((err: unknown) => this.o.log.error('the instances\' resolver cannot listen: they resolve no names', { address: `${gateway}:53`, err: (err as Error).message }));
    })().catch((err: unknown) => {
      this.#ownReady = undefined;
      throw err;
    });
    const ready = this.#ownReady;
    void ready.then(() => this.#fillPool(), () => {});
    return ready;
  }

  /**
   * The HTBs dividing the bandwidth on the own bridge (shaping.ts), where the floors are
   * enforced: made, or (an agent restarted, its instances' classes in place) given the bandwidth
   * again. A failure leaves the floors unenforced from then on, said in the log.
   */
  async #ensureShaping(subnet: Cidr): Promise<void> {
    if (this.#floorsNot !== undefined || !this.o.bandwidth) return;
    const p = agentPrefixes(this.o.agentUuid);
    const tc = tool('tc');
    try {
      try {
        await run([tool('ip'), 'link', 'add', p.ownIfb, 'type', 'ifb']);
      } catch (err) {
        if (!/File exists/.test((err as Error).message)) throw err;
      }
      await run([tool('ip'), 'link', 'set', p.ownIfb, 'up']);
      const made = /qdisc htb 1: root/.test(await run([tc, 'qdisc', 'show', 'dev', p.ownBridge, 'root'])) && /qdisc htb 1: root/.test(await run([tc, 'qdisc', 'show', 'dev', p.ownIfb, 'root']));
      if (made) {
        await run([tc, '-batch', '-'], shapingBandwidthChange(p.ownBridge, p.ownIfb, this.o.bandwidth));
      } else {
        // Whatever else is there (half made by a run that was killed) goes first.
        for (const argv of [['qdisc', 'del', 'dev', p.ownBridge, 'root'], ['qdisc', 'del', 'dev', p.ownBridge, 'ingress'], ['qdisc', 'del', 'dev', p.ownIfb, 'root']]) {
          await run([tc, ...argv]).catch(() => {});
        }
        await run([tc, '-batch', '-'], shapingSetup(p.ownBridge, p.ownIfb, subnet, this.o.bandwidth));
      }
    } catch (err) {
      this.#floorsNot = `the bridge's shaping cannot be made (${(err as Error).message})`;
      this.o.log.error('network floors are not enforced: the shaping of the instances\' bridge cannot be made', { err: (err as Error).message });
    }
  }

  /**
   * The job's network resources on the instance's interface: `netmax` (bits per second, 0: none)
   * caps what it sends (a token bucket on its eth0, in its namespace, where it cannot change it)
   * and what it receives (the same on the host end of its veth). The floor (`network`) is
   * enforced where floors are (probeFloors): its class in both HTBs of the agent's bridge, rate
   * the floor, ceiling its netmax or the bandwidth the instances share. Members of virtual
   * networks get no floor (their traffic crosses hosts on the networks' own bridges). Answers
   * (and logs) what was not enforced.
   */
  async limit(a: NetworkAttachment, resources: { network: number; netmax: number }): Promise<string[]> {
    const missed: string[] = [];
    if (resources.netmax > 0) {
      const rate = Math.max(8000, Math.floor(resources.netmax));
      // About 20 ms of the rate (at least a few full frames), and as much again queued.
      const burst = Math.max(16 * 1024, Math.ceil(rate / 8 / 50));
      const tbf = ['qdisc', 'replace', 'dev', '', 'root', 'tbf', 'rate', `${rate}bit`, 'burst', String(burst), 'limit', String(burst * 2)];
      try {
        const tc = tool('tc');
        await run([tc, '-n', a.netns, ...tbf.map((x, i) => (i === 3 ? 'eth0' : x))]);
        await run([tc, ...tbf.map((x, i) => (i === 3 ? a.hostVeth : x))]);
      } catch (err) {
        missed.push(`netmax (${(err as Error).message})`);
      }
    }
    // A floor not enforced where floors are is a failure (warn); elsewhere it is what the host
    // gives, said at start (every job has a floor, 5 Mbps by default): debug.
    let floorFailed = false;
    if (resources.network > 0) {
      const why = !a.own ? 'a member of a virtual network' : this.#floorsNot;
      if (why !== undefined) missed.push(`network (${why})`);
      else {
        const p = agentPrefixes(this.o.agentUuid);
        const bandwidth = this.o.bandwidth ?? 0;
        const ceil = resources.netmax > 0 ? Math.min(resources.netmax, bandwidth) : bandwidth;
        const subnet = { base: parseIpv4(a.gateway) - 1, prefix: a.prefix };
        const script = instanceShaping(p.ownBridge, p.ownIfb, subnet, a.address, a.hostVeth, resources.network, ceil);
        try {
          if (!script) throw new Error(`no class for address ${a.address}`);
          await run([tool('tc'), '-batch', '-'], script);
        } catch (err) {
          floorFailed = true;
          missed.push(`network (${(err as Error).message})`);
        }
      }
    }
    if (missed.length > 0) this.o.log[floorFailed || missed.some((m) => m.startsWith('netmax')) ? 'warn' : 'debug']('network resources not enforced on this instance', { instance: a.instance, not_enforced: missed });
    return missed;
  }

  /** Forwards the instance's ports from the host (after attach, and again after an agent restart). */
  async forward(a: NetworkAttachment, ports: readonly number[], insidePorts?: readonly number[]): Promise<void> {
    a.ports = [...ports];
    if (insidePorts) a.insidePorts = [...insidePorts];
    // In a network of its own an application that listens on its loopback only is reached too.
    if (a.own) await this.#instanceRules(a);
    // The agent's listeners hold the host ports (nothing else takes them while it runs) and carry
    // UDP; TCP to them is passed on in the kernel for instances on networks of their own (the
    // egress table), which also holds while the agent is down.
    await this.o.forwarders.open(a.instance, this.o.address, ports, a.address, a.insidePorts ?? ports);
    if (a.own && ports.length > 0) await this.#updateForwards();
  }

  /**
   * The nat table in the instance's own namespace (instanceRules), replaced whole, with what it
   * needs there: packets for its loopback from eth0 (its ports) and to the host's loopback through
   * eth0 (its endpoints) are routed (route_localnet on its eth0, in its namespace only). One
   * script, which runs `before` first (the namespace being made: commands.ts runScript). Without
   * `rules` only `before` runs.
   */
  #instanceRules(a: NetworkAttachment, always = false, before: Parameters<typeof runScript>[0] = [], rules = true, made = false): Promise<void> {
    // One at a time per instance, each written from what the instance has when it runs.
    const prev = this.#nsChains.get(a.instance) ?? Promise.resolve();
    const next = prev.then(async () => {
      const ports = a.insidePorts ?? a.ports;
      const endpoints = this.#endpointsOf(a).filter((e) => e.startsWith('127.'));
      const parts = [...before];
      if (made && endpoints.length === 0) {
        // The namespace was made ahead with the table (no port, no endpoint) and route_localnet:
        // its ports are added to the set, a few ms where writing the table takes tens.
        if (rules && ports.length > 0) {
          parts.push({ argv: [tool('nsenter'), `--net=${HostNetworks.netnsPath(a)}`, '--', tool('nft'), '-f', '-'], what: `nft -f (the ports in namespace ${a.netns})`, input: `add element ip platform_instance ports { ${[...new Set(ports)].join(', ')} }\n` });
        }
      } else if (rules && (endpoints.length > 0 || ports.length > 0 || always || made)) {
        parts.push(instanceRulesPart(HostNetworks.netnsPath(a), a.netns, endpoints, ports, a.gateway, a.address));
      }
      if (parts.length > 0) await runScript(parts);
    });
    const settled = next.catch(() => {});
    this.#nsChains.set(a.instance, settled);
    void settled.then(() => {
      if (this.#nsChains.get(a.instance) === settled) this.#nsChains.delete(a.instance);
    });
    return next;
  }


  /** An instance found on disk after an agent restart: known again here, its ports forwarded again. */
  adopt(a: NetworkAttachment): void {
    if (a.own) {
      this.#own.set(a.instance, a);
      this.#ownSubnet ??= { base: parseIpv4(a.gateway) - 1, prefix: a.prefix };
      // The resolver listens again (and the egress rules are made again) before the ports are.
      this.#ensureOwn(this.#ownSubnet).then(
        () => this.forward(a, a.ports, a.insidePorts),
        (err: unknown) => this.o.log.error('the network of a re-attached instance cannot be set up again', { instance: a.instance, err: (err as Error).message }),
      ).catch((err: unknown) => this.o.log.error('the ports of a re-attached instance cannot be forwarded again', { instance: a.instance, err: (err as Error).message }));
      return;
    }
    const existing = this.#networks.get(a.network);
    const n = existing ?? {
      bridge: a.bridge, vxlan: a.vxlan, vni: a.vni, gateway: a.gateway, prefix: a.prefix, hosts: [], peers: [],
      flooding: new Set<string>(), members: new Map(), instances: new Map(),
    };
    this.#networks.set(a.network, n);
    n.instances.set(a.instance, a);
    if (!n.members.has(a.jobUuid)) n.members.set(a.jobUuid, { broadcastEnable: a.broadcastTable === undefined, routes: a.routes.filter((r) => !a.baseRoutes.includes(r)) });
    this.forward(a, a.ports).catch((err: unknown) => this.o.log.error('the ports of a re-attached instance cannot be forwarded again', { instance: a.instance, err: (err as Error).message }));
  }

  /** Takes the instance off its network: forwarders, broadcast filter, namespace (and veth); the bridge when it was the last. */
  detach(a: NetworkAttachment): Promise<void> {
    if (a.own) return this.#detachOwn(a);
    return this.#serial(a.network, async () => {
      this.o.forwarders.close(a.instance);
      const ip = tool('ip');
      if (a.broadcastTable) await runIgnoring([tool('nft'), 'delete', 'table', 'bridge', a.broadcastTable], NOT_THERE);
      await runIgnoring([ip, 'netns', 'delete', a.netns], NOT_THERE);
      await runIgnoring([ip, 'link', 'delete', a.hostVeth], NOT_THERE);
      const n = this.#networks.get(a.network);
      n?.instances.delete(a.instance);
      if (n && ![...n.instances.values()].some((i) => i.jobUuid === a.jobUuid)) n.members.delete(a.jobUuid);
      if (!(await this.#hasVeths(a.bridge))) {
        await runIgnoring([ip, 'link', 'delete', a.vxlan], NOT_THERE);
        await runIgnoring([ip, 'link', 'delete', a.bridge], NOT_THERE);
        this.#networks.delete(a.network);
        this.o.log.info('network bridge removed: its last member here went', { network: a.network, bridge: a.bridge });
      }
      this.o.log.info('instance off its network', { instance: a.instance, network: a.network, netns: a.netns });
    });
  }

  /**
   * Deletes what carries this agent's name prefixes (agentPrefixes) and no instance of `keep`
   * holds: network namespaces (their mounts under /run/netns with them, and so their veth pairs),
   * veths, bridges and VXLAN devices, broadcast tables, and the uid table when nothing is kept
   * (the next attach makes it again). Run at the agent's start, after it re-attached its
   * instances and before it makes anything (what a killed run left), and once it has stopped its
   * instances (what a failed teardown left). Answers what it removed; one that cannot be removed
   * is logged and left for the next run.
   */
  async removeLeftovers(keep: readonly NetworkAttachment[]): Promise<string[]> {
    const p = agentPrefixes(this.o.agentUuid);
    const ip = tool('ip');
    const nft = tool('nft');
    const removed: string[] = [];
    const attempt = async (what: string, argv: string[]) => {
      try {
        await runIgnoring(argv, NOT_THERE);
        removed.push(what);
      } catch (err) {
        this.o.log.warn('a leftover cannot be removed', { what, err: (err as Error).message });
      }
    };
    // The pool's namespaces are leftovers too (deleted below, with the rest).
    this.#poolGeneration++;
    this.#pool = [];
    await this.#filling;
    const keptNs = new Set(keep.map((a) => a.netns));
    for (const ns of agentNamespaces(p.netns)) {
      if (!keptNs.has(ns)) await attempt(`netns ${ns}`, [ip, 'netns', 'delete', ns]);
    }
    const keptLinks = new Set(keep.flatMap((a) => [a.hostVeth, a.bridge, a.vxlan, ...(a.own ? [p.ownIfb] : [])]));
    const links = (await run([ip, '-o', 'link', 'show'])).split('\n').map((l) => /^\d+: ([^:@]+)/.exec(l)?.[1] ?? '');
    for (const link of links) {
      if (keptLinks.has(link)) continue;
      if (link.startsWith(p.veth) || link.startsWith(p.vxlan) || link.startsWith(p.bridge) || link.startsWith(p.ifb)) await attempt(`link ${link}`, [ip, 'link', 'delete', link]);
    }
    const keptTables = new Set(keep.flatMap((a) => (a.broadcastTable ? [a.broadcastTable] : [])));
    for (const line of (await run([nft, 'list', 'tables'])).split('\n')) {
      const [, family, name] = /^table (\S+) (\S+)$/.exec(line.trim()) ?? [];
      if (!family || !name) continue;
      const mine = (family === 'bridge' && name.startsWith(p.table) && !keptTables.has(name)) || (family === 'inet' && (name === p.uidTable || name === p.egressTable) && keep.length === 0);
      if (mine) await attempt(`nft table ${family} ${name}`, [nft, 'delete', 'table', family, name]);
    }
    if (keep.length === 0) {
      this.#uidTable = undefined;
      this.#ownReady = undefined;
      this.o.dns?.close();
    }
    for (const instance of [...this.#own.keys()]) if (!keep.some((a) => a.instance === instance)) this.#own.delete(instance);
    for (const [uuid, n] of [...this.#networks]) {
      if (![...n.instances.values()].some((a) => keptNs.has(a.netns))) this.#networks.delete(uuid);
    }
    if (removed.length > 0) this.o.log.info('leftovers of this agent removed from the host', { removed });
    return removed;
  }

  /** Takes the instance off its own network: forwarders, namespace (and veth); the own bridge stays for the next. */
  async #detachOwn(a: NetworkAttachment): Promise<void> {
    this.o.forwarders.close(a.instance);
    const ip = tool('ip');
    // By the shells (commands.ts runScript): a stop forks no process of the agent's either.
    await runScriptIgnoring([ip, 'netns', 'delete', a.netns], NOT_THERE);
    await runScriptIgnoring([ip, 'link', 'delete', a.hostVeth], NOT_THERE);
    // Its floor's classes (the next instance at its address replaces them anyway).
    if (this.#floorsNot === undefined) {
      const p = agentPrefixes(this.o.agentUuid);
      const script = instanceUnshaping(p.ownBridge, p.ownIfb, { base: parseIpv4(a.gateway) - 1, prefix: a.prefix }, a.address);
      // -force: each line is tried; one not there (an instance without a floor) is no matter.
      if (script) await runScript([{ argv: [tool('tc'), '-force', '-batch', '-'], input: script, what: 'tc -force -batch (the floor\'s classes)' }]).catch(() => {});
    }
    this.#own.delete(a.instance);
    // Its address may be given to another instance: what it was allowed goes with it.
    if (this.#egress.has(a.jobUuid) || this.#endpointsOf(a).length > 0) await this.#rewriteEgress();
    else if (a.ports.length > 0) await this.#updateForwards();
    this.o.log.info('instance off its own network', { instance: a.instance, netns: a.netns });
  }

  /** The controller's news of a network: hosts files, routes and broadcast filters, VXLAN peers. */
  update(state: NetworkState): Promise<void> {
    const uuid = state.networkUuid ?? '';
    return this.#serial(uuid, async () => {
      const n = this.#networks.get(uuid);
      if (!n) {
        this.#pending.set(uuid, state);
        return;
      }
      this.#take(n, state);
      for (const a of n.instances.values()) {
        this.#writeHosts(a, n);
        await this.#applyMember(a, n).catch((err: unknown) => this.o.log.warn('network options not applied', { instance: a.instance, err: (err as Error).message }));
      }
      await this.#applyPeers(n).catch((err: unknown) => this.o.log.warn('VXLAN peers not applied', { network: uuid, err: (err as Error).message }));
    });
  }

  #take(n: HostNetwork, state: NetworkState): void {
    n.hosts = (state.hosts ?? []).map((h) => ({ name: h.name ?? '', address: h.address ?? '' })).filter((h) => VALID_HOST.test(h.name) && IPV4.test(h.address));
    n.peers = (state.peers ?? []).filter((p) => IPV4.test(p));
    for (const m of state.members ?? []) {
      n.members.set(m.jobUuid ?? '', { broadcastEnable: m.broadcastEnable !== false, routes: (m.routes ?? []).filter((r) => CIDR.test(r)) });
    }
  }

  /** True while any veth is a port of `bridge`. */
  async #hasVeths(bridge: string): Promise<boolean> {
    let out: string;
    try {
      out = await run([tool('ip'), '-o', 'link', 'show', 'master', bridge]);
    } catch {
      return false;
    }
    return out.split('\n').some((l) => l.includes(`: ${NAME_PREFIXES.veth}`));
  }

  async #ensureBridge(network: string, n: HostNetwork): Promise<void> {
    const ip = tool('ip');
    try {
      await run([ip, 'link', 'add', n.bridge, 'type', 'bridge']);
    } catch (err) {
      if (!/File exists/.test((err as Error).message)) throw err;
    }
    await run([ip, 'link', 'set', n.bridge, 'address', bridgeMac(network), 'up']);
    await run([ip, 'addr', 'replace', `${n.gateway}/${n.prefix}`, 'dev', n.bridge]);
  }

  /** The member's routes and broadcast filter on instance `a`. */
  async #applyMember(a: NetworkAttachment, n: HostNetwork): Promise<void> {
    const member = n.members.get(a.jobUuid) ?? { broadcastEnable: true, routes: [] };
    const ip = tool('ip');
    const want = [...new Set([...a.baseRoutes, ...member.routes])].sort();
    for (const r of a.routes.filter((r) => !want.includes(r))) await runIgnoring([ip, '-n', a.netns, 'route', 'delete', r, 'dev', 'eth0'], NOT_THERE);
    for (const r of want) await run([ip, '-n', a.netns, 'route', 'replace', r, 'dev', 'eth0']);
    a.routes = want;
    const table = HostNetworks.names(this.o.agentUuid, a.instance, a.network).table;
    if (!member.broadcastEnable) {
      const script = [
        `table bridge ${table} {}`,
        `delete table bridge ${table}`,
        `table bridge ${table} {`,
        '  chain members {',
        '    type filter hook forward priority 0; policy accept;',
        `    oifname "${a.hostVeth}" ether type != arp ether daddr ff:ff:ff:ff:ff:ff drop`,
        '  }',
        '}',
      ].join('\n');
      a.broadcastTable = table;
      await run([tool('nft'), '-f', '-'], script + '\n');
    } else if (a.broadcastTable) {
      await runIgnoring([tool('nft'), 'delete', 'table', 'bridge', a.broadcastTable], NOT_THERE);
      delete a.broadcastTable;
    }
  }

  /** The VXLAN device and its flood entries: one per other agent host with members. */
  async #applyPeers(n: HostNetwork): Promise<void> {
    if (n.peers.length === 0 && n.flooding.size === 0) return;
    const ip = tool('ip');
    const bridge = tool('bridge');
    if (n.flooding.size === 0) {
      try {
        await run([ip, 'link', 'add', n.vxlan, 'mtu', String(MTU), 'type', 'vxlan', 'id', String(n.vni), 'dstport', String(VXLAN_PORT), 'local', this.o.address, 'nolearning']);
      } catch (err) {
        if (!/File exists/.test((err as Error).message)) throw err;
      }
      await run([ip, 'link', 'set', n.vxlan, 'master', n.bridge, 'up']);
    }
    for (const peer of n.peers) {
      if (n.flooding.has(peer)) continue;
      try {
        await run([bridge, 'fdb', 'append', '00:00:00:00:00:00', 'dev', n.vxlan, 'dst', peer]);
      } catch (err) {
        // Written before this agent process started (it re-attached its instances).
        if (!/File exists/.test((err as Error).message)) throw err;
      }
      n.flooding.add(peer);
    }
    for (const peer of [...n.flooding]) {
      if (n.peers.includes(peer)) continue;
      await runIgnoring([bridge, 'fdb', 'delete', '00:00:00:00:00:00', 'dev', n.vxlan, 'dst', peer], NOT_THERE);
      n.flooding.delete(peer);
    }
  }

  /** Rewrites the instance's hosts file in place (the bind mount keeps the inode). */
  #writeHosts(a: NetworkAttachment, n: HostNetwork): void {
    const lines = [
      '127.0.0.1\tlocalhost',
      '::1\tlocalhost ip6-localhost ip6-loopback',
      `${a.address}\ti-${a.instance.slice(0, 8)}`,
      ...n.hosts.map((h) => `${h.address}\t${h.name}`),
    ];
    writeFileSync(a.hostsFile, lines.join('\n') + '\n', { mode: 0o644 });
  }

  /**
   * Keeps the instances' own uids off every network bridge: only the agent and the members (from
   * their namespaces) reach member addresses. Made once per agent start (replacing what an
   * earlier run left).
   */
  #ensureUidTable(): Promise<void> {
    const uids = this.o.uids;
    if (!uids) return Promise.resolve();
    this.#uidTable ??= (async () => {
      const table = agentPrefixes(this.o.agentUuid).uidTable;
      const script = [
        `table inet ${table} {}`,
        `delete table inet ${table}`,
        `table inet ${table} {`,
        '  chain out {',
        '    type filter hook output priority 0; policy accept;',
        `    oifname "${NAME_PREFIXES.bridge}*" meta skuid ${uids.first}-${uids.last} reject`,
        '  }',
        '}',
      ].join('\n');
      await run([tool('nft'), '-f', '-'], script + '\n');
    })().catch((err: unknown) => {
      this.#uidTable = undefined;
      throw err;
    });
    return this.#uidTable;
  }
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const CIDR = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\/(?:3[0-2]|[12]?\d)$/;
const VALID_HOST = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;

/** The bridge's MAC: the same for a network on every host (locally administered, from its uuid). */
export function bridgeMac(network: string): string {
  const h = createHash('sha256').update(network).digest();
  return ['0a', '5a', ...[...h.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0'))].join(':');
}

/**
 * The ports listening in the network namespace at `netnsPath`, read from the /proc of a process
 * below the instance's wrapper (`wrapper`, its pid) that is in it (nsenter enters it; bwrap and
 * the application are below); none before one is. The process found is kept while it stays in
 * the namespace; one is looked for among the wrapper's descendants, not the whole of /proc, which
 * would read every process's stat at each poll of many instances starting at once.
 */
export function namespaceListening(wrapper: number, netnsPath: string): () => Promise<Set<number>> {
  let known: number | undefined;
  return async () => {
    let ino: number;
    try {
      ino = statSync(netnsPath).ino;
    } catch {
      return new Set();
    }
    const inside = (pid: number) => {
      try {
        return readlinkSync(`/proc/${pid}/ns/net`) === `net:[${ino}]`;
      } catch {
        return false; // gone meanwhile
      }
    };
    if (known === undefined || !inside(known)) known = descendants(wrapper).find(inside);
    if (known === undefined) return new Set();
    try {
      return await listeningPortsOf(known);
    } catch {
      known = undefined;
      return new Set();
    }
  };
}

/**
 * The ports among `ports` that accept a TCP connection at `address`, the address of an instance
 * on a network of its own, tried from the host as forwarded traffic reaches it (its namespace
 * passes connections to its ports on to its loopback: an application listening there alone
 * accepts too). Each try is a connection the application accepts and sees closed at once, as
 * the port health checks of other platforms are. Cheap, where reading the namespace's
 * /proc/<pid>/net/tcp walks the kernel's whole TCP hash table (milliseconds a read on a host
 * with much memory) at every look of every instance starting.
 */
export function acceptingPorts(address: string, ports: readonly number[], timeoutMs = 1_000): () => Promise<Set<number>> {
  const accepts = (port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = connect({ host: address, port, timeout: timeoutMs });
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.once('connect', () => done(true));
      socket.once('timeout', () => done(false));
      socket.once('error', () => done(false)); // refused: nothing listens yet
    });
  return async () => {
    const open = await Promise.all(ports.map(async (p) => ((await accepts(p)) ? p : undefined)));
    return new Set(open.filter((p): p is number => p !== undefined));
  };
}

/**
 * The network namespaces whose names start with `prefix`: the files in /run/netns and the mounts
 * there (a mount whose file went is still one to delete: `ip netns delete` unmounts it).
 */
function agentNamespaces(prefix: string): string[] {
  const names = new Set<string>();
  try {
    for (const f of readdirSync('/run/netns')) if (f.startsWith(prefix)) names.add(f);
  } catch {
    // no namespace was ever made here
  }
  try {
    for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
      const at = line.split(' ')[4] ?? '';
      if (at.startsWith(`/run/netns/${prefix}`)) names.add(at.slice('/run/netns/'.length));
    }
  } catch {
    // no /proc: the files are all there is
  }
  return [...names];
}

/**
 * The egress rules of the instances on networks of their own (the agent's table, replaced whole):
 * from the own bridge, the host answers what it started (forwarded ports) and the resolver on
 * the gateway address, and refuses everything else; nothing is forwarded from the bridge to any
 * other network but what `allow` opens (`ip saddr <instance> ip daddr ... accept`: the outbound
 * bindings of its job), masqueraded, with the answers; nothing is forwarded to the bridge
 * otherwise. Instances on the bridge never reach each other (isolated ports).
 */
export interface EgressAllow {
  /** Matches of what is forwarded from the bridge (accepted). */
  forward: string[];
  /** Matches of what the host accepts from the bridge. */
  input: string[];
  /** Whole rules of the prerouting nat chain (the gateway address to the host's loopback). */
  dnat: string[];
  /**
   * The instances' forwarded ports, TCP and UDP, passed on in the kernel (so that they are
   * reached while the agent restarts): `address:hostPort` -> `to`, from the host itself (nat
   * output) and, when `remote`, from elsewhere (nat prerouting: the host must forward packets,
   * ip_forward).
   */
  ports?: { address: string; remote: boolean; forwards: { hostPort: number; to: string }[] };
}

export function egressRules(table: string, bridge: string, gateway: string, subnet: string, allow: EgressAllow = { forward: [], input: [], dnat: [] }): string {
  const fwd = allow.ports;
  const mapped = forwardsMap(fwd?.forwards ?? []);
  return [
    `table inet ${table} {}`,
    `delete table inet ${table}`,
    `table inet ${table} {`,
    // The forwarded ports, host port -> instance address . port: a map that a start or stop
    // changes alone (#syncForwards) without writing the table again.
    '  map forwards {',
    '    type inet_service : ipv4_addr . inet_service;',
    ...(mapped.size > 0 ? [`    elements = { ${[...mapped].map(([port, to]) => `${port} : ${to}`).join(', ')} }`] : []),
    '  }',
    '  chain input {',
    '    type filter hook input priority 0; policy accept;',
    `    iifname "${bridge}" ct state established,related accept`,
    `    iifname "${bridge}" ip daddr ${gateway} udp dport 53 accept`,
    ...allow.input.map((rule) => `    iifname "${bridge}" ${rule} accept`),
    `    iifname "${bridge}" meta l4proto tcp reject with tcp reset`,
    `    iifname "${bridge}" reject`,
    '  }',
    '  chain forward {',
    '    type filter hook forward priority 0; policy accept;',
    ...allow.forward.map((rule) => `    iifname "${bridge}" ${rule} accept`),
    // Connections to the instances' forwarded ports from elsewhere (DNAT), both ways.
    ...(fwd?.remote ? [`    iifname "${bridge}" ct status dnat accept`] : []),
    `    iifname "${bridge}" reject`,
    `    oifname "${bridge}" ct state established,related accept`,
    ...(fwd?.remote ? [`    oifname "${bridge}" ct status dnat accept`] : []),
    `    oifname "${bridge}" reject`,
    '  }',
    '  chain prerouting {',
    '    type nat hook prerouting priority dstnat; policy accept;',
    ...allow.dnat.map((rule) => `    iifname "${bridge}" ${rule}`),
    ...(fwd?.remote ? [`    iifname != "${bridge}" ip daddr ${fwd.address} meta l4proto { tcp, udp } dnat ip to th dport map @forwards`] : []),
    '  }',
    '  chain output {',
    '    type nat hook output priority -100; policy accept;',
    ...(fwd ? [`    ip daddr ${fwd.address} meta l4proto { tcp, udp } dnat ip to th dport map @forwards`] : []),
    '  }',
    '  chain postrouting {',
    '    type nat hook postrouting priority srcnat; policy accept;',
    `    ip saddr ${subnet} oifname != "${bridge}" masquerade`,
    // The host's own connections from its loopback to a forwarded port: from the gateway address.
    `    oifname "${bridge}" ip saddr 127.0.0.0/8 masquerade`,
    '  }',
    // What an instance reaches on the host's loopback (its endpoints there) sees it come from the
    // loopback, as it did when instances shared the host's network (a server that trusts only
    // 127.0.0.1 keeps answering it); the answers go back through the gateway address.
    '  chain input_nat {',
    '    type nat hook input priority 100; policy accept;',
    `    iifname "${bridge}" ip daddr 127.0.0.0/8 ct status dnat snat ip to 127.0.0.1`,
    '  }',
    '}',
  ].join('\n');
}

/** Forwarded ports as the egress table's map holds them: host port -> `address . port` (the first of a host port wins). */
export function forwardsMap(forwards: readonly { hostPort: number; to: string }[]): Map<number, string> {
  const map = new Map<number, string>();
  for (const f of forwards) {
    const [address, port] = f.to.split(':');
    if (!map.has(f.hostPort)) map.set(f.hostPort, `${address} . ${port}`);
  }
  return map;
}

/** An opening as the log says it. */
function describeRule(r: EgressRule): string {
  const ports = !r.portFirst ? 'all' : r.portFirst === r.portLast ? String(r.portFirst) : `${r.portFirst}-${r.portLast}`;
  return `${r.ipnet || r.domainname} ports ${ports} ${r.protocol || 'all'}`;
}

/** Whether the host forwards IPv4 packets (what comes in on its uplink for an instance's forwarded port). */
function hostForwards(): boolean {
  try {
    return readFileSync('/proc/sys/net/ipv4/conf/all/forwarding', 'utf8').trim() === '1';
  } catch {
    return false;
  }
}

/** Forwarding of IPv4 packets that come in on `device` (the kernel decides by the incoming interface). */
function setForwarding(device: string, on: boolean): void {
  setSysctl(device, 'forwarding', on);
}

function setSysctl(device: string, name: 'forwarding' | 'route_localnet', on: boolean): void {
  writeFileSync(`/proc/sys/net/ipv4/conf/${device}/${name}`, on ? '1' : '0');
}

/** "a.b.c.d:port" */
const ENDPOINT = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d):(?:[1-9]\d{0,4})$/;

/** The part of a script (commands.ts runScript) that writes an instance's nat table in its namespace (and route_localnet on its eth0). */
function instanceRulesPart(netnsPath: string, netns: string, endpoints: readonly string[], ports: readonly number[], gateway: string, address: string): Parameters<typeof runScript>[0][number] {
  const script = `echo 1 > /proc/sys/net/ipv4/conf/eth0/route_localnet && exec ${tool('nft')} -f -`;
  return { argv: [tool('nsenter'), `--net=${netnsPath}`, '--', '/bin/sh', '-c', script], what: `nft -f (the rules in namespace ${netns})`, input: instanceRules(endpoints, ports, gateway, address) + '\n' };
}

/**
 * The nat table of an instance's own namespace: connections to `endpoints` on the (host's)
 * loopback go to the gateway address instead (where the agent's rules pass them on to the host's
 * loopback), from the instance's address; TCP connections from eth0 to its forwarded `ports` go
 * to its loopback (an application listening on 127.0.0.1 alone is reached, as on the host's
 * network; UDP datagrams are not: an answer from a socket on all addresses would leave from
 * eth0's address, not the one they were sent to).
 */
export function instanceRules(endpoints: readonly string[], ports: readonly number[], gateway: string, address: string): string {
  return [
    'table ip platform_instance {}',
    'delete table ip platform_instance',
    'table ip platform_instance {',
    // The ports a set: a namespace made ahead has the table already, and a start adds its ports alone.
    '  set ports {',
    '    type inet_service;',
    ...(ports.length > 0 ? [`    elements = { ${[...new Set(ports)].join(', ')} }`] : []),
    '  }',
    '  chain prerouting {',
    '    type nat hook prerouting priority dstnat; policy accept;',
    `    iifname "eth0" ip daddr ${address} tcp dport @ports dnat ip to 127.0.0.1`,
    '  }',
    '  chain output {',
    '    type nat hook output priority -100; policy accept;',
    ...endpoints.map((e) => {
      const [host, port] = e.split(':');
      return `    ip daddr ${host} tcp dport ${port} dnat ip to ${gateway}:${port}`;
    }),
    '  }',
    '  chain postrouting {',
    '    type nat hook postrouting priority srcnat; policy accept;',
    `    ip saddr 127.0.0.0/8 oifname "eth0" snat ip to ${address}`,
    '  }',
    '}',
  ].join('\n');
}

/**
 * The first address of an interface other than `own` whose network overlaps `subnet`, from the
 * lines of `ip -o -4 addr show` ("3: eth0    inet 10.0.0.5/24 brd ... scope global eth0 ...").
 */
export function ownSubnetClash(addrLines: string, subnet: Cidr, own: string): { device: string; cidr: string } | undefined {
  for (const line of addrLines.split('\n')) {
    const m = /^\d+:\s+(\S+)\s+inet\s+(\d+\.\d+\.\d+\.\d+\/\d+)/.exec(line);
    if (!m || m[1] === own) continue;
    const [address, prefix] = m[2]!.split('/');
    const cidr = { base: (parseIpv4(address!) & prefixMask(Number(prefix))) >>> 0, prefix: Number(prefix) };
    if (cidrsOverlap(cidr, subnet)) return { device: m[1]!, cidr: m[2]! };
  }
  return undefined;
}
