/**
 * Virtual networks as the controller keeps them (records) and as the API shows them (the 2016
 * Swagger file's VirtualNetwork and VirtualNetworkEndpoint), and the request bodies, parsed here
 * so that the operations (network-catalog.ts) take parsed requests whoever calls them (an
 * endpoint, a manifest). docs/api.md "Virtual networks" documents the endpoints as ours.
 */
import { z } from 'zod';
import { Ipv4Error, formatIpv4, isMulticastCidr, parseCidr, type Cidr } from '@platform/proto/common';
import { InvalidRequestError } from '../errors.js';
import { formatFqn, parseFqn } from '../model/fqn.js';
import { bool, parseInput, str } from '../model/validate.js';

/** A job's membership: the per-job options of a join (cluster-api.md, manifest network configuration). */
export interface MemberRecord {
  job_uuid: string;
  job_fqn: string;
  /** The endpoint's own id (VirtualNetworkEndpoint.uuid). */
  endpoint_uuid: string;
  broadcast_enable: boolean;
  /** Lower case; `<discovery_address>.platform.local` names the job's instances inside the network. */
  discovery_address: string;
  multicast_addresses: string[];
  joined_at: string;
  joined_by: string;
}

export interface NetworkRecord {
  uuid: string;
  fqn: string;
  name: string;
  description: string;
  /** The network's block, from the pool (`--network-subnet-pool`) or given at create. */
  subnet: string;
  /** VXLAN network identifier of the network across agent hosts (1..2^24-1). */
  vni: number;
  /** Job uuid -> membership. */
  members: Record<string, MemberRecord>;
  version_id: number;
  created_at: string;
  created_by: string;
  updated_at: string;
  updated_by: string;
}

/** Letters, digits, dots and hyphens, not starting or ending with a dot or hyphen (cluster-api.md). */
const DISCOVERY = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,61}[A-Za-z0-9])?$/;

/** The smallest and largest subnet a network may be given (a /30 leaves the gateway and one address). */
export const MIN_PREFIX = 8;
export const MAX_PREFIX = 29;

function cidr(text: string, field: string): Cidr {
  try {
    return parseCidr(text);
  } catch (err) {
    if (err instanceof Ipv4Error) throw new InvalidRequestError(`${field}: ${err.message}`, { details: { field } });
    throw err;
  }
}

// ---- create -----------------------------------------------------------------------------------

export const networkSchema = z.object({
  fqn: str(512),
  description: str(4096).optional(),
  /** A block of the caller's choosing instead of one from the pool; must not overlap another network's. */
  subnet: str(64).optional(),
});
export interface NetworkRequest {
  fqn: string;
  localName: string;
  description: string;
  subnet?: Cidr;
}

export function parseNetwork(body: unknown): NetworkRequest {
  const input = parseInput(networkSchema, body, 'network');
  const fqn = parseFqn(input.fqn, { type: 'network' });
  let subnet: Cidr | undefined;
  if (input.subnet !== undefined) {
    subnet = cidr(input.subnet, 'subnet');
    if (subnet.prefix < MIN_PREFIX || subnet.prefix > MAX_PREFIX) {
      throw new InvalidRequestError(`subnet: a network's block must be /${MIN_PREFIX} to /${MAX_PREFIX} (got /${subnet.prefix})`);
    }
  }
  return { fqn: formatFqn(fqn), localName: fqn.localName!, description: input.description ?? '', ...(subnet ? { subnet } : {}) };
}

// ---- join and leave ---------------------------------------------------------------------------

export const joinSchema = z.object({
  job_fqn: str(512),
  broadcast_enable: bool().optional(),
  discovery_address: str(253).optional(),
  multicast_addresses: z.array(str(64)).max(64).optional(),
});
export interface JoinRequest {
  jobFqn: string;
  broadcastEnable: boolean;
  discoveryAddress: string;
  multicastAddresses: string[];
}

/** Checks a join's options; `at` prefixes the field names in messages (a manifest's path). */
export function parseJoin(body: unknown, at = ''): JoinRequest {
  const input = parseInput(joinSchema, body, 'join');
  parseFqn(input.job_fqn, { type: 'job', field: `${at}job_fqn` });
  const discovery = input.discovery_address ?? '';
  if (discovery !== '' && (!DISCOVERY.test(discovery) || discovery.includes('..'))) {
    throw new InvalidRequestError(
      `${at}discovery_address: "${discovery}" is not a name: letters, digits, dots and hyphens, not starting or ending with a dot or hyphen`,
      { details: { field: `${at}discovery_address` } },
    );
  }
  const multicast = (input.multicast_addresses ?? []).map((m, i) => {
    const c = cidr(m, `${at}multicast_addresses[${i}]`);
    if (!isMulticastCidr(c)) throw new InvalidRequestError(`${at}multicast_addresses[${i}]: ${m} is not a multicast block (inside 224.0.0.0/4)`);
    return m;
  });
  return { jobFqn: input.job_fqn, broadcastEnable: input.broadcast_enable ?? true, discoveryAddress: discovery.toLowerCase(), multicastAddresses: [...new Set(multicast)].sort() };
}

export const leaveSchema = z.object({ job_fqn: str(512) });
export function parseLeave(body: unknown): { jobFqn: string } {
  const input = parseInput(leaveSchema, body, 'leave');
  parseFqn(input.job_fqn, { type: 'job', field: 'job_fqn' });
  return { jobFqn: input.job_fqn };
}

// ---- what the API shows -----------------------------------------------------------------------

const interfaceViewSchema = z.object({ uuid: z.string(), hardware_addr: z.string(), ipv4_addr: z.string() });
const endpointViewSchema = z.object({
  uuid: z.string(),
  fqn: z.string(),
  network_fqn: z.string(),
  job_uuid: z.string(),
  broadcast_enable: z.boolean(),
  discovery_address: z.string(),
  multicast_addresses: z.array(z.string()),
  end_point_interface: z.array(interfaceViewSchema).optional(),
});
export const networkViewSchema = z.object({
  uuid: z.string(),
  fqn: z.string(),
  name: z.string(),
  description: z.string(),
  subnet_info: z.object({ Subnet: z.string() }),
  gateway: z.string(),
  network_end_points: z.array(endpointViewSchema),
  version_id: z.number().int(),
  created_at: z.string(),
  created_by: z.string(),
  updated_at: z.string(),
  updated_by: z.string(),
});

/** An instance's address on a network (kept in its instance record). */
export interface InstanceAddress {
  instance: string;
  address: string;
}

/** The hardware address the agent gives an instance's interface: locally administered, from its IPv4 address. */
export function hardwareAddress(ipv4: number): string {
  return ['0a', '58', ...[ipv4 >>> 24, (ipv4 >>> 16) & 255, (ipv4 >>> 8) & 255, ipv4 & 255].map((b) => b.toString(16).padStart(2, '0'))].join(':');
}

/** The first usable address of a block: every agent host's bridge holds it (the members' gateway). */
export function gatewayOf(subnet: string): number {
  return parseCidr(subnet).base + 1;
}

/**
 * A network as the API shows it; `addresses` (job uuid -> its instances' addresses) fills each
 * endpoint's interfaces, and is left out for `?ipam=false`.
 */
export function renderNetwork(n: NetworkRecord, addresses?: (job: string) => InstanceAddress[]): z.input<typeof networkViewSchema> {
  return {
    uuid: n.uuid,
    fqn: n.fqn,
    name: n.name,
    description: n.description,
    subnet_info: { Subnet: n.subnet },
    gateway: formatIpv4(gatewayOf(n.subnet)),
    network_end_points: Object.values(n.members)
      .sort((a, b) => (a.job_fqn < b.job_fqn ? -1 : 1))
      .map((m) => ({
        uuid: m.endpoint_uuid,
        fqn: m.job_fqn,
        network_fqn: n.fqn,
        job_uuid: m.job_uuid,
        broadcast_enable: m.broadcast_enable,
        discovery_address: m.discovery_address,
        multicast_addresses: m.multicast_addresses,
        ...(addresses
          ? {
              end_point_interface: addresses(m.job_uuid).map((a) => ({
                uuid: a.instance,
                hardware_addr: hardwareAddress(parseCidr(`${a.address}/32`).base),
                ipv4_addr: a.address,
              })),
            }
          : {}),
      })),
    version_id: n.version_id,
    created_at: n.created_at,
    created_by: n.created_by,
    updated_at: n.updated_at,
    updated_by: n.updated_by,
  };
}

/** What a network's audit payloads show of it (no endpoints: those have their own events). */
export function auditView(n: NetworkRecord): Record<string, unknown> {
  return { uuid: n.uuid, fqn: n.fqn, description: n.description, subnet: n.subnet };
}
