/**
 * ProcessSupervisor: one instance's process tree, from the spawn (or a re-attach) to its exit.
 *
 *   spawn() / attach() ──▶ running ──gracefulStop()──▶ stopping ──(stop timeout)──▶ kill()
 *                             │                            │                          │
 *                             └────────────── exit ────────┴──────────────────────────┴──▶ exited
 *
 * Contracts:
 * - `onExit` is called once, when the wrapper (launch.ts) has exited: seen by its `exit` event
 *   when this agent spawned it, by polling /proc (pid and start time) after a re-attach.
 * - A graceful stop runs the stop command (when there is one) or sends SIGTERM to the
 *   application's processes (not the wrapper's or the sandbox's machinery); `armKill` SIGKILLs
 *   the whole process group after the stop timeout. A stop command that fails or cannot start
 *   falls back to SIGTERM.
 * - Every timer is unref'd: nothing here keeps the agent alive by itself, except `keepAlive()`,
 *   which a stop calls so that the stop is seen through (bounded by the kill) even by an agent
 *   that is on its way out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import type { Logger } from '@platform/proto/common';
import { HOST_ENV } from '../isolation/host-env.js';
import { groupAlive, killGroup, readExitFile, signalApplication, spawnWrapped, type SpawnRequest } from '../isolation/launch.js';
import { isSameProcessAlive, processGroupMembers, readProcStat, type ProcStat } from '../isolation/procfs.js';

export interface ExitStatus {
  /** The status the wrapper wrote; else 128+signal when it was killed; else its own code (137 when unknown). */
  exitCode: number;
  /** The signal that killed the wrapper, when it could write no status. */
  signal?: NodeJS.Signals;
}

export interface SupervisorOptions {
  /** Where the wrapper writes the application's exit status. */
  exitFile: string;
  /** The pids of the group that are the wrapper's and the sandbox's, not the application's (IsolationDriver). */
  infrastructure(wrapperPid: number, members: readonly ProcStat[]): Set<number>;
  log: Logger;
  /** The runner's poll interval: a re-attached process is checked every 5 of them (at least 200 ms). */
  pollMs?: number;
  /** Called once, when the wrapper has exited. */
  onExit(status: ExitStatus): void;
}

/** A stop command, as the isolation driver runs it inside the instance. */
export interface StopCommand {
  argv: string[];
  cwd: string;
  /** Descriptors of the instance's log files (the caller closes them once this returns). */
  stdout: number;
  stderr: number;
}

export class ProcessSupervisor {
  #child: ChildProcess | undefined;
  #poll: NodeJS.Timeout | undefined;
  #killTimer: NodeJS.Timeout | undefined;
  #exited = false;
  #exitWaiters: (() => void)[] = [];

  private constructor(
    readonly pid: number,
    readonly startTime: number,
    private readonly o: SupervisorOptions,
  ) {}

  /** Starts the wrapper (launch.ts); resolves once it runs, rejects when it cannot start. */
  static async spawn(req: SpawnRequest, o: SupervisorOptions): Promise<ProcessSupervisor> {
    const spawned = await spawnWrapped(req);
    const sup = new ProcessSupervisor(spawned.pid, spawned.startTime, o);
    sup.#child = spawned.child;
    spawned.child.once('exit', () => sup.#onExit());
    return sup;
  }

  /** Watches a process tree started by an earlier run of the agent (same pid and start time). */
  static attach(pid: number, startTime: number, o: SupervisorOptions): ProcessSupervisor {
    const sup = new ProcessSupervisor(pid, startTime, o);
    sup.#watchByPolling(false);
    return sup;
  }

  get exited(): boolean {
    return this.#exited;
  }

  /** Keeps the event loop alive until the exit (a stop under way must be seen through). */
  keepAlive(): void {
    this.#child?.ref();
    if (this.#poll) {
      clearInterval(this.#poll);
      this.#watchByPolling(true);
    }
  }

  /** SIGKILLs the whole process group now. */
  kill(): void {
    if (!this.#exited) killGroup(this.pid);
  }

  /** SIGKILLs the whole process group after `timeoutS` unless it exited by then (replaces an earlier timer). */
  armKill(timeoutS: number): void {
    clearTimeout(this.#killTimer);
    this.#killTimer = setTimeout(() => {
      if (this.#exited) return;
      this.o.log.info('stop timeout: killing', { stop_timeout_s: timeoutS });
      killGroup(this.pid);
    }, timeoutS * 1000).unref();
  }

  /**
   * SIGTERM to the application's processes. Right after the start they may not exist yet (the
   * sandbox is still being built, only its machinery runs): then again a little later, until
   * some process got it or the instance is gone (the stop timeout's kill bounds it).
   */
  terminate(): void {
    if (this.#exited) return;
    if (signalApplication(this.pid, (m) => this.o.infrastructure(this.pid, m), 'SIGTERM') > 0) return;
    setTimeout(() => this.terminate(), 50).unref();
  }

  /** The application's first process: the one the wrapper (or the sandbox's init) started. */
  appPid(): number | undefined {
    const members = processGroupMembers(this.pid);
    const skip = this.o.infrastructure(this.pid, members);
    return (members.find((m) => !skip.has(m.pid) && skip.has(m.ppid)) ?? members.find((m) => !skip.has(m.pid)))?.pid;
  }

  /** Runs `command` (SIGKILLed after `timeoutS`); SIGTERM when it cannot start or fails. */
  runStopCommand(command: StopCommand, timeoutS: number): void {
    const [file, ...args] = command.argv as [string, ...string[]];
    const child = spawn(file, args, { cwd: command.cwd, env: { ...HOST_ENV }, stdio: ['ignore', command.stdout, command.stderr] });
    child.on('error', (err) => {
      this.o.log.warn('stop command failed to start; sending SIGTERM', { err });
      this.terminate();
    });
    const t = setTimeout(() => child.kill('SIGKILL'), timeoutS * 1000).unref();
    child.once('exit', (code) => {
      clearTimeout(t);
      // A stop command that failed must not leave the instance running until the kill.
      if (code !== 0 && !this.#exited) {
        this.o.log.info('stop command failed; sending SIGTERM', { exit_code: code });
        this.terminate();
      }
    });
  }

  /** Resolves at the exit, or after `ms` (true when it exited). */
  waitExit(ms: number): Promise<boolean> {
    if (this.#exited) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), ms).unref();
      this.#exitWaiters.push(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  /** Stops watching (timers cleared); the exit is no longer reported. */
  dispose(): void {
    clearInterval(this.#poll);
    clearTimeout(this.#killTimer);
  }

  #watchByPolling(keepAlive: boolean): void {
    this.#poll = setInterval(() => {
      if (!isSameProcessAlive(this.pid, this.startTime)) this.#onExit();
    }, Math.max(200, (this.o.pollMs ?? 100) * 5));
    if (!keepAlive) this.#poll.unref();
  }

  #onExit(): void {
    if (this.#exited) return;
    this.#exited = true;
    this.dispose();
    for (const w of this.#exitWaiters.splice(0)) w();
    const code = readExitFile(this.o.exitFile);
    const child = this.#child;
    let status: ExitStatus;
    if (code !== undefined) status = { exitCode: code };
    else if (child?.signalCode) status = { exitCode: 128 + (osConstants.signals[child.signalCode] ?? 9), signal: child.signalCode };
    else status = { exitCode: child?.exitCode ?? 137 };
    this.o.onExit(status);
  }
}

/**
 * Kills what is left of an instance's processes: its process group (`pid`, the wrapper's, while
 * the group is still ours) and whatever `others` holds (its cgroups), until both are empty or
 * about 5 s have passed. The kernel does not reuse a pid while it names a live process group, so
 * the group is ours unless a process with the group's id exists that is not our wrapper (the
 * group emptied and the id was reused, possible after a long agent downtime): then it is left alone.
 */
export async function killLeftovers(pid: number | undefined, pidStart: number | undefined, others?: { alive(): boolean; kill(): void }): Promise<void> {
  const groupIsOurs = (): boolean => {
    if (pid === undefined) return false;
    const leader = readProcStat(pid);
    return !leader || leader.startTime === pidStart;
  };
  for (let i = 0; i < 50; i++) {
    const inGroup = pid !== undefined && groupIsOurs() && groupAlive(pid);
    const inOthers = others?.alive() ?? false;
    if (!inGroup && !inOthers) return;
    if (inGroup) killGroup(pid);
    if (inOthers) others!.kill();
    await new Promise((r) => setTimeout(r, 100));
  }
}
