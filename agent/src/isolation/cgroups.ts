/**
 * Cgroup limits per instance: memory and cpu, where the host lets the agent write cgroups.
 *
 * v1 (separate `memory` and `cpu` hierarchies, as on the hosts we run today): one directory per
 * instance under `<hierarchy>/<the agent's own cgroup>/platform-agent/`, with
 * `memory.limit_in_bytes` and `cpu.cfs_quota_us`/`cpu.cfs_period_us`.
 * v2 (a unified hierarchy mounted at /sys/fs/cgroup): the same layout with `memory.max` and
 * `cpu.max`; it needs the `memory` and `cpu` controllers delegated to the agent's subtree, which
 * the probe checks.
 *
 * The probe creates and removes a test group; when anything fails, `available` is false, the
 * reason is kept for the log, and instances run without limits (reported as Hello.cgroups=false).
 * An instance joins its groups from the wrapper shell before its command runs, so every process
 * it starts is counted and can be killed through the groups.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signalPid } from './procfs.js';

export interface CgroupLimits {
  /** Bytes; 0 = no limit. */
  memory: number;
  /** Milliseconds of CPU per second (1000 = one core); 0 = no limit. */
  cpu: number;
}

export interface CgroupUsage {
  memory: number;
  /**
   * Cumulative CPU time; undefined when the groups do not account it (v1 with `cpuacct` mounted
   * apart from `cpu`: the instance's `cpu` group has no cpuacct.usage). Callers then measure /proc.
   */
  cpuNs: number | undefined;
}

const CPU_PERIOD_US = 100_000;

type Flavour = { version: 'v1'; memoryBase: string; cpuBase: string } | { version: 'v2'; base: string };

function ownPath(controller: string, cgroupFile: string): string | undefined {
  for (const line of cgroupFile.split('\n')) {
    const [, controllers, path] = line.split(':');
    if (controllers === undefined || path === undefined) continue;
    if (controller === '' ? line.startsWith('0::') : controllers.split(',').includes(controller)) return path;
  }
  return undefined;
}

export class Cgroups {
  private constructor(
    readonly available: boolean,
    readonly version: 'v1' | 'v2' | 'none',
    /** Why cgroups are unavailable; empty when available. */
    readonly reason: string,
    private readonly flavour?: Flavour,
  ) {}

  /** Cgroups switched off (the `process` fallback, tests, or --no-cgroups). */
  static disabled(reason: string): Cgroups {
    return new Cgroups(false, 'none', reason);
  }

  /** Probes what this host lets the agent do; never throws. `root` defaults to /sys/fs/cgroup. */
  static detect(root = '/sys/fs/cgroup'): Cgroups {
    let self: string;
    try {
      self = readFileSync('/proc/self/cgroup', 'utf8');
    } catch {
      return Cgroups.disabled('no /proc/self/cgroup');
    }
    const errors: string[] = [];
    // v1 first: on hybrid hosts the v2 mount carries no controllers.
    const mem = ownPath('memory', self);
    const cpu = ownPath('cpu', self);
    if (mem !== undefined && cpu !== undefined && existsSync(join(root, 'memory')) && existsSync(join(root, 'cpu'))) {
      const flavour: Flavour = {
        version: 'v1',
        memoryBase: join(root, 'memory', mem, 'platform-agent'),
        cpuBase: join(root, 'cpu', cpu, 'platform-agent'),
      };
      const probe = new Cgroups(true, 'v1', '', flavour);
      const err = probe.#probe();
      if (!err) return probe;
      errors.push(`v1: ${err}`);
    }
    const unified = ownPath('', self);
    if (unified !== undefined && existsSync(join(root, 'cgroup.controllers'))) {
      const flavour: Flavour = { version: 'v2', base: join(root, unified, 'platform-agent') };
      const probe = new Cgroups(true, 'v2', '', flavour);
      const err = probe.#probe();
      if (!err) return probe;
      errors.push(`v2: ${err}`);
    }
    return Cgroups.disabled(errors.length ? errors.join('; ') : 'no cgroup memory and cpu controllers found');
  }

  #probe(): string | undefined {
    const name = `probe-${process.pid}`;
    let dirs: string[] = [];
    try {
      dirs = this.create(name, { memory: 64 * 1024 * 1024, cpu: 500 });
      return undefined;
    } catch (err) {
      return (err as Error).message;
    } finally {
      try {
        this.remove(dirs.length ? dirs : this.dirsOf(name));
      } catch {
        // best effort
      }
    }
  }

  /** The group directories of instance `name` (whether or not they exist). */
  dirsOf(name: string): string[] {
    const f = this.flavour;
    if (!f) return [];
    return f.version === 'v1' ? [join(f.memoryBase, name), join(f.cpuBase, name)] : [join(f.base, name)];
  }

  /** Creates the groups of instance `name` with `limits`; returns their directories. Throws on failure. */
  create(name: string, limits: CgroupLimits): string[] {
    const f = this.flavour;
    if (!this.available || !f) throw new Error(`cgroups are not available: ${this.reason}`);
    // CPU time per period (at least 1 ms); undefined = no limit.
    const quotaUs = limits.cpu > 0 ? Math.max(1000, Math.floor(limits.cpu * (CPU_PERIOD_US / 1000))) : undefined;
    if (f.version === 'v1') {
      const [memDir, cpuDir] = this.dirsOf(name) as [string, string];
      mkdirSync(memDir, { recursive: true });
      mkdirSync(cpuDir, { recursive: true });
      writeFileSync(join(memDir, 'memory.limit_in_bytes'), limits.memory > 0 ? String(Math.floor(limits.memory)) : '-1');
      writeFileSync(join(cpuDir, 'cpu.cfs_period_us'), String(CPU_PERIOD_US));
      writeFileSync(join(cpuDir, 'cpu.cfs_quota_us'), String(quotaUs ?? -1));
      return [memDir, cpuDir];
    }
    const [dir] = this.dirsOf(name) as [string];
    mkdirSync(f.base, { recursive: true });
    try {
      writeFileSync(join(f.base, 'cgroup.subtree_control'), '+memory +cpu');
    } catch {
      // Already enabled, or not delegated: the writes below tell.
    }
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'memory.max'), limits.memory > 0 ? String(Math.floor(limits.memory)) : 'max');
    writeFileSync(join(dir, 'cpu.max'), `${quotaUs ?? 'max'} ${CPU_PERIOD_US}`);
    return [dir];
  }

  /** The pids in the groups. */
  pids(dirs: readonly string[]): number[] {
    const pids = new Set<number>();
    for (const dir of dirs) {
      try {
        for (const line of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n')) if (line) pids.add(Number(line));
      } catch {
        // gone
      }
    }
    return [...pids];
  }

  /** SIGKILLs every process in the groups (used at teardown: nothing of the instance survives). */
  killAll(dirs: readonly string[]): number {
    const pids = this.pids(dirs);
    for (const pid of pids) signalPid(pid, 'SIGKILL');
    return pids.length;
  }

  /** Removes the groups; throws when a group still has processes (EBUSY). Missing groups are fine. */
  remove(dirs: readonly string[]): void {
    for (const dir of dirs) {
      try {
        rmdirSync(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  }

  /** Memory in use (0 when unreadable) and CPU time consumed (undefined when unreadable). */
  usage(dirs: readonly string[]): CgroupUsage {
    const f = this.flavour;
    const num = (file: string, pick?: (t: string) => string | undefined): number | undefined => {
      try {
        const text = readFileSync(file, 'utf8');
        const v = Number(pick ? pick(text) : text.trim());
        return Number.isFinite(v) ? v : undefined;
      } catch {
        return undefined;
      }
    };
    if (!f) return { memory: 0, cpuNs: undefined };
    if (f.version === 'v1') {
      const [memDir, cpuDir] = dirs;
      return {
        memory: (memDir && num(join(memDir, 'memory.usage_in_bytes'))) || 0,
        cpuNs: cpuDir ? num(join(cpuDir, 'cpuacct.usage')) : undefined,
      };
    }
    const [dir] = dirs;
    if (!dir) return { memory: 0, cpuNs: undefined };
    const usec = num(join(dir, 'cpu.stat'), (t) => /usage_usec (\d+)/.exec(t)?.[1]);
    return { memory: num(join(dir, 'memory.current')) ?? 0, cpuNs: usec === undefined ? undefined : usec * 1000 };
  }

  /** The file an instance's wrapper writes its pid into to join each group. */
  static procsFiles(dirs: readonly string[]): string[] {
    return dirs.map((d) => join(d, 'cgroup.procs'));
  }
}
