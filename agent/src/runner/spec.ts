/**
 * The agent's own, plain form of an InstanceSpec: every field present, numbers as numbers.
 * Wire objects (protobufjs messages with prototype defaults) are normalised here, at the edge,
 * and the plain form is what instance.json persists.
 */
import type { InstanceSpec, NetworkSpec, PackageSpec } from '@platform/proto';
import { Ipv4Error, cidrContains, formatCidr, parseCidr, parseIpv4 } from '@platform/proto/common';
import type { NetworkPlan } from '../network/host-networks.js';
import { safeComponents } from '../packages/extract.js';
import { checkPlatformFiles, type PlatformFilePlan } from './platform-files.js';

export interface PackagePlan {
  uuid: string;
  fqn: string;
  digest: string;
  length: number;
  installPath: string;
  environment: Record<string, string>;
  templates: { path: string; left: string; right: string }[];
  hostPaths: string[];
  /** A whole root file system (a container image): no host system directories over it. */
  rootFilesystem: boolean;
}

export interface ProcessPlan {
  name: string;
  startCommand: string;
  startCommandRaw: string[];
  startTimeoutS: number;
  stopCommand: string;
  stopCommandRaw: string[];
  stopTimeoutS: number;
  environment: Record<string, string>;
  /** The job's user and group inside the instance (names or numbers); empty = root inside (bwrap). */
  user: string;
  group: string;
}

export interface RunSpec {
  instanceUuid: string;
  jobUuid: string;
  jobFqn: string;
  jobVersionId: number;
  packages: PackagePlan[];
  process: ProcessPlan;
  ports: { number: number; optional: boolean }[];
  resources: { cpu: number; memory: number; disk: number; network: number; netmax: number };
  logs: { file: string; channel: string }[];
  environment: Record<string, string>;
  stagerUrl: string;
  /** Stager instances: packages laid out again under /stagerfs (absent in records of older agents). */
  stagerfs?: PackagePlan[];
  /** The job's virtual network (network/host-networks.ts); absent: the host's network. */
  network?: NetworkPlan;
  /** Files the platform gives the instance (platform-files.ts); absent in records of older agents. */
  files?: PlatformFilePlan[];
  /**
   * "a.b.c.d:port" the platform provides the instance (bound services, links): reachable from a
   * network of its own (absent in records of older agents).
   */
  endpoints?: string[];
}

/** Defaults of an application job (behaviour notes): start timeout 30 s, stop timeout 5 s. */
export const DEFAULT_START_TIMEOUT_S = 30;
export const DEFAULT_STOP_TIMEOUT_S = 5;

const UUIDISH = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function map(m: Record<string, string> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (m) for (const [k, v] of Object.entries(m)) out[k] = String(v);
  return out;
}

const num = (v: unknown, dflt = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : dflt);

/** Normalises a wire spec; throws with a clear message when it cannot run at all. */
export function normalizeSpec(spec: InstanceSpec): RunSpec {
  const instanceUuid = spec.instanceUuid ?? '';
  // The uuid names a directory: only safe characters.
  if (!UUIDISH.test(instanceUuid)) throw new Error(`invalid instance uuid "${instanceUuid}"`);
  const p = spec.process ?? {};
  return {
    instanceUuid,
    jobUuid: spec.jobUuid ?? '',
    jobFqn: spec.jobFqn ?? '',
    jobVersionId: num(spec.jobVersionId),
    packages: (spec.packages ?? []).map(packagePlan),
    process: {
      name: p.name ?? '',
      startCommand: p.startCommand ?? '',
      startCommandRaw: [...(p.startCommandRaw ?? [])],
      startTimeoutS: num(p.startCommandTimeoutS) > 0 ? num(p.startCommandTimeoutS) : DEFAULT_START_TIMEOUT_S,
      stopCommand: p.stopCommand ?? '',
      stopCommandRaw: [...(p.stopCommandRaw ?? [])],
      stopTimeoutS: num(p.stopTimeoutS) > 0 ? num(p.stopTimeoutS) : DEFAULT_STOP_TIMEOUT_S,
      environment: map(p.environment),
      user: p.user ?? '',
      group: p.group ?? '',
    },
    ports: (spec.ports ?? []).map((pt) => ({ number: num(pt.number), optional: !!pt.optional })),
    resources: {
      cpu: num(spec.resources?.cpu), memory: num(spec.resources?.memory), disk: num(spec.resources?.disk),
      network: num(spec.resources?.network), netmax: num(spec.resources?.netmax),
    },
    logs: (spec.logs ?? []).map((l) => ({ file: l.file ?? '', channel: l.channel ?? '' })),
    environment: map(spec.environment),
    stagerUrl: spec.stagerUrl ?? '',
    stagerfs: (spec.stagerfs ?? []).map(packagePlan),
    ...(spec.network ? { network: networkPlan(spec.network) } : {}),
    ...(spec.files?.length ? { files: checkPlatformFiles(spec.files.map((f) => ({ name: f.name ?? '', content: f.content ?? new Uint8Array() }))) } : {}),
    endpoints: (spec.endpoints ?? []).map((e) => e.replace(/^localhost:/, '127.0.0.1:')),
  };
}

const HOST_NAME = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;
const MAC = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/;

/** Checks what goes to `ip` and into the hosts file: addresses, blocks, names, the MAC. */
function networkPlan(n: NetworkSpec): NetworkPlan {
  try {
    const subnet = parseCidr(n.subnet ?? '');
    const address = n.address ?? '';
    const gateway = n.gateway ?? '';
    for (const a of [address, gateway]) {
      if (!cidrContains(subnet, parseIpv4(a))) throw new Error(`address ${a} is not in the network's subnet ${formatCidr(subnet)}`);
    }
    const cidrs = (list: readonly string[] | null | undefined) => (list ?? []).map((c) => formatCidr(parseCidr(c)));
    const vni = Number(n.vni ?? 0);
    if (!Number.isInteger(vni) || vni < 1 || vni > 2 ** 24 - 1) throw new Error(`VXLAN id ${vni} is not 1 to 2^24-1`);
    const hardwareAddress = (n.hardwareAddress ?? '').toLowerCase();
    if (!MAC.test(hardwareAddress)) throw new Error(`hardware address "${hardwareAddress}" is not a MAC address`);
    const uuid = n.networkUuid ?? '';
    if (!UUIDISH.test(uuid)) throw new Error(`network uuid "${uuid}" is not one`);
    return {
      uuid,
      fqn: n.networkFqn ?? '',
      subnet: formatCidr(subnet),
      address,
      gateway,
      vni,
      broadcastEnable: n.broadcastEnable !== false,
      routes: cidrs(n.routes),
      multicastRoutes: cidrs(n.multicastRoutes),
      hosts: (n.hosts ?? []).map((h) => {
        const name = (h.name ?? '').toLowerCase();
        if (!HOST_NAME.test(name)) throw new Error(`host name "${name}" is not a name`);
        parseIpv4(h.address ?? '');
        return { name, address: h.address ?? '' };
      }),
      peers: (n.peers ?? []).map((p) => (parseIpv4(p), p)),
      hardwareAddress,
    };
  } catch (err) {
    if (err instanceof Ipv4Error || err instanceof Error) throw new Error(`invalid network of the instance: ${err.message}`, { cause: err });
    throw err;
  }
}

function packagePlan(pk: PackageSpec): PackagePlan {
  return {
    uuid: pk.uuid ?? '',
    fqn: pk.fqn ?? '',
    digest: pk.digest ?? '',
    length: num(pk.length),
    // ".." refused here (the archive step checks it too, but a package without an archive has none).
    installPath: `/${safeComponents(pk.installPath || '/', `package ${pk.fqn ?? pk.uuid ?? ''}: install path`).join('/')}`,
    environment: map(pk.environment),
    templates: (pk.templates ?? []).map((t) => ({ path: t.path ?? '', left: t.leftDelimiter || '{{', right: t.rightDelimiter || '}}' })),
    hostPaths: [...(pk.hostPaths ?? [])],
    rootFilesystem: !!pk.rootFilesystem,
  };
}
