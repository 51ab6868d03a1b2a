/**
 * Starting and signalling an instance's process tree, the same way for every driver.
 *
 * The agent spawns a tiny POSIX shell wrapper (/bin/sh, as root when the agent is, with HOST_ENV
 * only: host-env.ts), detached (its own session and process group, so
 * the process group id is the wrapper's pid), with stdout and stderr opened on the instance's
 * log files: nothing depends on the agent's pipes, and the instance outlives the agent. The
 * wrapper
 *   1. writes its pid into each cgroup.procs file it is given (so all descendants are counted),
 *   2. traps TERM/INT/HUP (so that a signal to the whole group does not kill it before the
 *      application has exited; trapped, not ignored, so the application gets default actions),
 *   3. runs the driver's host command in the foreground and writes its exit status (128+N
 *      for signal N) to the exit file. Only shell builtins are used after the command.
 * The agent knows the instance by (wrapper pid, its start time); see procfs.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { HostCommand } from './driver.js';
import { HOST_ENV } from './host-env.js';
import { processGroupMembers, readProcStat, signalPid } from './procfs.js';

const WRAPPER = [
  'exitfile=$1; n=$2; shift 2',
  'while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done',
  "trap ':' TERM INT HUP",
  '"$@"',
  'code=$?',
  'echo "$code" > "$exitfile"',
  'exit "$code"',
].join('\n');

export interface SpawnRequest {
  command: HostCommand;
  stdoutFd: number;
  stderrFd: number;
  exitFile: string;
  cgroupProcsFiles: readonly string[];
}

export interface Spawned {
  pid: number;
  startTime: number;
  child: ChildProcess;
}

/** Starts the wrapper; resolves once it runs (rejects when the shell cannot be started). */
export function spawnWrapped(req: SpawnRequest): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const args = ['-c', WRAPPER, 'platform-instance', req.exitFile, String(req.cgroupProcsFiles.length),
      ...req.cgroupProcsFiles, ...req.command.argv];
    let child: ChildProcess;
    try {
      // The wrapper is root's: it gets HOST_ENV, never the instance's environment, which the
      // driver's command hands to the instance itself (host-env.ts).
      child = spawn('/bin/sh', args, {
        cwd: req.command.cwd,
        env: { ...HOST_ENV },
        detached: true,
        stdio: ['ignore', req.stdoutFd, req.stderrFd],
      });
    } catch (err) {
      reject(err as Error);
      return;
    }
    child.once('error', reject);
    child.once('spawn', () => {
      child.off('error', reject);
      child.on('error', () => {});
      child.unref();
      const pid = child.pid as number;
      const st = readProcStat(pid);
      resolve({ pid, startTime: st?.startTime ?? -1, child });
    });
  });
}

/** The exit status the wrapper recorded, or undefined when it recorded none. */
export function readExitFile(file: string): number | undefined {
  try {
    const text = readFileSync(file, 'utf8').trim();
    if (!/^\d+$/.test(text)) return undefined;
    return Number(text);
  } catch {
    return undefined;
  }
}

/**
 * Sends `signal` to the application's processes: every member of the process group except
 * `infrastructure`. Returns how many were signalled.
 */
export function signalApplication(pgid: number, infrastructure: (members: ReturnType<typeof processGroupMembers>) => Set<number>, signal: NodeJS.Signals): number {
  const members = processGroupMembers(pgid);
  const infra = infrastructure(members);
  let n = 0;
  for (const m of members) if (!infra.has(m.pid) && signalPid(m.pid, signal)) n++;
  return n;
}

/** SIGKILLs the whole process group (wrapper included). */
export function killGroup(pgid: number): void {
  signalPid(-pgid, 'SIGKILL');
}

/**
 * True while any process of the group lives. A group the kernel no longer has (no process, not
 * even a zombie, is in it: signal 0 to it fails) is answered without reading every process's
 * stat (the stop of many instances at once asks this of each, again and again).
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  return processGroupMembers(pgid).length > 0;
}
