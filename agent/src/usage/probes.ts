/**
 * Counters the usage sampler reads, each in one place: the host's CPU, memory and network from
 * /proc, a file system's use from statfs, and CPU time and resident memory of process groups
 * from /proc/<pid>/stat (the fallback for instances without cgroups).
 *
 * Every reader is best effort: a file that cannot be read gives undefined or zeros, never a
 * throw, so that a host without one of them still reports the rest.
 */
import { readFileSync, statfsSync } from 'node:fs';
import { procPids, readProcStat } from '../isolation/procfs.js';

/**
 * USER_HZ, the unit of the tick counts in /proc/stat and /proc/<pid>/stat. Node cannot call
 * sysconf(_SC_CLK_TCK); it is 100 on every Linux architecture we run on (the kernel fixes it
 * for user space, whatever CONFIG_HZ is).
 */
export const CLOCK_TICKS_PER_SECOND = 100;
/** Page size for RSS in pages; 4 KiB on x86-64 and on the usual arm64 kernels. */
export const PAGE_BYTES = 4096;
const NS_PER_TICK = 1e9 / CLOCK_TICKS_PER_SECOND;

export interface HostCpu {
  /** Busy time of all cores (everything but idle and iowait), nanoseconds since boot. */
  busyNs: number;
  /** Cores online (lines cpuN in /proc/stat). */
  cores: number;
}

/** The host's cumulative CPU time from /proc/stat. */
export function readHostCpu(file = '/proc/stat'): HostCpu | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
  let busy: number | undefined;
  let cores = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('cpu ')) {
      // user nice system idle iowait irq softirq steal guest guest_nice (guest is in user already)
      const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
      const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = f;
      busy = (user + nice + system + irq + softirq + steal) * NS_PER_TICK;
    } else if (/^cpu\d/.test(line)) {
      cores++;
    }
  }
  return busy === undefined ? undefined : { busyNs: busy, cores };
}

export interface HostMemory {
  total: number;
  /** MemTotal - MemAvailable: what the kernel could not hand out without reclaiming. */
  used: number;
}

export function readHostMemory(file = '/proc/meminfo'): HostMemory | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
  const kib = (name: string): number | undefined => {
    const m = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : undefined;
  };
  const total = kib('MemTotal');
  const available = kib('MemAvailable') ?? kib('MemFree');
  if (total === undefined || available === undefined) return undefined;
  return { total, used: Math.max(0, total - available) };
}

export interface NetCounters {
  rxBytes: number;
  txBytes: number;
}

/**
 * Bytes received and sent on every interface but loopback, from /proc/net/dev; the virtual
 * networks' own interfaces (veths, bridges, VXLAN devices: network/host-networks.ts) are left
 * out, their traffic is the instances' or crosses a real interface too.
 */
export function readNetDev(file = '/proc/net/dev'): NetCounters | undefined {
  const all = readInterfaces(file);
  if (!all) return undefined;
  let rxBytes = 0;
  let txBytes = 0;
  for (const [name, c] of all) {
    if (name === 'lo' || VIRTUAL_NETWORK_INTERFACE.test(name)) continue;
    rxBytes += c.rxBytes;
    txBytes += c.txBytes;
  }
  return { rxBytes, txBytes };
}

/** The interfaces the agent makes for virtual networks. */
const VIRTUAL_NETWORK_INTERFACE = /^pl[vbx][0-9a-f]{11}$/;

/** Each interface's bytes received and sent, from /proc/net/dev (the reader's network namespace). */
export function readInterfaces(file = '/proc/net/dev'): Map<string, NetCounters> | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
  const out = new Map<string, NetCounters>();
  for (const line of text.split('\n').slice(2)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const f = line.slice(colon + 1).trim().split(/\s+/).map(Number);
    // receive: bytes packets errs drop fifo frame compressed multicast; transmit: bytes ...
    out.set(line.slice(0, colon).trim(), { rxBytes: f[0] ?? 0, txBytes: f[8] ?? 0 });
  }
  return out;
}

export interface FsUsage {
  total: number;
  used: number;
}

/** Size and use of the file system holding `dir`. */
export function readFsUsage(dir: string): FsUsage | undefined {
  try {
    const s = statfsSync(dir);
    const total = Number(s.blocks) * Number(s.bsize);
    return { total, used: Math.max(0, total - Number(s.bfree) * Number(s.bsize)) };
  } catch {
    return undefined;
  }
}

export interface GroupUsage {
  /** CPU time of the group's live processes, nanoseconds since each started. */
  cpuNs: number;
  /** Sum of their resident sets, bytes (shared pages are counted in each process). */
  memory: number;
}

/**
 * CPU time and resident memory of the live processes of the process groups `pgids`, in one pass
 * over /proc. The CPU time of a process that has exited is gone from the sum: the fallback
 * under-counts an instance that runs many short processes (cgroups do not).
 */
export function readProcessGroups(pgids: ReadonlySet<number>): Map<number, GroupUsage> {
  const out = new Map<number, GroupUsage>();
  if (pgids.size === 0) return out;
  for (const pid of procPids()) {
    const st = readProcStat(pid);
    if (!st || !pgids.has(st.pgid) || st.state === 'Z' || st.state === 'X') continue;
    const g = out.get(st.pgid) ?? { cpuNs: 0, memory: 0 };
    g.cpuNs += (st.cpuTicks || 0) * NS_PER_TICK;
    g.memory += (st.rssPages || 0) * PAGE_BYTES;
    out.set(st.pgid, g);
  }
  return out;
}
