/**
 * InstanceRunner: one instance on this host, from its StartInstance to REMOVED.
 *
 *   NEW ──▶ SETUP ──▶ STARTING ──▶ FIRST_RUNNING ──▶ RUNNING ◀─┐ (re-attached)
 *    │        │          │               │              │  └────┘
 *    │        │          │   (exit / start failure)     │ (exit)
 *    │        │          └──────────────┬───────────────┘
 *    │        │          (stop, or not ready in time) ──┴──▶ STOPPING
 *    └────────┴──(stop, failure)──────────────▶ TEARDOWN ◀─────┘ (exit)  ──▶ REMOVED
 *
 * - SETUP: the setup steps run in their fixed order (steps/index.ts: logs, packages, ports,
 *   environment, templates, launch, root, cgroups); the first that fails ends the setup, and
 *   the instance goes to TEARDOWN with failed + reason. A stop during setup aborts it.
 * - STARTING: the process is spawned (supervisor.ts); it is RUNNING once it is alive and every
 *   required port listens, within start_command_timeout. Otherwise it is killed and fails:
 *   "did not listen on port N within 30 s" / "exited with code 3 during start".
 * - From the spawn on (and after a re-attach), the root is measured against the job's disk
 *   resource (disk-monitor.ts); past it the instance fails with the reason and is killed at once.
 *   Setup already charged what its packages unpack against the same resource (a DiskBudget).
 * - STOPPING (a stop request): stop_command, or SIGTERM to the application's processes; SIGKILL
 *   to the whole group after stop_timeout (at once with `force`).
 * - TEARDOWN: reported with exited/exit_code/failed/reason; leftover processes killed (process
 *   group and cgroups), then every step that was prepared is released in the reverse order
 *   (cgroups removed, the uid's processes killed and the root removed, ports freed, last log
 *   lines handed over; errors are collected and logged, none stops the others), then the
 *   directory is removed.
 * The agent never restarts an instance: the controller decides (a new StartInstance).
 *
 * STARTING_WAIT, UPDATING and STOPPING_WAIT are not used by this agent. A transition that
 * INSTANCE_MACHINE does not allow throws an IllegalTransitionError (a bug in the runner).
 * Every state change is persisted in `<dir>/instance.json` before it is reported, so that a
 * restarted agent can re-attach (see `restore`), with these exceptions on the way to RUNNING: SETUP
 * and FIRST_RUNNING are saved with the next write (a restarted agent treats NEW as SETUP, and
 * RUNNING follows FIRST_RUNNING in the same turn), and NEW, STARTING and what the setup steps
 * save are written from the thread pool (`#persist`; until there is a process, a restarted agent
 * that finds an earlier state tears the instance down all the same). The write that carries the
 * pid is made at once, after the spawn, and so is RUNNING's.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { instanceStateNumber, type InstanceReport, type InstanceStateName } from '@platform/proto';
import { StateMachine, type GuardedState, type Logger } from '@platform/proto/common';
import { Cgroups } from '../isolation/cgroups.js';
import { readExitFile } from '../isolation/launch.js';
import { isSameProcessAlive } from '../isolation/procfs.js';
import { LogTailer, openLogForAppend } from '../logs/tailer.js';
import { readRecord, RecordFile, type InstanceContext, type InstanceRecord, type RunnerDeps } from './context.js';
import { DiskMonitor } from './disk-monitor.js';
import { awaitListening } from './readiness.js';
import { inNetwork } from '../isolation/driver.js';
import { tool } from '../network/commands.js';
import { acceptingPorts, HostNetworks, namespaceListening } from '../network/host-networks.js';
import type { RunSpec } from './spec.js';
import { writePlatformFiles, type PlatformFilePlan } from './platform-files.js';
import { INSTANCE_STEPS, StepRunner } from './steps/index.js';
import { ProcessSupervisor, killLeftovers, type ExitStatus, type SupervisorOptions } from './supervisor.js';

export type { InstanceContext, InstanceRecord, InstanceStep, RunnerDeps } from './context.js';

/** The transitions of the diagram above (states the agent does not use have none). */
export const INSTANCE_MACHINE = new StateMachine<InstanceStateName>('instance', {
  NEW: ['SETUP', 'TEARDOWN'],
  SETUP: ['STARTING', 'TEARDOWN'],
  STARTING: ['FIRST_RUNNING', 'STOPPING', 'TEARDOWN'],
  FIRST_RUNNING: ['RUNNING', 'STOPPING', 'TEARDOWN'],
  // A re-attached instance reports RUNNING again.
  RUNNING: ['RUNNING', 'STOPPING', 'TEARDOWN'],
  STOPPING: ['TEARDOWN'],
  TEARDOWN: ['REMOVED'],
  REMOVED: [],
  STARTING_WAIT: [],
  UPDATING: [],
  STOPPING_WAIT: [],
});

const TERMINAL: ReadonlySet<InstanceStateName> = new Set(['TEARDOWN', 'REMOVED']);

type FailureKind = 'setup' | 'start' | 'exit' | 'lost' | 'disk';

/** How a state change is saved: at once, from the thread pool (RecordFile.writeSoon), or with the next write. */
type Persist = 'now' | 'soon' | false;

/** A start that failed after the setup (the driver's command, the spawn). */
class StartFailure extends Error {}

const round1 = (ms: number) => Math.round(ms * 10) / 10;

function fmtSeconds(s: number): string {
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

export class InstanceRunner {
  readonly dir: string;
  readonly root: string;
  readonly logsDir: string;
  readonly #rec: InstanceRecord;
  readonly #state: GuardedState<InstanceStateName>;
  readonly #ctx: InstanceContext;
  readonly #steps: StepRunner<InstanceContext>;
  readonly #abort = new AbortController();
  readonly #log: Logger;
  readonly #done: Promise<void>;
  #resolveDone!: () => void;
  #tailer: LogTailer | undefined;
  #process: ProcessSupervisor | undefined;
  #disk: DiskMonitor | undefined;
  #tearingDown = false;
  /** A forced stop asked for before there was a process to kill. */
  #forceRequested = false;
  /** When this run's start began, and its phases' lengths (ms): logged once it is RUNNING. */
  #startT0: number | undefined;
  readonly #phases: Record<string, number> = {};
  /** instance.json (made at the first write). */
  #record: RecordFile | undefined;

  private constructor(readonly instancesDir: string, rec: InstanceRecord, private readonly deps: RunnerDeps, tailer: () => LogTailer | undefined) {
    this.#rec = rec;
    this.dir = join(instancesDir, rec.spec.instanceUuid);
    this.root = join(this.dir, 'root');
    this.logsDir = join(this.dir, 'logs');
    this.#log = deps.log.child({ instance: rec.spec.instanceUuid, job: rec.spec.jobUuid });
    this.#done = new Promise((r) => (this.#resolveDone = r));
    this.#state = INSTANCE_MACHINE.start(rec.state, this.#log);
    this.#tailer = tailer();
    this.#steps = new StepRunner(deps.steps ?? INSTANCE_STEPS, this.#log);
    this.#ctx = {
      spec: rec.spec, rec, dir: this.dir, root: this.root, logsDir: this.logsDir, deps, log: this.#log,
      signal: this.#abort.signal, tailer: this.#tailer, persist: () => this.#persist('soon'), portEnv: {}, env: {},
    };
  }

  /** When the instance's process was started (undefined before). */
  get processStartedMs(): number | undefined {
    return this.#rec.processStartedMs;
  }
  get uuid(): string {
    return this.#rec.spec.instanceUuid;
  }
  get state(): InstanceStateName {
    return this.#state.current;
  }
  get spec(): RunSpec {
    return this.#rec.spec;
  }
  get tailer(): LogTailer | undefined {
    return this.#tailer;
  }
  /** Resolves once the instance is REMOVED. */
  get done(): Promise<void> {
    return this.#done;
  }
  get record(): Readonly<InstanceRecord> {
    return this.#rec;
  }
  /** Bytes its root took at the last measure (0 before one, or without a disk resource). */
  get diskUsed(): number {
    return this.#disk?.lastBytes ?? 0;
  }

  /** The current state as the wire report. */
  report(): InstanceReport {
    const r = this.#rec;
    const ports: Record<number, string> = {};
    for (const [k, v] of Object.entries(r.ports)) ports[Number(k)] = v;
    return {
      instanceUuid: r.spec.instanceUuid,
      jobUuid: r.spec.jobUuid,
      jobVersionId: r.spec.jobVersionId,
      state: instanceStateNumber(r.state),
      exited: r.exited,
      exitCode: r.exitCode,
      failed: r.failed,
      reason: r.reason,
      ports,
      timeMs: r.stateTimeMs,
      createdMs: r.createdMs,
      stopRequested: r.stopRequested,
    };
  }

  /** A runner for a new instance (state NEW, reported). Call `start()` next. */
  static create(instancesDir: string, spec: RunSpec, deps: RunnerDeps): InstanceRunner {
    const now = deps.now();
    const dir = join(instancesDir, spec.instanceUuid);
    const runner = new InstanceRunner(instancesDir, {
      version: 1, spec, state: 'NEW', createdMs: now, stateTimeMs: now, cgroups: [], ports: {}, allocatedPorts: [],
      stopRequested: false, exited: false, exitCode: 0, failed: false, reason: '',
    }, deps, () => {
      // The instance directory is traversable (its uid must reach root/ to bind it) but not
      // listable; its logs and record are the agent's alone.
      mkdirSync(dir, { recursive: true, mode: 0o711 });
      chmodSync(dir, 0o711);
      mkdirSync(join(dir, 'logs'), { recursive: true, mode: 0o700 });
      mkdirSync(join(dir, 'root'), { recursive: true, mode: 0o700 });
      return new LogTailer(join(dir, 'logs'), spec.instanceUuid, spec.jobUuid);
    });
    // The logs step's part is done here, not in setup: the shipper follows the logs from the start.
    runner.#steps.adopt('logs');
    runner.#announce('soon');
    return runner;
  }

  /** Reads `<dir>/instance.json`; undefined when it is missing or unreadable. */
  static readRecord(dir: string): InstanceRecord | undefined {
    return readRecord(dir);
  }

  /**
   * A runner for an instance found on disk at agent start: re-attached when its process still
   * runs (and is the same process), else reported as exited (its recorded exit code) or lost,
   * and torn down.
   */
  static restore(instancesDir: string, rec: InstanceRecord, deps: RunnerDeps): InstanceRunner {
    // REMOVED is never saved; a record that says so was being torn down.
    if (rec.state === 'REMOVED') rec.state = 'TEARDOWN';
    const dir = join(instancesDir, rec.spec.instanceUuid);
    const runner = new InstanceRunner(instancesDir, rec, deps, () => {
      try {
        return new LogTailer(join(dir, 'logs'), rec.spec.instanceUuid, rec.spec.jobUuid);
      } catch {
        return undefined;
      }
    });
    // What the steps hold is in the record: they are released at teardown, whatever happens next.
    runner.#steps.hold(runner.#ctx);
    const alive = rec.pid !== undefined && rec.pidStart !== undefined && isSameProcessAlive(rec.pid, rec.pidStart);
    if (alive && !TERMINAL.has(rec.state)) {
      runner.#log.info('instance re-attached', { pid: rec.pid, state: rec.state });
      runner.#process = ProcessSupervisor.attach(rec.pid!, rec.pidStart!, runner.#supervisorOptions());
      runner.#running();
      if (rec.state === 'STOPPING') {
        runner.#process.keepAlive();
        runner.#process.armKill(rec.spec.process.stopTimeoutS);
      } else if (rec.state === 'STARTING') {
        void runner.#awaitReady();
      } else {
        runner.#transition('RUNNING');
      }
      return runner;
    }
    if (TERMINAL.has(rec.state)) {
      void runner.#teardown();
      return runner;
    }
    const code = rec.pid !== undefined ? readExitFile(join(runner.dir, 'exit-code')) : undefined;
    if (code !== undefined) {
      rec.exited = true;
      rec.exitCode = code;
      if (!rec.stopRequested && code !== 0) {
        rec.failed = true;
        rec.reason = `exited with code ${code} while the agent was down`;
      }
    } else if (!rec.stopRequested) {
      rec.failed = true;
      rec.reason = 'lost while the agent was down';
      deps.metrics.failures.inc({ kind: 'lost' });
    }
    runner.#log.info('instance found ended after agent restart', { exit_code: code, reason: rec.reason });
    void runner.#teardown();
    return runner;
  }

  // ---- lifecycle -------------------------------------------------------------------------

  /** Runs SETUP and STARTING; failures end in TEARDOWN/REMOVED (never rejects). */
  async start(): Promise<void> {
    try {
      this.#startT0 = performance.now();
      // Saved with the next write (a step's, or STARTING's): a restarted agent treats a NEW
      // record as one in SETUP, and nothing of the setup is made before a step has saved it.
      this.#transition('SETUP', false);
      await this.#steps.prepare(this.#ctx, this.#abort.signal);
      // What the steps left in the record is saved with STARTING (the same turn, before the spawn).
      this.#phase('setup');
      if (this.#rec.stopRequested) return void (await this.#teardown());
      await this.#spawn();
      this.#phase('spawn');
      // A stop that arrived while the process was being spawned.
      if (this.#rec.stopRequested) return this.#stopProcess(this.#process!, this.#forceRequested, true);
      await this.#awaitReady();
    } catch (err) {
      if (this.#rec.stopRequested && this.#abort.signal.aborted) {
        // Stopped during setup: not a failure.
      } else {
        this.#fail((err as Error).message, err instanceof StartFailure ? 'start' : 'setup');
      }
      const proc = this.#process;
      if (proc && !proc.exited) {
        proc.kill();
        await proc.waitExit(5000);
      }
      await this.#teardown();
    }
  }

  async #spawn(): Promise<void> {
    const launch = this.#rec.launch!;
    let command;
    try {
      command = inNetwork(this.deps.driver.command(launch), launch, tool('nsenter'));
    } catch (err) {
      throw new StartFailure((err as Error).message);
    }
    this.#rec.processStartedMs = this.deps.now();
    this.#transition('STARTING', 'soon');
    const out = openLogForAppend(this.logsDir, 'stdout');
    const errFd = openLogForAppend(this.logsDir, 'stderr');
    try {
      this.#process = await ProcessSupervisor.spawn({
        command, stdoutFd: out, stderrFd: errFd,
        exitFile: join(this.dir, 'exit-code'),
        cgroupProcsFiles: Cgroups.procsFiles(this.#rec.cgroups),
      }, this.#supervisorOptions());
    } catch (err) {
      throw new StartFailure(`cannot start the process: ${(err as Error).message}`);
    } finally {
      closeSync(out);
      closeSync(errFd);
    }
    this.#rec.pid = this.#process.pid;
    this.#rec.pidStart = this.#process.startTime;
    // On disk before anything else happens: a restarted agent re-attaches the process by it.
    this.#persist('now');
    this.deps.metrics.starts.inc();
    this.#running();
  }

  #supervisorOptions(): SupervisorOptions {
    return {
      exitFile: join(this.dir, 'exit-code'),
      infrastructure: (pid, members) => this.deps.driver.infrastructure(pid, members),
      log: this.#log,
      ...(this.deps.pollMs !== undefined ? { pollMs: this.deps.pollMs } : {}),
      onExit: (status) => this.#onExit(status),
    };
  }

  /** The process runs (spawned or re-attached): its disk is measured, the steps hear of it. */
  #running(): void {
    this.#watchDisk();
    this.#steps.started(this.#ctx);
  }

  /** Waits until the process is alive and every required port listens; then RUNNING. */
  async #awaitReady(): Promise<void> {
    const spec = this.#rec.spec;
    const timeoutS = spec.process.startTimeoutS;
    // In a namespace of its own a fixed port listens at its number, reached at another host port.
    const net = this.#rec.network;
    const inside = (host: number) => net?.insidePorts?.[net.ports.indexOf(host)] ?? host;
    const required = spec.ports.filter((p) => !p.optional).map((p) => inside(Number((this.#rec.ports[String(p.number)] ?? '').split(':').pop())));
    const ready = await awaitListening({
      required,
      deadlineMs: this.deps.now() + timeoutS * 1000,
      now: this.deps.now,
      pollMs: this.deps.pollMs ?? 100,
      gone: () => this.state !== 'STARTING' || !!this.#process?.exited, // #onExit reports an exit
      // In a namespace of its own the ports listen there (the host's are the forwarders'): on a
      // network of its own they are tried as forwarded traffic reaches them; on a virtual network
      // they are read from the namespace's /proc.
      ...(net?.own ? { listening: acceptingPorts(net.address, required) } : {}),
      ...(net && !net.own && this.#rec.pid !== undefined ? { listening: namespaceListening(this.#rec.pid, HostNetworks.netnsPath(net)) } : {}),
    });
    if (ready.kind === 'gone') return;
    if (ready.kind === 'ready') {
      if (this.#startT0 !== undefined) this.#phase('ready');
      // Saved once, as RUNNING, at once: both reports leave after this turn, the record written by
      // then (an agent stopped or killed next finds it RUNNING, and says so in its next Hello).
      this.#transition('FIRST_RUNNING', false);
      this.#transition('RUNNING');
      if (this.#startT0 !== undefined) {
        // Where a start's time goes: each setup step, the spawn, the wait for its ports.
        this.#log.info('instance running', { start_ms: { ...this.#phases, steps: this.#steps.timings, total: round1(performance.now() - this.#startT0) } });
      }
      return;
    }
    const missing = ready.missing;
    const shown = spec.ports.find((p) => this.#rec.ports[String(p.number)]?.endsWith(`:${missing}`));
    const which = shown && shown.number === 0 ? `${missing} (PORT)` : String(missing);
    this.#fail(`did not listen on port ${which} within ${fmtSeconds(timeoutS)}`, 'start');
    this.#transition('STOPPING');
    this.#process?.kill();
  }

  /** Asks the instance to stop (idempotent); `force` kills at once. Resolves when REMOVED. */
  /**
   * New contents of platform files (InstanceFiles: a renewed app token). Only files the
   * instance was started with are replaced (its spec keeps the new content, for a setup still
   * to come and for a restarted agent); others are refused, as their directory was not bound.
   */
  updateFiles(files: readonly PlatformFilePlan[]): void {
    const known = this.#rec.spec.files ?? [];
    const names = new Set(known.map((f) => f.name));
    const unknown = files.filter((f) => !names.has(f.name));
    if (unknown.length > 0) this.#log.warn('platform files the instance was not started with are not written', { files: unknown.map((f) => f.name) });
    const update = files.filter((f) => names.has(f.name));
    if (update.length === 0 || TERMINAL.has(this.state)) return;
    this.#rec.spec.files = known.map((f) => update.find((u) => u.name === f.name) ?? f);
    this.#persist('now');
    const dir = this.#rec.launch?.platformFiles;
    if (dir) writePlatformFiles(dir, update, this.#rec.identity);
  }

  stop(opts: { force?: boolean; reason?: string } = {}): Promise<void> {
    const st = this.state;
    if (TERMINAL.has(st)) return this.#done;
    const first = !this.#rec.stopRequested;
    this.#rec.stopRequested = true;
    if (first) this.#log.info('instance stopping', { reason: opts.reason ?? '', force: !!opts.force });
    const proc = this.#process;
    if (!proc) {
      // Not spawned yet: abort the setup (start() tears down), or, when the spawn is under way,
      // start() carries the stop out once it is done.
      if (opts.force) this.#forceRequested = true;
      this.#abort.abort();
      if (st === 'NEW') void this.#teardown();
      return this.#done;
    }
    this.#stopProcess(proc, !!opts.force, first);
    return this.#done;
  }

  /** STOPPING: SIGKILL now (`force`), or (the first time) the graceful stop with the kill timer armed. */
  #stopProcess(proc: ProcessSupervisor, force: boolean, first: boolean): void {
    if (proc.exited) return;
    // A stop is bounded (stop_timeout, then SIGKILL): keep the event loop alive until it ends,
    // so that an embedding program (or --stop-instances-on-exit) sees it through.
    proc.keepAlive();
    if (this.state !== 'STOPPING') this.#transition('STOPPING');
    if (force) {
      proc.kill();
    } else if (first) {
      proc.armKill(this.#rec.spec.process.stopTimeoutS);
      try {
        this.#gracefulStop(proc);
      } catch (err) {
        this.#log.warn('graceful stop failed; sending SIGTERM', { err });
        proc.terminate();
      }
    }
  }

  /** The stop command inside the instance when the job has one, else SIGTERM. */
  #gracefulStop(proc: ProcessSupervisor): void {
    const spec = this.#rec.spec.process;
    const launch = this.#rec.launch;
    const stopArgv = spec.stopCommandRaw.length ? spec.stopCommandRaw : spec.stopCommand ? ['/bin/sh', '-c', spec.stopCommand] : undefined;
    if (!stopArgv || !launch) return proc.terminate();
    let command;
    try {
      command = inNetwork(this.deps.driver.commandInside(launch, proc.appPid(), stopArgv), launch, tool('nsenter'));
    } catch (err) {
      this.#log.warn('stop command cannot run; sending SIGTERM', { err });
      return proc.terminate();
    }
    const stdout = openLogForAppend(this.logsDir, 'stdout');
    const stderr = openLogForAppend(this.logsDir, 'stderr');
    try {
      proc.runStopCommand({ ...command, stdout, stderr }, spec.stopTimeoutS);
    } finally {
      closeSync(stdout);
      closeSync(stderr);
    }
  }

  /** Measures the root while the process runs; over the job's disk resource, fails and kills it. */
  #watchDisk(): void {
    const limit = this.#rec.spec.resources.disk;
    if (limit <= 0 || this.#disk) return;
    this.#disk = new DiskMonitor({
      dir: this.root,
      limit,
      ...(this.deps.diskCheckMs ? { intervalMs: this.deps.diskCheckMs } : {}),
      onOver: (bytes, reason) => {
        this.#log.warn('instance over its disk resource', { bytes, limit });
        this.#fail(reason, 'disk');
        void this.stop({ force: true, reason: 'disk resource exceeded' });
      },
    });
    this.#disk.start();
  }

  /** The wrapper exited: record how, then tear down (unless start() is already doing so). */
  #onExit(status: ExitStatus): void {
    const r = this.#rec;
    r.exited = true;
    r.exitCode = status.exitCode;
    const how = status.signal ? `was killed (${status.signal})` : `exited with code ${r.exitCode}`;
    if (!r.failed && !r.stopRequested) {
      if (this.state === 'STARTING') this.#fail(`${how} during start`, 'start');
      else if (r.exitCode !== 0) this.#fail(how, 'exit');
    }
    this.#log.info('instance process exited', { exit_code: r.exitCode, failed: r.failed, stop_requested: r.stopRequested });
    void this.#teardown();
  }

  #fail(reason: string, kind: FailureKind): void {
    if (this.#rec.failed) return;
    this.#rec.failed = true;
    this.#rec.reason = reason;
    this.deps.metrics.failures.inc({ kind });
    this.#log.info('instance failed', { reason, kind });
  }

  /**
   * Kills what is left of the processes, then releases every prepared step (reverse order; each
   * failure is logged by the step runner and the others still run), then removes the directory.
   */
  async #teardown(): Promise<void> {
    if (this.#tearingDown) return this.#done;
    this.#tearingDown = true;
    this.#process?.dispose();
    const diskStopped = this.#disk?.stop();
    if (this.state !== 'TEARDOWN') this.#transition('TEARDOWN');
    const cgroups = this.#rec.cgroups;
    // Nothing of the instance may survive it: the rest of its group, and its cgroups.
    await killLeftovers(this.#rec.pid, this.#rec.pidStart, cgroups.length ? {
      alive: () => this.deps.cgroups.pids(cgroups).length > 0,
      kill: () => this.deps.cgroups.killAll(cgroups),
    } : undefined);
    await diskStopped;
    try {
      await this.#steps.release(this.#ctx);
    } catch (err) {
      // Each step's failure is logged already; this is the summary.
      this.#log.warn('instance teardown incomplete', { err });
    }
    // A write under way would fail on the directory removed, or stop its removal.
    await this.#record?.settled();
    try {
      rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
    } catch (err) {
      this.#log.warn('cannot remove the instance directory', { err, dir: this.dir });
    }
    this.#transition('REMOVED', false);
    this.#resolveDone();
  }

  /** Notes the length of phase `name`: from the end of the last one (or the start) to now. */
  #phase(name: string): void {
    const at = performance.now() - this.#startT0!;
    const before = Object.values(this.#phases).reduce((a, b) => a + b, 0);
    this.#phases[name] = round1(at - before);
  }

  /** The one place where the state changes: checked against INSTANCE_MACHINE, logged, saved, reported. */
  #transition(state: InstanceStateName, persist: Persist = 'now'): void {
    this.#state.set(state);
    this.#rec.state = state;
    this.#announce(persist);
  }

  /** Saves (unless told not to) and reports the current state. */
  #announce(persist: Persist = 'now'): void {
    this.#rec.stateTimeMs = this.deps.now();
    if (persist) this.#persist(persist);
    this.deps.onReport(this.report());
  }

  /**
   * Saves the record: at once (`now`), or from the thread pool (`soon`: RecordFile.writeSoon),
   * which the start's writes before its pid's use: until the process runs, a restarted agent
   * finds a record of an earlier step or none, and tears down what it holds either way
   * (`restore`; the network's objects go by their names, removeLeftovers).
   */
  #persist(when: 'now' | 'soon'): void {
    if (!existsSync(this.dir) || (this.#tearingDown && this.state === 'REMOVED')) return;
    this.#record ??= new RecordFile(this.dir, (err) => this.#log.warn('cannot save the instance record', { err }));
    try {
      if (when === 'now') this.#record.writeNow(this.#rec);
      else this.#record.writeSoon(this.#rec);
    } catch (err) {
      this.#log.warn('cannot save the instance record', { err });
    }
  }
}
