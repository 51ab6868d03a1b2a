/**
 * CPU accounting of a set of processes and everything they start, through a cgroup of their
 * own in the v1 `cpuacct` hierarchy (apart from the `cpu` and `memory` ones that an agent puts
 * its instances in, so that it changes nothing of what is measured; on a host with the unified
 * v2 hierarchy only, where moving an agent would change its own groups, there is none): for a
 * benchmark whose figures must hold on a machine that is busy with other work, the CPU the
 * measured processes spent, not the machine's. A process joins with its descendants of the
 * moment; what they start later is in the group from its start. Needs root; `open` answers
 * undefined (and why, in `CpuGroup.unavailable`) where the host does not allow it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const V1 = '/sys/fs/cgroup/cpuacct';

export class CpuGroup {
  static unavailable = '';

  private constructor(
    private readonly dir: string,
    private readonly parent: string,
  ) {}

  static open(name: string): CpuGroup | undefined {
    try {
      if (!existsSync(join(V1, 'cpuacct.usage'))) throw new Error('no cgroup v1 cpuacct hierarchy at /sys/fs/cgroup/cpuacct');
      const dir = join(V1, `${name}-${process.pid}`);
      mkdirSync(dir);
      return new CpuGroup(dir, V1);
    } catch (err) {
      CpuGroup.unavailable = (err as Error).message;
      return undefined;
    }
  }

  /** Moves `pid` and its descendants of the moment into the group. */
  add(pid: number): void {
    for (const p of [pid, ...descendants(pid)]) {
      try {
        writeFileSync(join(this.dir, 'cgroup.procs'), String(p));
      } catch {
        // Gone meanwhile.
      }
    }
  }

  /** This process only (not its children of the moment): out of the group, back where groups start. */
  leave(): void {
    writeFileSync(join(this.parent, 'cgroup.procs'), String(process.pid));
  }

  /** This process joins (what it starts from now on is counted with it). */
  join(): void {
    writeFileSync(join(this.dir, 'cgroup.procs'), String(process.pid));
  }

  /** CPU time the group's processes spent since it was made (those that left it included), in ms. */
  usageMs(): number {
    return Number(readFileSync(join(this.dir, 'cpuacct.usage'), 'utf8').trim()) / 1e6;
  }

  /** Moves what is left in the group to the top and removes it. */
  close(): void {
    try {
      for (const pid of readFileSync(join(this.dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
        try {
          writeFileSync(join(this.parent, 'cgroup.procs'), pid);
        } catch {
          // Gone meanwhile.
        }
      }
      rmdirSync(this.dir);
    } catch {
      // Already removed, or a process still exiting: the directory stays empty for the next run's name.
    }
  }
}

/** Every process whose parent chain leads to `pid`, from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}
