/**
 * Reading processes from /proc (Linux). The agent identifies its instances' processes by
 * process group and start time, so that it can re-attach to them after its own restart
 * without trusting a pid that the kernel may have reused.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcStat {
  pid: number;
  ppid: number;
  pgid: number;
  /** One-letter state; `Z` (zombie) and `X` (dead) count as not running. */
  state: string;
  /** Start time in clock ticks since boot: with the pid, a process's identity. */
  startTime: number;
  /** CPU time in user and kernel mode, clock ticks (USER_HZ) since the process started. */
  cpuTicks: number;
  /** Resident set size, pages. */
  rssPages: number;
}

/** The stat of `pid`, or undefined when it does not exist. */
export function readProcStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself contain ") ".
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const rest = text.slice(close + 2).split(' ');
  // rest[0] = state (field 3), rest[1] = ppid, rest[2] = pgrp, rest[11] = utime (field 14),
  // rest[12] = stime, rest[19] = starttime (field 22), rest[21] = rss (field 24)
  return {
    pid,
    state: rest[0] ?? '?',
    ppid: Number(rest[1]),
    pgid: Number(rest[2]),
    startTime: Number(rest[19]),
    cpuTicks: Number(rest[11]) + Number(rest[12]),
    rssPages: Number(rest[21]),
  };
}

/** True when `pid` runs and is the process that started at `startTime` (not a reused pid). */
export function isSameProcessAlive(pid: number, startTime: number): boolean {
  const st = readProcStat(pid);
  return st !== undefined && st.startTime === startTime && st.state !== 'Z' && st.state !== 'X';
}

/** The pids listed in /proc now (empty when /proc cannot be read). */
export function procPids(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const name of names) {
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57) pids.push(Number(name));
  }
  return pids;
}

/** Every live process whose process group is `pgid`. */
export function processGroupMembers(pgid: number): ProcStat[] {
  const out: ProcStat[] = [];
  for (const pid of procPids()) {
    const st = readProcStat(pid);
    if (st && st.pgid === pgid && st.state !== 'Z' && st.state !== 'X') out.push(st);
  }
  return out;
}

/**
 * The live descendants of `pid` (children first, then theirs), read from each process's
 * /proc/<pid>/task/<tid>/children: as many reads as the tree has processes, where a scan of the
 * whole of /proc reads every process on the host. A process reparented away from the tree (its
 * parent died, it went to init) is not found: what needs every member of a process group uses
 * processGroupMembers.
 */
export function descendants(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0 && out.length < 10_000) {
    const p = queue.shift()!;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue; // gone meanwhile
    }
    for (const t of tasks) {
      let text: string;
      try {
        text = readFileSync(`/proc/${p}/task/${t}/children`, 'latin1');
      } catch {
        continue;
      }
      for (const c of text.split(' ')) {
        if (c.trim() === '') continue;
        const child = Number(c);
        out.push(child);
        queue.push(child);
      }
    }
  }
  return out;
}

/** Sends `signal` to `pid`; false when it no longer exists. */
export function signalPid(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}
