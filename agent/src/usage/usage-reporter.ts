/**
 * UsageReporter: what every instance and the host use, measured every `intervalMs` (10 s by
 * default, --usage-interval-ms), sent to the controller as UsageBatch messages on the session's
 * stream and shown on the agent's Prometheus endpoint.
 *
 *   timer ─▶ sample() ─▶ buffer (at most maxBuffered samples, oldest dropped and counted)
 *                             └─▶ flush(): while the session can send, batches of batchSamples
 *
 * Per instance with a process:
 * - CPU: the cgroup's cumulative CPU time when the instance has cgroups (v1 cpuacct.usage, v2
 *   cpu.stat usage_usec, isolation/cgroups.ts), else (no cgroups, or v1 hosts whose cpuacct
 *   hierarchy is mounted apart from cpu, where the instance's cpu group accounts nothing) the
 *   utime+stime of the live processes of its process group (/proc); a rate over the interval, in ns per second. An instance appears
 *   from its second sample on (the first one only primes its counter).
 * - Memory: the cgroup's use (memory.usage_in_bytes / memory.current), else the sum of the
 *   group's resident sets; the limit is the job's memory resource.
 * - Disk: the bytes charged under the instance root, as the disk monitor measures them
 *   (runner/disk-monitor.ts: allocated blocks, one block at least per object); for an instance
 *   without a disk resource, where no monitor runs, a sliced walk of its own once per sample.
 * - Network: an instance on a virtual network has an interface of its own (a veth pair): its
 *   rx/tx are the host end's tx/rx, and `network_measured` true. Other instances share the
 *   host's network namespace (both drivers), so there is no interface of their own to count:
 *   rx/tx are 0 and `network_measured` false. The host's totals count every interface but
 *   loopback and the virtual networks' own.
 *
 * Short disconnections lose nothing: samples wait in the buffer and go, in order, once the
 * session is open again. The bound (default 360 samples = an hour at 10 s) keeps memory fixed.
 */
import type { HostUsage, InstanceUsage, UsageBatch, UsageSample } from '@platform/proto';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Cgroups } from '../isolation/cgroups.js';
import { measureDisk } from '../runner/disk-monitor.js';
import { readFsUsage, readHostCpu, readHostMemory, readInterfaces, readNetDev, readProcessGroups, type GroupUsage } from './probes.js';

/** What the reporter needs to know of one instance (read from the runner at each sample). */
export interface MeasuredInstance {
  uuid: string;
  jobUuid: string;
  /** For the Prometheus `job` label; the job uuid when empty. */
  jobFqn: string;
  /** False before the process started and once it ended: such instances are not sampled. */
  running: boolean;
  /** The process group leader (the instance's wrapper). */
  pid: number | undefined;
  cgroups: readonly string[];
  resources: { memory: number; disk: number; network: number };
  /** The instance root. */
  root: string;
  /** The host end of its veth pair, when it is on a virtual network (its traffic is counted there). */
  interface?: string | undefined;
  /** Bytes charged under the root by the disk monitor; undefined when no monitor runs. */
  diskMonitored: number | undefined;
}

export interface UsageOutlet {
  /** True when a message can be written now. */
  canSend(): boolean;
  /** Writes one batch; false when nothing was written. */
  sendUsage(batch: UsageBatch): boolean;
}

export interface UsageReporterOptions {
  instances(): Iterable<MeasuredInstance>;
  outlet: UsageOutlet;
  cgroups: Cgroups;
  /** The agent's data directory: the host's disk figures are those of its file system. */
  dataDir: string;
  /** Where the Prometheus gauges go (the agent's registry). */
  registry: Registry;
  intervalMs?: number;
  maxBuffered?: number;
  batchSamples?: number;
  /** Bits per second the host offers (0: unknown). */
  bandwidthTotal?: number;
  now?: () => number;
}

interface Previous {
  cpuNs: number;
  timeMs: number;
}

export const DEFAULT_USAGE_INTERVAL_MS = 10_000;

/** The `resource` label of platform_agent_host_usage for each HostUsage field. */
type HostField = 'cpuNs' | 'cpuTotal' | 'memoryUsed' | 'memoryTotal' | 'diskUsed' | 'diskTotal' | 'networkRx' | 'networkTx' | 'bandwidthTotal';
const HOST_RESOURCES: readonly (readonly [HostField, string])[] = [
  ['cpuNs', 'cpu_ns_per_second'],
  ['cpuTotal', 'cpu_total_ns_per_second'],
  ['memoryUsed', 'memory_used_bytes'],
  ['memoryTotal', 'memory_total_bytes'],
  ['diskUsed', 'disk_used_bytes'],
  ['diskTotal', 'disk_total_bytes'],
  ['networkRx', 'network_receive_bytes_per_second'],
  ['networkTx', 'network_transmit_bytes_per_second'],
  ['bandwidthTotal', 'bandwidth_total_bits_per_second'],
];

export class UsageReporter {
  readonly #o: UsageReporterOptions;
  readonly #now: () => number;
  readonly #intervalMs: number;
  readonly #maxBuffered: number;
  readonly #batchSamples: number;
  #buffer: UsageSample[] = [];
  #dropped = 0;
  #timer: NodeJS.Timeout | undefined;
  #lastSampleMs: number | undefined;
  #last: UsageSample | undefined;
  readonly #prevCpu = new Map<string, Previous>();
  /** Per instance on a virtual network: its bytes received and sent at the last sample. */
  readonly #prevInstanceNet = new Map<string, { rx: number; tx: number; timeMs: number }>();
  #prevHostCpu: Previous | undefined;
  #prevNet: { rx: number; tx: number; timeMs: number } | undefined;
  /** Disk use of instances without a monitor: the last walk, and the walk under way. */
  readonly #walked = new Map<string, { bytes: number; walking: boolean }>();
  readonly #abort = new AbortController();
  readonly #g: {
    cpu: Gauge<'job' | 'instance'>;
    mem: Gauge<'job' | 'instance'>;
    memLimit: Gauge<'job' | 'instance'>;
    disk: Gauge<'job' | 'instance'>;
    diskLimit: Gauge<'job' | 'instance'>;
    rx: Gauge<'job' | 'instance'>;
    tx: Gauge<'job' | 'instance'>;
    host: Gauge<'resource'>;
    dropped: Counter;
    buffered: Gauge;
  };

  constructor(o: UsageReporterOptions) {
    this.#o = o;
    this.#now = o.now ?? Date.now;
    this.#intervalMs = o.intervalMs ?? DEFAULT_USAGE_INTERVAL_MS;
    this.#maxBuffered = o.maxBuffered ?? 360;
    this.#batchSamples = o.batchSamples ?? 60;
    const registers = [o.registry];
    const labelNames = ['job', 'instance'] as const;
    const g = (name: string, help: string) => new Gauge({ name: `platform_agent_instance_${name}`, help, labelNames, registers });
    this.#g = {
      cpu: g('cpu_ns_per_second', 'CPU time used by the instance over the last sample, ns per second (1e9 = one core)'),
      mem: g('memory_bytes', 'Memory in use by the instance'),
      memLimit: g('memory_limit_bytes', "The job's memory resource (0: none)"),
      disk: g('disk_bytes', 'Bytes charged under the instance root'),
      diskLimit: g('disk_limit_bytes', "The job's disk resource (0: none)"),
      rx: g('network_receive_bytes_per_second', 'Bytes per second received on the instance\'s own interface (0: it shares the host\'s)'),
      tx: g('network_transmit_bytes_per_second', 'Bytes per second sent on the instance\'s own interface (0: it shares the host\'s)'),
      host: new Gauge({
        name: 'platform_agent_host_usage', help: 'Host totals at the last sample, by resource (cpu_ns_per_second, memory_used_bytes, ...)',
        labelNames: ['resource'], registers,
      }),
      dropped: new Counter({ name: 'platform_agent_usage_samples_dropped_total', help: 'Usage samples dropped because the buffer was full while the controller could not be reached', registers }),
      buffered: new Gauge({ name: 'platform_agent_usage_samples_buffered', help: 'Usage samples waiting to be sent', registers }),
    };
  }

  /** The last sample taken (for the heartbeat's summary), undefined before the second one. */
  get last(): UsageSample | undefined {
    return this.#last;
  }

  get intervalMs(): number {
    return this.#intervalMs;
  }

  /** Samples waiting to be sent. */
  get buffered(): number {
    return this.#buffer.length;
  }

  /** Samples dropped since start. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Samples every interval from now on (the first primes the counters). Idempotent. */
  start(): void {
    if (this.#timer || this.#abort.signal.aborted) return;
    let due = this.#now() + this.#intervalMs;
    const tick = () => {
      try {
        this.sample();
        this.flush();
      } catch {
        // a reader failing must not stop the sampling
      }
      const now = this.#now();
      due += this.#intervalMs;
      if (due < now) due = now + this.#intervalMs;
      this.#timer = setTimeout(tick, due - now);
      this.#timer.unref();
    };
    this.sample(false); // primes the rates
    this.#timer = setTimeout(tick, this.#intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#abort.abort();
  }

  /**
   * Measures the host and every running instance now; the sample is buffered (`keep` false: only
   * the counters are primed) and the Prometheus gauges are set. Returns the sample.
   */
  sample(keep = true): UsageSample {
    const now = this.#now();
    const intervalMs = this.#lastSampleMs === undefined ? 0 : now - this.#lastSampleMs;
    this.#lastSampleMs = now;
    const all = [...this.#o.instances()].filter((i) => i.running);
    // One /proc pass for the instances that have no cgroups, or groups that do not account CPU.
    const pgids = new Set<number>();
    const cgroupUse = new Map<string, { memory: number; cpuNs: number | undefined }>();
    for (const i of all) {
      if (i.cgroups.length > 0 && this.#o.cgroups.available) cgroupUse.set(i.uuid, this.#o.cgroups.usage(i.cgroups));
      if (cgroupUse.get(i.uuid)?.cpuNs === undefined && i.pid !== undefined) pgids.add(i.pid);
    }
    const groups: Map<number, GroupUsage> = readProcessGroups(pgids);
    const instances: InstanceUsage[] = [];
    const interfaces = all.some((i) => i.interface) ? readInterfaces() : undefined;
    const seen = new Set<string>();
    this.#g.cpu.reset();
    this.#g.mem.reset();
    this.#g.memLimit.reset();
    this.#g.disk.reset();
    this.#g.diskLimit.reset();
    this.#g.rx.reset();
    this.#g.tx.reset();
    for (const i of all) {
      seen.add(i.uuid);
      let cpuNs: number;
      let memory: number;
      const c = cgroupUse.get(i.uuid);
      if (c) {
        const u = i.pid !== undefined ? groups.get(i.pid) : undefined;
        cpuNs = c.cpuNs ?? u?.cpuNs ?? 0;
        memory = c.memory;
      } else {
        const u = i.pid !== undefined ? groups.get(i.pid) : undefined;
        cpuNs = u?.cpuNs ?? 0;
        memory = u?.memory ?? 0;
      }
      const prev = this.#prevCpu.get(i.uuid);
      this.#prevCpu.set(i.uuid, { cpuNs, timeMs: now });
      const diskUsed = i.diskMonitored ?? this.#walkedDisk(i);
      // The host end's counters: what it sends, the instance receives.
      const veth = i.interface ? interfaces?.get(i.interface) : undefined;
      const prevNet = this.#prevInstanceNet.get(i.uuid);
      if (veth) this.#prevInstanceNet.set(i.uuid, { rx: veth.txBytes, tx: veth.rxBytes, timeMs: now });
      if (!prev || now <= prev.timeMs) continue;
      const span = prevNet && veth && now > prevNet.timeMs ? (now - prevNet.timeMs) / 1000 : 0;
      const rx = span > 0 ? Math.max(0, veth!.txBytes - prevNet!.rx) / span : 0;
      const tx = span > 0 ? Math.max(0, veth!.rxBytes - prevNet!.tx) / span : 0;
      // A counter that went back (processes of the /proc fallback ended) counts as idle, not negative.
      const rate = Math.max(0, cpuNs - prev.cpuNs) / ((now - prev.timeMs) / 1000);
      const usage: InstanceUsage = {
        instanceUuid: i.uuid,
        jobUuid: i.jobUuid,
        cpuNs: rate,
        memoryUsed: memory,
        memoryLimit: i.resources.memory,
        diskUsed,
        diskLimit: i.resources.disk,
        networkRx: rx,
        networkTx: tx,
        networkMeasured: veth !== undefined,
        bandwidthLimit: i.resources.network,
      };
      instances.push(usage);
      const labels = { job: i.jobFqn || i.jobUuid, instance: i.uuid };
      this.#g.cpu.set(labels, rate);
      this.#g.mem.set(labels, memory);
      this.#g.memLimit.set(labels, i.resources.memory);
      this.#g.disk.set(labels, diskUsed);
      this.#g.diskLimit.set(labels, i.resources.disk);
      this.#g.rx.set(labels, rx);
      this.#g.tx.set(labels, tx);
    }
    for (const uuid of this.#prevCpu.keys()) if (!seen.has(uuid)) this.#prevCpu.delete(uuid);
    for (const uuid of this.#prevInstanceNet.keys()) if (!seen.has(uuid)) this.#prevInstanceNet.delete(uuid);
    for (const uuid of this.#walked.keys()) if (!seen.has(uuid)) this.#walked.delete(uuid);
    const host = this.#host(now);
    for (const [field, resource] of HOST_RESOURCES) this.#g.host.set({ resource }, host[field] ?? 0);
    const sample: UsageSample = { timeMs: now, intervalMs, host, instances };
    if (intervalMs > 0) this.#last = sample;
    if (keep && intervalMs > 0) this.#push(sample);
    return sample;
  }

  #host(now: number): HostUsage {
    const cpu = readHostCpu();
    let cpuRate = 0;
    if (cpu) {
      const prev = this.#prevHostCpu;
      if (prev && now > prev.timeMs) cpuRate = Math.max(0, cpu.busyNs - prev.cpuNs) / ((now - prev.timeMs) / 1000);
      this.#prevHostCpu = { cpuNs: cpu.busyNs, timeMs: now };
    }
    const net = readNetDev();
    let rx = 0;
    let tx = 0;
    if (net) {
      const prev = this.#prevNet;
      if (prev && now > prev.timeMs) {
        const s = (now - prev.timeMs) / 1000;
        rx = Math.max(0, net.rxBytes - prev.rx) / s;
        tx = Math.max(0, net.txBytes - prev.tx) / s;
      }
      this.#prevNet = { rx: net.rxBytes, tx: net.txBytes, timeMs: now };
    }
    const mem = readHostMemory();
    const fs = readFsUsage(this.#o.dataDir);
    return {
      cpuNs: cpuRate,
      cpuTotal: (cpu?.cores ?? 0) * 1e9,
      memoryUsed: mem?.used ?? 0,
      memoryTotal: mem?.total ?? 0,
      diskUsed: fs?.used ?? 0,
      diskTotal: fs?.total ?? 0,
      networkRx: rx,
      networkTx: tx,
      bandwidthTotal: this.#o.bandwidthTotal ?? 0,
    };
  }

  /** The last walk of an unmonitored root; starts the next one when none runs. */
  #walkedDisk(i: MeasuredInstance): number {
    let w = this.#walked.get(i.uuid);
    if (!w) {
      w = { bytes: 0, walking: false };
      this.#walked.set(i.uuid, w);
    }
    if (!w.walking) {
      w.walking = true;
      const entry = w;
      measureDisk(i.root, { signal: this.#abort.signal }).then(
        (m) => {
          if (m.complete) entry.bytes = m.bytes;
          entry.walking = false;
        },
        () => (entry.walking = false),
      );
    }
    return w.bytes;
  }

  #push(sample: UsageSample): void {
    this.#buffer.push(sample);
    const over = this.#buffer.length - this.#maxBuffered;
    if (over > 0) {
      this.#buffer.splice(0, over);
      this.#dropped += over;
      this.#g.dropped.inc(over);
    }
    this.#g.buffered.set(this.#buffer.length);
  }

  /** Sends the buffered samples, oldest first, while the outlet takes them. */
  flush(): void {
    const { outlet } = this.#o;
    while (this.#buffer.length > 0 && outlet.canSend()) {
      const samples = this.#buffer.slice(0, this.#batchSamples);
      if (!outlet.sendUsage({ samples, droppedTotal: this.#dropped })) break;
      this.#buffer.splice(0, samples.length);
    }
    this.#g.buffered.set(this.#buffer.length);
  }
}
