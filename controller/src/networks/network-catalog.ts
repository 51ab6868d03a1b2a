/**
 * NetworkCatalog: virtual networks (cluster-api.md GET /networks, the manifest `networks`
 * section; the 2016 Swagger file's VirtualNetwork), their members and the addresses of their
 * instances (IPAM).
 *
 *   create    a block from the pool (`--network-subnet-pool`, carved into `/<prefix>` blocks) or
 *             the one asked for (no overlap with another network's), and a VXLAN id; one batch
 *   join      the job's `network_ref` set through its actor, in the same batch as the network's
 *             record (with the member's options) and the `network.join` audit item; a started
 *             job's instances are replaced onto the network (network_ref is part of runHash).
 *             One network per job: joining another is a 409. Joining again the same network
 *             changes the options (its instances are told, not replaced).
 *   leave     the reverse (`network.leave`).
 *   delete    refused (409) while jobs are members, unless forced (they leave first).
 *
 * Addresses: an instance gets one when it is placed (`addressFor`, synchronous, from memory),
 * written in its instance record with the placement, so that it survives a restart with the
 * record; it is free again once the record is REMOVED or gone (InstanceTable.watch). The
 * block's first address is the gateway, held by the network's bridge on every agent host.
 *
 * Agents are told what changes on a network while instances run (NetworkState: the members'
 * discovery names and addresses, their options, the agent hosts with members for VXLAN).
 *
 * Changes run one at a time (one mailbox: networks change rarely); every record is kept in
 * memory too, loaded at start and written through.
 */
import type { NetworkSpec, NetworkState } from '@platform/proto';
import { cidrSize, cidrsOverlap, formatCidr, formatIpv4, parseCidr, parseIpv4, type Cidr } from '@platform/proto/common';
import { Mailbox } from '../actors/mailbox.js';
import type { AgentDirectory } from '../agents/agent-directory.js';
import type { ChangeContext, Deps } from '../context.js';
import { ConflictError, DuplicateError, InvalidRequestError, NotFoundError } from '../errors.js';
import type { JobService } from '../jobs/job-service.js';
import type { InstanceRecord } from '../model/instance.js';
import type { Job } from '../model/job.js';
import type { ReferenceCheck, ReferenceLookup } from '../policy/references.js';
import type { InstanceTable } from '../scheduler/instance-table.js';
import { keys } from '../store/keys.js';
import { formatTimestampNs } from '../util/clock.js';
import { jsonEqual, sortedRecord } from '../util/json.js';
import {
  auditView,
  gatewayOf,
  hardwareAddress,
  type InstanceAddress,
  type JoinRequest,
  type MemberRecord,
  type NetworkRecord,
  type NetworkRequest,
} from './network-model.js';

export interface NetworkCatalogOptions {
  /** The block networks' subnets are carved from (`--network-subnet-pool`). */
  pool: string;
  /** The prefix length of each network's block from the pool. */
  prefix: number;
}

/** The default pool: a private /12 carved into /24s (4,096 networks of 253 instances). */
export const DEFAULT_SUBNET_POOL = '10.224.0.0/12';
export const DEFAULT_SUBNET_PREFIX = 24;

const MAX_VNI = 2 ** 24 - 1;

export class NetworkCatalog {
  readonly #networks = new Map<string, NetworkRecord>();
  /** Network uuid -> address -> instance uuid. */
  readonly #used = new Map<string, Map<number, string>>();
  /** Instance uuid -> where its address is held. */
  readonly #held = new Map<string, { network: string; address: number }>();
  /** Network uuid -> agent uuid -> the NetworkState last sent (JSON). */
  readonly #sent = new Map<string, Map<string, string>>();
  readonly #mailbox = new Mailbox();
  readonly #pool: Cidr;

  constructor(
    private readonly deps: Deps,
    private readonly jobs: JobService,
    private readonly table: InstanceTable,
    private readonly agents: Pick<AgentDirectory, 'send' | 'get'>,
    private readonly options: NetworkCatalogOptions,
  ) {
    this.#pool = parseCidr(options.pool);
    if (options.prefix < this.#pool.prefix || options.prefix > 29) {
      throw new Error(`network subnets of /${options.prefix} do not fit the pool ${options.pool} (a /${this.#pool.prefix}); give /${this.#pool.prefix} to /29`);
    }
  }

  /** Reads the networks, and the addresses held by the instance records already in the table. */
  async load(): Promise<void> {
    for await (const [, value] of this.deps.store.iterate({ prefix: keys.networkPrefix })) {
      const n = JSON.parse(value) as NetworkRecord;
      this.#networks.set(n.uuid, n);
      this.#used.set(n.uuid, new Map());
    }
    for (const r of this.table.all()) this.#track(r);
    this.table.watch((record, uuid) => this.#instanceChanged(record, uuid));
  }

  // ---- lookups ------------------------------------------------------------------------------

  referenceLookup(): ReferenceLookup {
    return {
      byUuid: async (uuids) => new Map([...this.#networks.values()].filter((n) => uuids.includes(n.uuid)).map((n) => [n.uuid, n.fqn])),
      byFqn: async (fqns) => new Map([...this.#networks.values()].filter((n) => fqns.includes(n.fqn)).map((n) => [n.fqn, n.uuid])),
    };
  }

  list(): NetworkRecord[] {
    return [...this.#networks.values()].sort((a, b) => (a.fqn < b.fqn ? -1 : 1));
  }
  get(uuid: string): NetworkRecord | undefined {
    return this.#networks.get(uuid);
  }
  byFqn(fqn: string): NetworkRecord | undefined {
    return [...this.#networks.values()].find((n) => n.fqn === fqn);
  }

  /** The addresses of `job`'s live instances on network `network`, by instance uuid. */
  addresses(network: string, job: string): InstanceAddress[] {
    return this.table
      .ofJob(job)
      .filter((i) => i.state !== 'REMOVED' && i.network?.uuid === network)
      .map((i) => ({ instance: i.uuid, address: i.network!.address }))
      .sort((a, b) => (a.instance < b.instance ? -1 : 1));
  }

  /** GET /networks/{uuid} records `network.show` (a read that the audit log keeps, like pkg.get). */
  async shown(n: NetworkRecord, ctx: ChangeContext): Promise<void> {
    await this.deps.audit.record(ctx, 'network.show', n.fqn, { network_uuid: n.uuid });
  }

  #now(): string {
    return formatTimestampNs(this.deps.clock.nowNs());
  }

  // ---- networks -----------------------------------------------------------------------------

  async create(req: NetworkRequest, ctx: ChangeContext): Promise<NetworkRecord> {
    return this.#mailbox.post(async () => {
      const taken = this.byFqn(req.fqn);
      if (taken) throw new DuplicateError(`network ${req.fqn} exists already (uuid ${taken.uuid})`, { details: { uuid: taken.uuid } });
      const subnet = req.subnet ?? this.#freeSubnet();
      const clash = [...this.#networks.values()].find((n) => cidrsOverlap(parseCidr(n.subnet), subnet));
      if (clash) {
        throw new ConflictError(`subnet ${formatCidr(subnet)} overlaps the subnet ${clash.subnet} of network ${clash.fqn}`, { details: { network: clash.fqn, subnet: clash.subnet } });
      }
      const now = this.#now();
      const record: NetworkRecord = {
        uuid: this.deps.ids.uuid(),
        fqn: req.fqn,
        name: req.localName,
        description: req.description,
        subnet: formatCidr(subnet),
        vni: this.#freeVni(),
        members: {},
        version_id: 1,
        created_at: now,
        created_by: ctx.principal,
        updated_at: now,
        updated_by: ctx.principal,
      };
      await this.deps.store.batch([
        { type: 'put', key: keys.network(record.uuid), value: JSON.stringify(record) },
        this.deps.audit.entry(ctx, 'network.create', record.fqn, { patches: [{ op: 'add', path: 'network', value: auditView(record) }] }),
      ]);
      this.#networks.set(record.uuid, record);
      this.#used.set(record.uuid, new Map());
      this.deps.log.info('network created', { network: record.uuid, fqn: record.fqn, subnet: record.subnet, request_id: ctx.requestId });
      return record;
    });
  }

  /** The first block of the pool that no network's subnet overlaps; 409 when the pool is full. */
  #freeSubnet(): Cidr {
    const size = 2 ** (32 - this.options.prefix);
    const used = [...this.#networks.values()].map((n) => parseCidr(n.subnet));
    for (let base = this.#pool.base; base < this.#pool.base + cidrSize(this.#pool); base += size) {
      const candidate = { base, prefix: this.options.prefix };
      if (!used.some((u) => cidrsOverlap(u, candidate))) return candidate;
    }
    throw new ConflictError(`the network subnet pool ${formatCidr(this.#pool)} has no free /${this.options.prefix} left; delete a network, or give the controller a larger pool`);
  }

  #freeVni(): number {
    const used = new Set([...this.#networks.values()].map((n) => n.vni));
    for (let vni = 1; vni <= MAX_VNI; vni++) if (!used.has(vni)) return vni;
    throw new ConflictError('no VXLAN network identifier is free');
  }

  /** DELETE /networks/{uuid}: refused while jobs are members unless `force` (they leave first). */
  async delete(uuid: string, force: boolean, ctx: ChangeContext): Promise<void> {
    const found = this.#networks.get(uuid);
    if (!found) throw new NotFoundError(`network ${uuid} not found`);
    const members = Object.values(found.members);
    if (members.length > 0 && !force) {
      throw new ConflictError(`network ${found.fqn} has ${members.length} member job(s) (${members.map((m) => m.job_fqn).join(', ')}); take them off first, or delete with force=true`, {
        details: { jobs: members.map((m) => m.job_fqn) },
      });
    }
    for (const m of members) await this.leave(uuid, { jobFqn: m.job_fqn }, ctx, undefined, m.job_uuid);
    await this.#mailbox.post(async () => {
      const n = this.#networks.get(uuid);
      if (!n) throw new NotFoundError(`network ${uuid} not found`);
      if (Object.keys(n.members).length > 0) throw new ConflictError(`network ${n.fqn} got a member meanwhile; try again`);
      await this.deps.store.batch([
        { type: 'del', key: keys.network(uuid) },
        this.deps.audit.entry(ctx, 'network.delete', n.fqn, { patches: [{ op: 'remove', path: 'network', value: auditView(n) }], ...(force ? { force: true } : {}) }),
      ]);
      this.#networks.delete(uuid);
      this.#sent.delete(uuid);
      this.deps.log.info('network deleted', { network: uuid, fqn: n.fqn, force, request_id: ctx.requestId });
    });
  }

  // ---- members ------------------------------------------------------------------------------

  /** POST /networks/{uuid}/join: the caller needs `permit update` on the job (checked here). */
  async join(uuid: string, req: JoinRequest, ctx: ChangeContext, refs: ReferenceCheck): Promise<{ member: MemberRecord; changed: boolean }> {
    const [jobRef] = await refs.resolve([{ type: 'job', fqn: req.jobFqn, permission: 'update', field: 'job_fqn' }]);
    return this.#mailbox.post(async () => {
      const network = this.#networks.get(uuid);
      if (!network) throw new NotFoundError(`network ${uuid} not found`);
      const job = await this.jobs.find(jobRef!.uuid);
      if (!job) throw new InvalidRequestError(`job_fqn: no job ${req.jobFqn}`);
      this.#checkJoinable(job, network, req);
      const existing = network.members[job.uuid];
      const member: MemberRecord = {
        job_uuid: job.uuid,
        job_fqn: job.fqn,
        endpoint_uuid: existing?.endpoint_uuid ?? this.deps.ids.uuid(),
        broadcast_enable: req.broadcastEnable,
        discovery_address: req.discoveryAddress,
        multicast_addresses: req.multicastAddresses,
        joined_at: existing?.joined_at ?? this.#now(),
        joined_by: existing?.joined_by ?? ctx.principal,
      };
      const options = (m: MemberRecord) => [m.broadcast_enable, m.discovery_address, m.multicast_addresses];
      if (existing && jsonEqual(options(existing), options(member)) && job.network_ref?.uuid === uuid) return { member: existing, changed: false };
      const next = this.#bump({ ...network, members: sortedRecord({ ...network.members, [job.uuid]: member }) }, ctx);
      const patches = existing
        ? [{ op: 'replace', path: `network/end_points/${job.uuid}`, value: member }]
        : [{ op: 'add', path: 'network_ref/uuid', value: uuid }];
      // Known before the job changes: its new instances are placed (and addressed) inside that change.
      this.#networks.set(uuid, next);
      try {
        await this.jobs.changeNetwork(
          job.uuid,
          (current) => {
            this.#checkJoinable(current, network, req);
            return {
              network_ref: { uuid },
              ops: [
                { type: 'put', key: keys.network(uuid), value: JSON.stringify(next) },
                this.deps.audit.entry(ctx, 'network.join', current.fqn, { network_fqn: network.fqn, network_uuid: uuid, patches }),
              ],
            };
          },
          ctx,
        );
      } catch (err) {
        this.#networks.set(uuid, network);
        throw err;
      }
      this.#publish(uuid);
      this.deps.log.info(existing ? 'network member changed' : 'job joined network', { network: network.fqn, job: job.fqn, request_id: ctx.requestId });
      return { member, changed: true };
    });
  }

  /** One network per job; discovery names unique in a network. */
  #checkJoinable(job: Job, network: NetworkRecord, req: JoinRequest): void {
    if (job.network_ref && job.network_ref.uuid !== network.uuid) {
      const other = this.#networks.get(job.network_ref.uuid);
      throw new ConflictError(`job ${job.fqn} is on network ${other?.fqn ?? job.network_ref.uuid} already (a job is on one network); leave it first`, {
        details: { network: other?.fqn ?? job.network_ref.uuid },
      });
    }
    if (req.discoveryAddress) {
      const same = Object.values(network.members).find((m) => m.job_uuid !== job.uuid && m.discovery_address === req.discoveryAddress);
      if (same) throw new ConflictError(`discovery_address: ${req.discoveryAddress} names ${same.job_fqn} on network ${network.fqn} already`, { details: { job: same.job_fqn } });
    }
  }

  /**
   * POST /networks/{uuid}/leave: the caller needs `permit update` on the job (`refs`; a forced
   * delete passes the job it found instead).
   */
  async leave(uuid: string, req: { jobFqn: string }, ctx: ChangeContext, refs: ReferenceCheck | undefined, jobUuid?: string): Promise<void> {
    const id = jobUuid ?? (await refs!.resolve([{ type: 'job', fqn: req.jobFqn, permission: 'update', field: 'job_fqn' }]))[0]!.uuid;
    await this.#mailbox.post(async () => {
      const network = this.#networks.get(uuid);
      if (!network) throw new NotFoundError(`network ${uuid} not found`);
      const member = network.members[id];
      if (!member) throw new NotFoundError(`job ${req.jobFqn} is not a member of network ${network.fqn}`);
      const members = { ...network.members };
      delete members[id];
      const next = this.#bump({ ...network, members }, ctx);
      this.#networks.set(uuid, next);
      const ops = (fqn: string) => [
        { type: 'put' as const, key: keys.network(uuid), value: JSON.stringify(next) },
        this.deps.audit.entry(ctx, 'network.leave', fqn, { network_fqn: network.fqn, network_uuid: uuid, patches: [{ op: 'remove', path: 'network_ref/uuid', value: uuid }] }),
      ];
      try {
        await this.jobs.changeNetwork(id, (current) => ({ network_ref: current.network_ref?.uuid === uuid ? null : current.network_ref, ops: ops(current.fqn) }), ctx);
      } catch (err) {
        if (!(err instanceof NotFoundError)) {
          this.#networks.set(uuid, network);
          throw err;
        }
        // The job is gone (it cannot be deleted while a member, but a record may outlive it).
        await this.deps.store.batch(ops(member.job_fqn));
      }
      this.#publish(uuid);
      this.deps.log.info('job left network', { network: network.fqn, job: member.job_fqn, request_id: ctx.requestId });
    });
  }

  #bump(n: NetworkRecord, ctx: ChangeContext): NetworkRecord {
    return { ...n, version_id: n.version_id + 1, updated_at: this.#now(), updated_by: ctx.principal };
  }

  // ---- addresses (IPAM) ---------------------------------------------------------------------

  /** RunDeps.addressFor: the lowest free address of the job's network (after the gateway). */
  addressFor(job: Job, instance: string): { address?: { uuid: string; address: string }; reason?: string } {
    const network = job.network_ref ? this.#networks.get(job.network_ref.uuid) : undefined;
    if (!network) return job.network_ref ? { reason: `network ${job.network_ref.uuid} of job ${job.fqn} does not exist` } : {};
    const block = parseCidr(network.subnet);
    const used = this.#used.get(network.uuid)!;
    const last = block.base + cidrSize(block) - 2; // before the broadcast address
    for (let a = gatewayOf(network.subnet) + 1; a <= last; a++) {
      if (used.has(a)) continue;
      used.set(a, instance);
      this.#held.set(instance, { network: network.uuid, address: a });
      return { address: { uuid: network.uuid, address: formatIpv4(a) } };
    }
    return { reason: `network ${network.fqn} (${network.subnet}) has no free address left` };
  }

  /** An instance record appeared (at load) or changed: hold its address while it is not REMOVED. */
  #track(r: InstanceRecord): void {
    if (!r.network || r.state === 'REMOVED') return;
    const used = this.#used.get(r.network.uuid);
    if (!used) return;
    const address = parseIpv4(r.network.address);
    used.set(address, r.uuid);
    this.#held.set(r.uuid, { network: r.network.uuid, address });
  }

  #release(instance: string): void {
    const held = this.#held.get(instance);
    if (!held) return;
    this.#held.delete(instance);
    const used = this.#used.get(held.network);
    if (used?.get(held.address) === instance) used.delete(held.address);
  }

  #instanceChanged(record: InstanceRecord | undefined, uuid: string): void {
    const network = record?.network?.uuid ?? this.#held.get(uuid)?.network;
    if (!record || record.state === 'REMOVED') this.#release(uuid);
    else this.#track(record);
    if (network) this.#publish(network);
  }

  // ---- what agents are told -----------------------------------------------------------------

  /** RunDeps.networkFor: the spec of an instance whose record holds an address. */
  networkFor(job: Job, record: InstanceRecord): NetworkSpec | undefined {
    const network = record.network ? this.#networks.get(record.network.uuid) : undefined;
    if (!network || !record.network) return undefined;
    const state = this.#state(network, record.agent_uuid);
    const member = state.members!.find((m) => m.jobUuid === job.uuid);
    return {
      networkUuid: network.uuid,
      networkFqn: network.fqn,
      subnet: network.subnet,
      address: record.network.address,
      gateway: formatIpv4(gatewayOf(network.subnet)),
      vni: network.vni,
      broadcastEnable: member?.broadcastEnable ?? true,
      routes: aggregateRoutes(job),
      multicastRoutes: member?.routes ?? [],
      hosts: state.hosts ?? [],
      peers: state.peers ?? [],
      hardwareAddress: hardwareAddress(parseIpv4(record.network.address)),
    };
  }

  /** The live instances on `network`. */
  #live(network: string): InstanceRecord[] {
    const out: InstanceRecord[] = [];
    for (const [instance, held] of this.#held) {
      if (held.network !== network) continue;
      const r = this.table.get(instance);
      if (r && r.state !== 'REMOVED') out.push(r);
    }
    return out;
  }

  #state(network: NetworkRecord, agent: string): NetworkState {
    const live = this.#live(network.uuid);
    const hosts = Object.values(network.members)
      .filter((m) => m.discovery_address)
      .flatMap((m) => live.filter((r) => r.job_uuid === m.job_uuid).map((r) => ({ name: `${m.discovery_address}.platform.local`, address: r.network!.address })))
      .sort((a, b) => (a.name === b.name ? (a.address < b.address ? -1 : 1) : a.name < b.name ? -1 : 1));
    const peers = [...new Set(live.filter((r) => r.agent_uuid !== agent).map((r) => this.agents.get(r.agent_uuid)?.record.address).filter((a): a is string => !!a))].sort();
    const members = Object.values(network.members).map((m) => ({
      jobUuid: m.job_uuid,
      broadcastEnable: m.broadcast_enable,
      routes: m.multicast_addresses,
    }));
    return { networkUuid: network.uuid, hosts, peers, members };
  }

  /** Sends the network's state to each agent with live instances on it, when it changed for that agent. */
  #publish(uuid: string): void {
    const network = this.#networks.get(uuid);
    if (!network) return;
    let sent = this.#sent.get(uuid);
    if (!sent) this.#sent.set(uuid, (sent = new Map()));
    const agents = new Set(this.#live(uuid).map((r) => r.agent_uuid));
    for (const agent of sent.keys()) if (!agents.has(agent)) sent.delete(agent);
    for (const agent of agents) {
      const state = this.#state(network, agent);
      // An agent process started since (a restart) knows nothing: it is sent the state again.
      const text = `${this.agents.get(agent)?.record.started_at_ms ?? 0} ${JSON.stringify(state)}`;
      if (sent.get(agent) === text) continue;
      sent.set(agent, text);
      this.agents.send(agent, { networkState: state });
    }
  }
}

/** The values of the job's aggregate_network_routes: blocks routed through its instances' network interface. */
function aggregateRoutes(job: Job): string[] {
  const routes = new Set<string>();
  for (const v of Object.values(job.aggregate_network_routes ?? {})) for (const r of Array.isArray(v) ? v : [v]) routes.add(r);
  return [...routes].sort();
}
