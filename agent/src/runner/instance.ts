/**
 * InstanceRunner: one instance on this host, from its StartInstance to REMOVED.
 *
 *   NEW ──▶ SETUP ──▶ STARTING ──▶ FIRST_RUNNING ──▶ RUNNING
 *    │        │          │               │              │
 *    │        │          │   (exit / start failure)     │ (exit)
 *    │        │          └──────────────┬───────────────┘
 *    └────────┴──(stop)──▶ STOPPING ────┼──▶ TEARDOWN ──▶ REMOVED
 *                                       └──────▲
 * - SETUP: packages fetched (cache), extracted into `<dir>/root`, ports chosen, environment
 *   built, templates rendered, cgroups created. Any failure -> TEARDOWN with failed + reason.
 * - STARTING: the process is spawned (launch.ts); it is RUNNING once it is alive and every
 *   required port listens, within start_command_timeout. Otherwise it is killed and fails:
 *   "did not listen on port N within 30 s" / "exited with code 3 during start".
 * - From the spawn on (and after a re-attach), the root is measured against the job's disk
 *   resource (disk-monitor.ts); past it the instance fails with the reason and is killed at once.
 *   Setup already charged what its packages unpack against the same resource (a DiskBudget).
 * - STOPPING (a stop request): stop_command, or SIGTERM to the application's processes; SIGKILL
 *   to the whole group after stop_timeout (at once with `force`).
 * - TEARDOWN: reported with exited/exit_code/failed/reason; leftover processes killed (process
 *   group and cgroups), cgroups removed, last log lines handed over, the directory removed.
 * The agent never restarts an instance: the controller decides (a new StartInstance).
 *
 * STARTING_WAIT, UPDATING and STOPPING_WAIT are not used by this agent.
 * Every state change is persisted in `<dir>/instance.json` before it is reported, so that a
 * restarted agent can re-attach (see `restore`).
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { join } from 'node:path';
import { instanceStateNumber, type InstanceReport, type InstanceStateName } from '@platform/proto';
import type { IsolationDriver, LaunchRequest } from '../isolation/driver.js';
import { Cgroups } from '../isolation/cgroups.js';
import { chownTree, killAllOfUid, resolveInsideIds, type HostIdentity, type UidAllocator } from '../isolation/identity.js';
import { groupAlive, killGroup, readExitFile, signalApplication, spawnWrapped } from '../isolation/launch.js';
import { isSameProcessAlive, processGroupMembers, readProcStat } from '../isolation/procfs.js';
import type { Logger } from '@platform/proto/common';
import type { AgentMetrics } from '../metrics/metrics.js';
import type { PackageCache } from '../packages/cache.js';
import { DiskBudget, extractArchive } from '../packages/extract.js';
import { DiskMonitor } from './disk-monitor.js';
import { renderTemplateFile } from '../packages/templates.js';
import { LogTailer, openLogForAppend } from '../logs/tailer.js';
import { buildEnvironment, startArgv } from '@platform/proto/common';
import { listeningPorts, type PortAllocator } from './ports.js';
import type { RunSpec } from './spec.js';

export interface RunnerDeps {
  driver: IsolationDriver;
  cgroups: Cgroups;
  /**
   * The instance uids (identity.ts) when the agent gives each instance its own; undefined when
   * instances run as the agent's user (an agent that is not root, or --allow-root-instances).
   */
  identities?: UidAllocator | undefined;
  cache: PackageCache;
  ports: PortAllocator;
  /** Host address at which instance ports are reachable (reported in `ports`). */
  address: string;
  log: Logger;
  metrics: AgentMetrics;
  now: () => number;
  /** Called on every state change, in order. */
  onReport(report: InstanceReport): void;
  /** Called once at teardown, before the directory is removed: take the last log lines. */
  onFinalLogs(tailer: LogTailer): void;
  /** How often readiness and (after a re-attach) liveness are checked. */
  pollMs?: number;
  /** How often the disk use of a running instance is measured (default 2000 ms; disk-monitor.ts). */
  diskCheckMs?: number;
}

/** What instance.json holds. */
export interface InstanceRecord {
  version: 1;
  spec: RunSpec;
  state: InstanceStateName;
  createdMs: number;
  stateTimeMs: number;
  /** When the process was started: files changed after it are what a snapshot takes. */
  processStartedMs?: number;
  launch?: LaunchRequest;
  /** The instance's own host uid/gid, from the agent's range (kept here so a restart reserves it). */
  identity?: HostIdentity;
  pid?: number;
  pidStart?: number;
  cgroups: string[];
  ports: Record<string, string>;
  allocatedPorts: number[];
  stopRequested: boolean;
  exited: boolean;
  exitCode: number;
  failed: boolean;
  reason: string;
}

const TERMINAL: ReadonlySet<InstanceStateName> = new Set(['TEARDOWN', 'REMOVED']);

class StartFailure extends Error {
  constructor(message: string, readonly kind: 'setup' | 'start') {
    super(message);
  }
}

function fmtSeconds(s: number): string {
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

export class InstanceRunner {
  readonly dir: string;
  readonly root: string;

  /** When the instance's process was started (undefined before). */
  get processStartedMs(): number | undefined {
    return this.#rec.processStartedMs;
  }
  readonly logsDir: string;
  #rec: InstanceRecord;
  #tailer: LogTailer | undefined;
  #child: ChildProcess | undefined;
  #abort = new AbortController();
  #poll: NodeJS.Timeout | undefined;
  #killTimer: NodeJS.Timeout | undefined;
  #exitSeen = false;
  #tearingDown = false;
  #log: Logger;
  #done: Promise<void>;
  #resolveDone!: () => void;
  #exitWaiters: (() => void)[] = [];
  #disk: DiskMonitor | undefined;

  private constructor(readonly instancesDir: string, rec: InstanceRecord, private readonly deps: RunnerDeps) {
    this.#rec = rec;
    this.dir = join(instancesDir, rec.spec.instanceUuid);
    this.root = join(this.dir, 'root');
    this.logsDir = join(this.dir, 'logs');
    this.#log = deps.log.child({ instance: rec.spec.instanceUuid, job: rec.spec.jobUuid });
    this.#done = new Promise((r) => (this.#resolveDone = r));
  }

  get uuid(): string {
    return this.#rec.spec.instanceUuid;
  }
  get state(): InstanceStateName {
    return this.#rec.state;
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
    const runner = new InstanceRunner(instancesDir, {
      version: 1, spec, state: 'NEW', createdMs: now, stateTimeMs: now, cgroups: [], ports: {}, allocatedPorts: [],
      stopRequested: false, exited: false, exitCode: 0, failed: false, reason: '',
    }, deps);
    // The instance directory is traversable (its uid must reach root/ to bind it) but not
    // listable; its logs and record are the agent's alone.
    mkdirSync(runner.dir, { recursive: true, mode: 0o711 });
    chmodSync(runner.dir, 0o711);
    mkdirSync(runner.logsDir, { recursive: true, mode: 0o700 });
    mkdirSync(runner.root, { recursive: true, mode: 0o700 });
    runner.#tailer = new LogTailer(runner.logsDir, spec.instanceUuid, spec.jobUuid);
    runner.#transition('NEW');
    return runner;
  }

  /** Reads `<dir>/instance.json`; undefined when it is missing or unreadable. */
  static readRecord(dir: string): InstanceRecord | undefined {
    try {
      const rec = JSON.parse(readFileSync(join(dir, 'instance.json'), 'utf8')) as InstanceRecord;
      return rec.version === 1 && rec.spec?.instanceUuid ? rec : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * A runner for an instance found on disk at agent start: re-attached when its process still
   * runs (and is the same process), else reported as exited (its recorded exit code) or lost,
   * and torn down.
   */
  static restore(instancesDir: string, rec: InstanceRecord, deps: RunnerDeps): InstanceRunner {
    const runner = new InstanceRunner(instancesDir, rec, deps);
    try {
      runner.#tailer = new LogTailer(runner.logsDir, rec.spec.instanceUuid, rec.spec.jobUuid);
    } catch {
      runner.#tailer = undefined;
    }
    for (const p of rec.allocatedPorts) deps.ports.reserve(p);
    if (rec.identity) deps.identities?.reserve(rec.identity.uid);
    const alive = rec.pid !== undefined && rec.pidStart !== undefined && isSameProcessAlive(rec.pid, rec.pidStart);
    if (alive && !TERMINAL.has(rec.state)) {
      runner.#log.info('instance re-attached', { pid: rec.pid, state: rec.state });
      runner.#watchByPolling();
      runner.#watchDisk();
      if (rec.state === 'STOPPING') {
        runner.#armKill(rec.spec.process.stopTimeoutS);
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
      runner.#rec.exited = true;
      runner.#rec.exitCode = code;
      if (!rec.stopRequested && code !== 0) {
        runner.#rec.failed = true;
        runner.#rec.reason = `exited with code ${code} while the agent was down`;
      }
    } else if (!rec.stopRequested) {
      runner.#rec.failed = true;
      runner.#rec.reason = 'lost while the agent was down';
      deps.metrics.failures.inc({ kind: 'lost' });
    }
    runner.#log.info('instance found ended after agent restart', { exit_code: code, reason: runner.#rec.reason });
    void runner.#teardown();
    return runner;
  }

  // ---- lifecycle -------------------------------------------------------------------------

  /** Runs SETUP and STARTING; failures end in TEARDOWN/REMOVED (never rejects). */
  async start(): Promise<void> {
    try {
      this.#transition('SETUP');
      await this.#setup();
      if (this.#rec.stopRequested) return void (await this.#teardown());
      await this.#spawn();
      await this.#awaitReady();
    } catch (err) {
      const kind = err instanceof StartFailure ? err.kind : 'setup';
      if (this.#rec.stopRequested && this.#abort.signal.aborted) {
        // Stopped during setup: not a failure.
      } else {
        this.#fail((err as Error).message, kind);
      }
      if (this.#rec.pid !== undefined && !this.#exitSeen) {
        killGroup(this.#rec.pid);
        await this.#waitExit(5000);
      }
      await this.#teardown();
    }
  }

  async #setup(): Promise<void> {
    const spec = this.#rec.spec;
    const signal = this.#abort.signal;
    // The job's disk resource bounds what its packages may unpack (a compression bomb stops there).
    const budget = new DiskBudget(spec.resources.disk);
    if (this.deps.identities && !this.#rec.identity) {
      const uid = this.deps.identities.allocate();
      this.#rec.identity = { uid, gid: uid };
      this.#persist();
    }
    for (const pkg of spec.packages) {
      if (!pkg.digest || pkg.length <= 0) continue;
      await this.deps.cache.use(pkg.digest, pkg.length, signal, async (file) => {
        if (signal.aborted) throw new Error('stopped during setup');
        await extractArchive(file, this.root, pkg.installPath, { label: `package ${pkg.fqn || pkg.uuid}`, budget });
      });
    }
    // Stager rule 3: the staged package's dependencies again, under /stagerfs of the root.
    const stagerfsDir = join(this.root, 'stagerfs');
    if (spec.stagerUrl) mkdirSync(stagerfsDir, { recursive: true });
    for (const pkg of spec.stagerfs ?? []) {
      if (!pkg.digest || pkg.length <= 0) continue;
      await this.deps.cache.use(pkg.digest, pkg.length, signal, async (file) => {
        if (signal.aborted) throw new Error('stopped during setup');
        // Charged to the same disk budget: the copy is on the instance's disk too.
        await extractArchive(file, stagerfsDir, pkg.installPath, { label: `package ${pkg.fqn || pkg.uuid} (under /stagerfs)`, budget });
      });
    }
    // Ports: the first port 0 gets a free port (PORT); fixed ports are passed as PORT_<n>.
    const portEnv: Record<string, string> = {};
    let zeroSeen = false;
    for (const port of spec.ports) {
      let value = port.number;
      if (port.number === 0) {
        if (zeroSeen) throw new StartFailure('more than one port with number 0', 'setup');
        zeroSeen = true;
        value = await this.deps.ports.allocate();
        this.#rec.allocatedPorts.push(value);
        portEnv['PORT'] = String(value);
      } else {
        portEnv[`PORT_${port.number}`] = String(port.number);
      }
      this.#rec.ports[String(port.number)] = `${this.deps.address}:${value}`;
    }
    if (!portEnv['PORT'] && spec.ports[0]) portEnv['PORT'] = String(spec.ports[0].number);
    const env = buildEnvironment({
      packages: spec.packages.map((p) => p.environment),
      process: spec.process.environment,
      defaultStartPath: existsSync(join(this.root, 'app')) ? '/app' : '/',
      home: this.deps.driver.name === 'process' ? this.root : '/',
      ports: portEnv,
      platform: spec.environment,
      stagerUrl: spec.stagerUrl,
    });
    // Where the stager finds /stagerfs: its own path under bwrap, the host path for the process driver.
    if (spec.stagerUrl) env['STAGERFS'] = this.deps.driver.name === 'process' ? stagerfsDir : '/stagerfs';
    for (const pkg of spec.packages) {
      for (const t of pkg.templates) {
        if (!t.path) continue;
        const base = join(this.root, ...pkg.installPath.split('/').filter((s) => s && s !== '.'));
        // A relative path is under the package's start path (its START_PATH, else the instance's),
        // as the original server resolved it; ".." is refused either way.
        const path = t.path.startsWith('/') ? t.path : `${pkg.environment['START_PATH'] || env['START_PATH'] || '/'}/${t.path}`;
        renderTemplateFile(base, path, env, t.left, t.right);
      }
    }
    const argv = startArgv(spec.process, env);
    if (!argv) throw new StartFailure('no start command: the process has none and no package sets START_COMMAND', 'setup');
    const workdir = '/' + (env['START_PATH'] ?? '/').split('/').filter((s) => s && s !== '.').join('/');
    if (workdir.split('/').includes('..')) throw new StartFailure(`START_PATH ${env['START_PATH']} has a ".." component`, 'setup');
    const hostPaths = [...new Set(spec.packages.flatMap((p) => p.hostPaths))];
    this.#rec.launch = {
      instanceUuid: spec.instanceUuid, root: this.root, argv, env, workdir, hostPaths,
      ...(spec.stagerUrl ? { stagerfs: { hostPaths: [...new Set((spec.stagerfs ?? []).flatMap((p) => p.hostPaths))] } } : {}),
    };
    const host = this.#rec.identity;
    if (host) {
      let inside = { uid: host.uid, gid: host.gid };
      if (this.deps.driver.name === 'bwrap') {
        // The instance sees the host's /etc/passwd when it is bound (os package, default dirs).
        const seesHostEtc = hostPaths.length === 0 || hostPaths.some((p) => p === '/etc' || p === '/etc/passwd');
        try {
          inside = resolveInsideIds(spec.process.user, spec.process.group, {
            passwd: [join(this.root, 'etc', 'passwd'), ...(seesHostEtc ? ['/etc/passwd'] : [])],
            group: [join(this.root, 'etc', 'group'), ...(seesHostEtc ? ['/etc/group'] : [])],
          });
        } catch (err) {
          throw new StartFailure((err as Error).message, 'setup');
        }
      } else if (spec.process.user || spec.process.group) {
        this.#log.warn('the process driver cannot run a job as its user/group: the instance runs as its own uid', { user: spec.process.user, group: spec.process.group, uid: host.uid });
      }
      this.#rec.launch.identity = { host, inside };
      // Everything the packages put in the root belongs to the instance, and no one else may look.
      chownTree(this.root, host);
      chmodSync(this.root, 0o700);
    }
    if (this.deps.cgroups.available) {
      try {
        this.#rec.cgroups = this.deps.cgroups.create(spec.instanceUuid, { memory: spec.resources.memory, cpu: spec.resources.cpu });
      } catch (err) {
        this.#log.warn('cgroup setup failed; running without limits', { err });
        this.#rec.cgroups = [];
      }
    }
    this.#persist();
  }

  async #spawn(): Promise<void> {
    const launch = this.#rec.launch as LaunchRequest;
    let command;
    try {
      command = this.deps.driver.command(launch);
    } catch (err) {
      throw new StartFailure((err as Error).message, 'start');
    }
    this.#rec.processStartedMs = this.deps.now();
    this.#transition('STARTING');
    const out = openLogForAppend(this.logsDir, 'stdout');
    const errFd = openLogForAppend(this.logsDir, 'stderr');
    try {
      const spawned = await spawnWrapped({
        command, env: launch.env, stdoutFd: out, stderrFd: errFd,
        exitFile: join(this.dir, 'exit-code'),
        cgroupProcsFiles: Cgroups.procsFiles(this.#rec.cgroups),
      });
      this.#child = spawned.child;
      this.#rec.pid = spawned.pid;
      this.#rec.pidStart = spawned.startTime;
      this.#persist();
      this.deps.metrics.starts.inc();
      spawned.child.once('exit', () => this.#onExit());
      this.#watchDisk();
    } catch (err) {
      throw new StartFailure(`cannot start the process: ${(err as Error).message}`, 'start');
    } finally {
      closeSync(out);
      closeSync(errFd);
    }
  }

  /** Waits until the process is alive and every required port listens; then RUNNING. */
  async #awaitReady(): Promise<void> {
    const spec = this.#rec.spec;
    const timeoutS = spec.process.startTimeoutS;
    const deadline = this.deps.now() + timeoutS * 1000;
    const required = spec.ports.filter((p) => !p.optional).map((p) => Number((this.#rec.ports[String(p.number)] ?? '').split(':').pop()));
    const pollMs = this.deps.pollMs ?? 100;
    // Most apps listen within milliseconds: look soon, then less and less often, up to pollMs.
    let waitMs = Math.min(5, pollMs);
    for (;;) {
      if (this.#rec.state !== 'STARTING') return;
      if (this.#exitSeen) return; // #onExit reports it
      const listening = required.length ? await listeningPorts() : new Set<number>();
      const missing = required.find((p) => !listening.has(p));
      if (this.#rec.state !== 'STARTING' || this.#exitSeen) return;
      if (missing === undefined) {
        this.#transition('FIRST_RUNNING');
        this.#transition('RUNNING');
        return;
      }
      if (this.deps.now() >= deadline) {
        const shown = spec.ports.find((p) => this.#rec.ports[String(p.number)]?.endsWith(`:${missing}`));
        const which = shown && shown.number === 0 ? `${missing} (PORT)` : String(missing);
        this.#fail(`did not listen on port ${which} within ${fmtSeconds(timeoutS)}`, 'start');
        this.#transition('STOPPING');
        if (this.#rec.pid !== undefined) killGroup(this.#rec.pid);
        return;
      }
      await new Promise((r) => setTimeout(r, waitMs).unref());
      waitMs = Math.min(pollMs, waitMs * 1.5);
    }
  }

  /** Asks the instance to stop (idempotent); `force` kills at once. Resolves when REMOVED. */
  stop(opts: { force?: boolean; reason?: string } = {}): Promise<void> {
    const st = this.#rec.state;
    if (TERMINAL.has(st)) return this.#done;
    const first = !this.#rec.stopRequested;
    this.#rec.stopRequested = true;
    if (first) this.#log.info('instance stopping', { reason: opts.reason ?? '', force: !!opts.force });
    if (this.#rec.pid === undefined) {
      // Not spawned yet: abort the setup; start() tears down.
      this.#abort.abort();
      if (st === 'NEW') void this.#teardown();
      return this.#done;
    }
    if (this.#exitSeen) return this.#done;
    // A stop is bounded (stop_timeout, then SIGKILL): keep the event loop alive until it ends,
    // so that an embedding program (or --stop-instances-on-exit) sees it through.
    this.#child?.ref();
    if (this.#poll) {
      clearInterval(this.#poll);
      this.#watchByPolling(true);
    }
    if (st !== 'STOPPING') this.#transition('STOPPING');
    if (opts.force) {
      killGroup(this.#rec.pid);
    } else if (first) {
      this.#armKill(this.#rec.spec.process.stopTimeoutS);
      try {
        this.#gracefulStop();
      } catch (err) {
        this.#log.warn('graceful stop failed; sending SIGTERM', { err });
        this.#terminate();
      }
    }
    return this.#done;
  }

  #gracefulStop(): void {
    const pid = this.#rec.pid as number;
    const spec = this.#rec.spec.process;
    const launch = this.#rec.launch;
    const stopArgv = spec.stopCommandRaw.length ? spec.stopCommandRaw : spec.stopCommand ? ['/bin/sh', '-c', spec.stopCommand] : undefined;
    const infra = (members: ReturnType<typeof processGroupMembers>) => this.deps.driver.infrastructure(pid, members);
    if (!stopArgv || !launch) {
      this.#terminate();
      return;
    }
    const members = processGroupMembers(pid);
    const skip = infra(members);
    // The application's first process: the one the wrapper (or bwrap's init) started.
    const appPid = (members.find((m) => !skip.has(m.pid) && skip.has(m.ppid)) ?? members.find((m) => !skip.has(m.pid)))?.pid;
    let command;
    try {
      command = this.deps.driver.commandInside(launch, appPid, stopArgv);
    } catch (err) {
      this.#log.warn('stop command cannot run; sending SIGTERM', { err });
      this.#terminate();
      return;
    }
    const out = openLogForAppend(this.logsDir, 'stdout');
    const errFd = openLogForAppend(this.logsDir, 'stderr');
    try {
      const [file, ...args] = command.argv as [string, ...string[]];
      const child = spawn(file, args, { cwd: command.cwd, env: launch.env, stdio: ['ignore', out, errFd] });
      child.on('error', (err) => {
        this.#log.warn('stop command failed to start; sending SIGTERM', { err });
        this.#terminate();
      });
      const t = setTimeout(() => child.kill('SIGKILL'), spec.stopTimeoutS * 1000).unref();
      child.once('exit', (code) => {
        clearTimeout(t);
        // A stop command that failed must not leave the instance running until the kill.
        if (code !== 0 && !this.#exitSeen) {
          this.#log.info('stop command failed; sending SIGTERM', { exit_code: code });
          this.#terminate();
        }
      });
    } finally {
      closeSync(out);
      closeSync(errFd);
    }
  }

  /**
   * SIGTERM to the application's processes. Right after the start they may not exist yet (the
   * sandbox is still being built, only its machinery runs): then again a little later, until
   * some process got it or the instance is gone (the stop timeout's kill bounds it).
   */
  #terminate(): void {
    const pid = this.#rec.pid;
    if (pid === undefined || this.#exitSeen) return;
    if (signalApplication(pid, (m) => this.deps.driver.infrastructure(pid, m), 'SIGTERM') > 0) return;
    setTimeout(() => this.#terminate(), 50).unref();
  }

  #armKill(timeoutS: number): void {
    clearTimeout(this.#killTimer);
    this.#killTimer = setTimeout(() => {
      if (this.#exitSeen || this.#rec.pid === undefined) return;
      this.#log.info('stop timeout: killing', { stop_timeout_s: timeoutS });
      killGroup(this.#rec.pid);
    }, timeoutS * 1000);
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

  #watchByPolling(keepAlive = false): void {
    const pid = this.#rec.pid as number;
    const start = this.#rec.pidStart as number;
    this.#poll = setInterval(() => {
      if (!isSameProcessAlive(pid, start)) this.#onExit();
    }, Math.max(200, (this.deps.pollMs ?? 100) * 5));
    if (!keepAlive) this.#poll.unref();
  }

  #waitExit(ms: number): Promise<void> {
    if (this.#exitSeen) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      t.unref();
      this.#exitWaiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  /** The wrapper exited: record how, then tear down (unless start() is already doing so). */
  #onExit(): void {
    if (this.#exitSeen) return;
    this.#exitSeen = true;
    clearInterval(this.#poll);
    clearTimeout(this.#killTimer);
    for (const w of this.#exitWaiters.splice(0)) w();
    const code = readExitFile(join(this.dir, 'exit-code'));
    const child = this.#child;
    const r = this.#rec;
    r.exited = true;
    if (code !== undefined) r.exitCode = code;
    else if (child?.signalCode) r.exitCode = 128 + (signalNumber(child.signalCode) ?? 9);
    else r.exitCode = child?.exitCode ?? 137;
    const how = code === undefined && child?.signalCode ? `was killed (${child.signalCode})` : `exited with code ${r.exitCode}`;
    if (!r.failed && !r.stopRequested) {
      if (r.state === 'STARTING') this.#fail(`${how} during start`, 'start');
      else if (r.exitCode !== 0) this.#fail(how, 'exit');
    }
    this.#log.info('instance process exited', { exit_code: r.exitCode, failed: r.failed, stop_requested: r.stopRequested });
    void this.#teardown();
  }

  #fail(reason: string, kind: 'setup' | 'start' | 'exit' | 'lost' | 'disk'): void {
    if (this.#rec.failed) return;
    this.#rec.failed = true;
    this.#rec.reason = reason;
    this.deps.metrics.failures.inc({ kind });
    this.#log.info('instance failed', { reason, kind });
  }

  async #teardown(): Promise<void> {
    if (this.#tearingDown) return this.#done;
    this.#tearingDown = true;
    clearInterval(this.#poll);
    clearTimeout(this.#killTimer);
    const diskStopped = this.#disk?.stop();
    if (this.#rec.state !== 'TEARDOWN') this.#transition('TEARDOWN');
    const pid = this.#rec.pid;
    // The kernel does not reuse a pid while it names a live process group, so the group is ours
    // unless a process with the group's id exists that is not our wrapper (the group emptied and
    // the id was reused, possible after a long agent downtime): then it is left alone.
    const groupIsOurs = (): boolean => {
      if (pid === undefined) return false;
      const leader = readProcStat(pid);
      return !leader || leader.startTime === this.#rec.pidStart;
    };
    // Nothing of the instance may survive it: the rest of its group, and its cgroups.
    for (let i = 0; i < 50; i++) {
      const inGroup = pid !== undefined && groupIsOurs() && groupAlive(pid);
      const inCgroups = this.#rec.cgroups.length ? this.deps.cgroups.pids(this.#rec.cgroups).length > 0 : false;
      if (!inGroup && !inCgroups) break;
      if (inGroup) killGroup(pid);
      if (inCgroups) this.deps.cgroups.killAll(this.#rec.cgroups);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Whatever still runs as the instance's uid (it left the group, and no cgroups hold it).
    const id = this.#rec.identity;
    if (id && id.uid !== 0) killAllOfUid(id.uid);
    try {
      this.deps.cgroups.remove(this.#rec.cgroups);
    } catch (err) {
      this.#log.warn('cannot remove cgroups', { err, cgroups: this.#rec.cgroups });
    }
    if (this.#tailer) {
      try {
        this.deps.onFinalLogs(this.#tailer);
      } catch (err) {
        this.#log.warn('cannot read the last log lines', { err });
      }
      this.#tailer.close();
    }
    for (const p of this.#rec.allocatedPorts) this.deps.ports.release(p);
    await diskStopped;
    let removed = true;
    try {
      rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
    } catch (err) {
      removed = false;
      this.#log.warn('cannot remove the instance directory', { err, dir: this.dir });
    }
    // A uid is free again only once nothing of it is left (files included).
    if (id && removed) this.deps.identities?.release(id.uid);
    this.#transition('REMOVED', false);
    this.#resolveDone();
  }

  #transition(state: InstanceStateName, persist = true): void {
    this.#rec.state = state;
    this.#rec.stateTimeMs = this.deps.now();
    if (persist) this.#persist();
    this.#log.debug('instance state', { state });
    this.deps.onReport(this.report());
  }

  #persist(): void {
    if (!existsSync(this.dir) || (this.#tearingDown && this.#rec.state === 'REMOVED')) return;
    const file = join(this.dir, 'instance.json');
    try {
      // 0600: the record holds the instance's environment, which may carry credentials.
      writeFileSync(`${file}.tmp`, JSON.stringify(this.#rec), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    } catch (err) {
      this.#log.warn('cannot save the instance record', { err });
    }
  }
}

function signalNumber(sig: NodeJS.Signals): number | undefined {
  return osConstants.signals[sig];
}
