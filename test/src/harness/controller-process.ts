/**
 * Runs the real `platform-controller` binary as a child process, on a free
 * loopback port with its own data directory, the way an operator would.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ApiClient } from './http.js';
import { claimAgentSubnetPool } from './subnet-slots.js';

export const TEST_ADMIN_PASSWORD = 'test-admin-password';
/** The join secret test controllers expect from their agents. */
export const TEST_JOIN_TOKEN = 'test-join-token-0123456789';

export const CONTROLLER_BIN = join(dirname(fileURLToPath(import.meta.resolve('@platform/controller'))), 'bin', 'platform-controller.js');
const LAUNCHER_LINE = readFileSync(join(dirname(CONTROLLER_BIN), '..', '..', 'bin', 'platform-controller.js'), 'utf8').split('\n')[0]!.split(' ');
/** The controller's Node flags, as the first line of its launcher (controller/bin) gives them. */
export const CONTROLLER_NODE_FLAGS = LAUNCHER_LINE.filter((w) => w.startsWith('--'));
/** The controller's environment (`NAME=value` before `node` on that line: MALLOC_ARENA_MAX). */
export const CONTROLLER_NODE_ENV: Record<string, string> = Object.fromEntries(
  LAUNCHER_LINE.filter((w) => /^[A-Z_][A-Z0-9_]*=/.test(w)).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]),
);

export interface SpawnOptions {
  /** Reuse a data directory (a restart); a fresh temporary one by default. */
  dataDir?: string;
  env?: Record<string, string>;
  args?: string[];
  /** Options for node itself, before the script (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** Another build of the controller's entry script (a benchmark's baseline); CONTROLLER_BIN by default. */
  bin?: string;
  /**
   * What `start` waits for: `ready` (the default: the controller serves; with etcd, once it
   * leads) or `standby` (with etcd: it stands by, its front answers, or it leads).
   */
  until?: 'ready' | 'standby';
  /** How long to wait for the ready line. */
  readyTimeoutMs?: number;
  /** Told of the process as soon as it is spawned, before it is ready (a controller waiting to lead). */
  onSpawn?: (proc: PlatformProcess) => void;
  /**
   * The gRPC port agents dial. Unless given, the first process binds a port of its choosing
   * (port 0: a port picked here and bound seconds later, once the controller has restored its
   * state, could meanwhile become another connection's), and restarts keep it.
   */
  grpcPort?: number;
  /**
   * The --agent-subnet-pool: by default one claimed for this test process (subnet-slots.ts), so
   * that agents of controllers running side by side never get the same block; restarts keep it.
   */
  agentSubnetPool?: string;
  /**
   * What image pulls may reach although the controller refuses it by default (--allowed-
   * registries): the tests' registries on loopback, e.g. `Registry.address` or `127.0.0.1`
   * (every port but the controller's own). None by default: loopback is refused.
   */
  allowedRegistries?: string[];
  /** The same for log drains and http_metric urls (--allowed-destinations): the tests' rsyslogd. */
  allowedDestinations?: string[];
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A platform binary running as a child process: the JSON log lines of its stdout (a line that
 * is not JSON is kept as `{ msg }`), the lines of its stderr, and its exit.
 */
export class PlatformProcess {
  readonly lines: Record<string, unknown>[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<ExitInfo>;
  /** Told of each stdout line once it is in `lines`. */
  protected onLine: ((line: Record<string, unknown>) => void) | undefined;

  readonly #stdoutLines;

  protected constructor(readonly child: ChildProcess) {
    this.exited = exitAfterOutput(child);
    createInterface({ input: child.stderr! }).on('line', (line) => this.stderr.push(line));
    this.#stdoutLines = createInterface({ input: child.stdout! });
    this.#stdoutLines.on('line', (line) => {
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(line) as Record<string, unknown>;
      } catch {
        parsed = { msg: line };
      }
      this.lines.push(parsed);
      this.onLine?.(parsed);
    });
  }

  /**
   * Stops reading stdout into `lines`: what the process writes from now on is drained unread.
   * For benchmarks, whose load generator runs in this process and must not pay for parsing
   * the log of the server it measures.
   */
  discardOutput(): void {
    this.#stdoutLines.close();
    this.child.stdout!.resume();
  }

  /** SIGTERM, then wait for the exit. */
  async stop(): Promise<ExitInfo> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    return this.exited;
  }

  /** SIGKILL: the process gets no chance to clean up. */
  async kill9(): Promise<ExitInfo> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    return this.exited;
  }
}

const helpTexts = new Map<string, string>();
/** Whether the controller build `bin` takes `flag` (read once from its --help; this build's always does). */
function knowsFlag(bin: string, flag: string): boolean {
  if (bin === CONTROLLER_BIN) return true;
  let help = helpTexts.get(bin);
  if (help === undefined) {
    help = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    helpTexts.set(bin, help);
  }
  return help.includes(flag);
}

export class ControllerProcess extends PlatformProcess {
  private constructor(
    child: ChildProcess,
    readonly dataDir: string,
    /** Whether dispose() removes the data directory (passed on to the process that restart() makes). */
    public ownsDataDir: boolean,
    readonly options: SpawnOptions,
    public url = '',
    public grpcAddress = '',
    /** host:port of the embedded router ('' when it runs none). */
    public routerAddress = '',
    /** host:port of the embedded router's HTTPS listener ('' when none). */
    public routerTlsAddress = '',
  ) {
    super(child);
  }

  static async start(options: SpawnOptions = {}): Promise<ControllerProcess> {
    // The embedded router on a free port unless the test says otherwise (tests run side by side),
    // for a build that has one (a benchmark's baseline may be older). Asked before the data
    // directory is made, so that a build whose --help fails leaves nothing behind.
    const routerFlag = options.args?.includes('--router-listen') || !knowsFlag(options.bin ?? CONTROLLER_BIN, '--router-listen') ? [] : ['--router-listen', '127.0.0.1:0'];
    // A build from before the destination rules (a benchmark's baseline) refuses nothing: it is given no list.
    const allowFlags = (flag: string, list: string[] | undefined) => (list && list.length > 0 && knowsFlag(options.bin ?? CONTROLLER_BIN, flag) ? [flag, list.join(',')] : []);
    const allowed = [...allowFlags('--allowed-registries', options.allowedRegistries), ...allowFlags('--allowed-destinations', options.allowedDestinations)];
    const ownsDataDir = options.dataDir === undefined;
    const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'platform-test-')));
    options = { ...options };
    const poolFlag: string[] = [];
    if (!options.args?.includes('--agent-subnet-pool') && options.env?.['PLATFORM_AGENT_SUBNET_POOL'] === undefined && knowsFlag(options.bin ?? CONTROLLER_BIN, '--agent-subnet-pool')) {
      options.agentSubnetPool ??= claimAgentSubnetPool();
      poolFlag.push('--agent-subnet-pool', options.agentSubnetPool);
    }
    const child = spawn(
      process.execPath,
      [
        ...CONTROLLER_NODE_FLAGS,
        ...(options.nodeArgs ?? []),
        options.bin ?? CONTROLLER_BIN, '--data-dir', dataDir, '--listen', '127.0.0.1:0', '--grpc-listen', `127.0.0.1:${options.grpcPort ?? 0}`,
        ...routerFlag,
        ...allowed,
        ...poolFlag,
        ...(options.args ?? []),
      ],
      {
        env: {
          ...process.env,
          ...CONTROLLER_NODE_ENV,
          PLATFORM_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
          PLATFORM_JOIN_TOKEN: TEST_JOIN_TOKEN,
          PLATFORM_LOG_LEVEL: 'info',
          ...options.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const proc = new ControllerProcess(child, dataDir, ownsDataDir, options);
    options.onSpawn?.(proc);
    let wasReady = false;
    const ready = new Promise<[string, string, string, string]>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          // The last lines say how far it got (a busy machine, or a step that hangs).
          const last = proc.lines.slice(-5).map((l) => `${String(l['time'] ?? '')} ${String(l['msg'] ?? '')}`);
          reject(new Error(`controller not ready within ${options.readyTimeoutMs ?? 30_000} ms (load average ${loadavg()[0]!.toFixed(1)}); last lines:\n${last.join('\n')}\n${proc.stderr.join('\n')}`));
          // A controller that never became ready must not outlive the test (its
          // pipes would keep the test worker from exiting).
          void proc.dispose();
        },
        options.readyTimeoutMs ?? 30_000,
      );
      proc.onLine = (parsed) => {
        if (parsed['msg'] === 'controller ready' || (options.until === 'standby' && parsed['msg'] === 'controller standing by')) {
          wasReady = true;
          clearTimeout(timer);
          const text = (v: unknown) => (typeof v === 'string' ? v : '');
          resolve([String(parsed['api']), String(parsed['grpc']), text(parsed['router']), text(parsed['router_tls'])]);
        }
      };
      void proc.exited.then((e) => {
        clearTimeout(timer);
        // A process that was ready is the caller's, and its exit (kill -9 before a restart) is theirs too.
        if (wasReady) return;
        const err = new Error(`controller exited (${e.code ?? e.signal}) before it was ready\n${proc.stderr.join('\n')}\n${JSON.stringify(proc.lines)}`);
        // The caller gets no process to dispose of: the directory it made goes now.
        void proc.dispose().finally(() => reject(err));
      });
    });
    [proc.url, proc.grpcAddress, proc.routerAddress, proc.routerTlsAddress] = await ready;
    // The port it bound, for restart() (proc.options is this object).
    options.grpcPort ??= Number(proc.grpcAddress.slice(proc.grpcAddress.lastIndexOf(':') + 1));
    return proc;
  }

  /** A client logged in as the bootstrap administrator. */
  admin(): Promise<ApiClient> {
    return ApiClient.login(this.url, 'admin', this.options.env?.['PLATFORM_ADMIN_PASSWORD'] || TEST_ADMIN_PASSWORD);
  }

  /** A new controller process on the same data directory (after this one has exited). */
  async restart(): Promise<ControllerProcess> {
    await this.exited;
    const next = await ControllerProcess.start({ ...this.options, dataDir: this.dataDir });
    // The directory goes with the last process on it: disposing of this one (in whatever order
    // the teardowns run) must not remove it under the next, which would then leave it behind.
    next.ownsDataDir = this.ownsDataDir;
    this.ownsDataDir = false;
    return next;
  }

  /** Stops the process (forcefully if need be) and removes the data directory it made. */
  async dispose(): Promise<void> {
    await this.kill9();
    if (this.ownsDataDir) await rm(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * The exit of `child`, told once what it wrote to its pipes has been read too (the exit can
 * come before the last of its output is read: a test reading stderr at once could miss it). A
 * descendant that keeps a pipe open holds the answer up for at most OUTPUT_AFTER_EXIT_MS.
 */
function exitAfterOutput(child: ChildProcess): Promise<ExitInfo> {
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      const done = () => {
        clearTimeout(timer);
        resolve({ code, signal });
      };
      const timer = setTimeout(done, OUTPUT_AFTER_EXIT_MS);
      const ends = [child.stdout, child.stderr]
        .filter((s) => s !== null && !s.readableEnded && !s.destroyed)
        .map((s) => new Promise<void>((r) => {
          s!.once('end', () => r());
          s!.once('close', () => r());
        }));
      void Promise.all(ends).then(done);
    });
  });
}
const OUTPUT_AFTER_EXIT_MS = 5_000;
