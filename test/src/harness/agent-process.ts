/**
 * Runs the real `platform-agent` binary as a child process against a test controller, with
 * its own data directory, the way an operator would on a host.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PlatformProcess, TEST_JOIN_TOKEN, type ControllerProcess, type ExitInfo } from './controller-process.js';
import type { ApiClient } from './http.js';
import { unique } from './fixtures.js';
import { removeAgentLeftovers } from './leftovers.js';
import { eventually } from './wait.js';

/** The binary an operator runs: the agent package's `platform-agent` bin. */
export const AGENT_BIN = join(dirname(fileURLToPath(import.meta.resolve('@platform/agent'))), 'bin', 'platform-agent.js');

let agentsStarted = 0;

/**
 * A uid range of its own for each agent a test starts (agents on one host must not share one):
 * 1000 uids, by test process and agent, within 2000000000-2099999999.
 */
export function testInstanceUids(): string {
  const first = 2_000_000_000 + (((process.pid % 1000) * 100 + (agentsStarted++ % 100)) * 1000);
  return `${first}-${first + 999}`;
}

/** True when bubblewrap can make namespaces here. */
export function bwrapWorks(): boolean {
  const r = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', 'true'], { stdio: 'ignore' });
  return r.status === 0;
}

export interface AgentOptions {
  /** Another build of the agent's entry script; AGENT_BIN by default. */
  bin?: string;
  tags?: string[];
  isolation?: 'bwrap' | 'process';
  /** Reuse a data directory (a restart). */
  dataDir?: string;
  env?: Record<string, string>;
  args?: string[];
  /** Options of node itself, before the agent's script (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** A command the agent runs under, e.g. `nsenter --net=/run/netns/x --` (its own network namespace). */
  prefix?: string[];
  /** What its log drains may reach although loopback (--allowed-destinations): the tests' rsyslogd. */
  allowedDestinations?: string[];
  /**
   * Leave its instances running when it stops, as the agent does by default (for the tests of
   * that). Without it, the harness starts the agent with --stop-instances-on-exit, so that
   * disposing of it checks that it left nothing of its own on the host.
   */
  keepInstancesOnExit?: boolean;
}

/** The agent's arguments: the options' own, and --stop-instances-on-exit unless the options keep the instances or name the flag already. */
export function agentArgs(options: AgentOptions): string[] {
  const args = options.args ?? [];
  const named = args.some((a) => a === '--stop-instances-on-exit' || a.startsWith('--stop-instances-on-exit='));
  return options.keepInstancesOnExit || named ? args : [...args, '--stop-instances-on-exit'];
}

/** Whether an agent started with `options` stops its instances when it stops gracefully. */
export function stopsInstancesOnExit(options: AgentOptions): boolean {
  return agentArgs(options).includes('--stop-instances-on-exit');
}

export interface InstanceManager {
  uuid: string;
  hostname: string;
  datacenter: string;
  tags: string[];
  status: string;
  num_instances: number;
}

export class AgentProcess extends PlatformProcess {
  uuid = '';

  private constructor(
    child: ChildProcess,
    readonly controller: Pick<ControllerProcess, 'grpcAddress'>,
    readonly dataDir: string,
    /** Removes the data directory when disposed of; passed on to the process that `restart` makes. */
    public ownsDataDir: boolean,
    readonly options: AgentOptions,
    /** A datacenter name unique to this agent, by which the tests find it in the API. */
    readonly datacenter: string,
  ) {
    super(child);
  }

  /** Starts an agent and waits until the controller lists it as connected. */
  static async start(controller: Pick<ControllerProcess, 'grpcAddress'>, api: ApiClient, options: AgentOptions = {}, datacenter = unique('dc')): Promise<AgentProcess> {
    const ownsDataDir = options.dataDir === undefined;
    const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'platform-agent-test-')));
    const args = [
      ...(options.nodeArgs ?? []),
      options.bin ?? AGENT_BIN,
      '--controller', controller.grpcAddress,
      '--data-dir', dataDir,
      '--datacenter', datacenter,
      ...(options.tags && options.tags.length > 0 ? ['--tags', options.tags.join(',')] : []),
      ...(options.isolation ? ['--isolation', options.isolation] : []),
      ...(options.allowedDestinations && options.allowedDestinations.length > 0 ? ['--allowed-destinations', options.allowedDestinations.join(',')] : []),
      ...agentArgs(options),
    ];
    const prefix = options.prefix ?? [];
    const child = spawn(prefix[0] ?? process.execPath, prefix.length > 0 ? [...prefix.slice(1), process.execPath, ...args] : args, {
      env: { ...process.env, PLATFORM_JOIN_TOKEN: TEST_JOIN_TOKEN, PLATFORM_LOG_LEVEL: 'info', PLATFORM_AGENT_INSTANCE_UIDS: testInstanceUids(), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc = new AgentProcess(child, controller, dataDir, ownsDataDir, options, datacenter);
    const manager = await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`agent exited with ${child.exitCode}: ${proc.stderr.join('\n')}`);
        const list = (await api.get<InstanceManager[]>('/instance_managers')).body;
        return list.find((m) => m.datacenter === datacenter && m.status === 'connected');
      },
      { timeoutMs: 30_000, what: `agent ${datacenter} connected` },
    ).catch(async (err: Error) => {
      // The caller gets no process to dispose of: it goes now, and with a directory made here,
      // what it started there (a directory the caller gave stays the caller's, with its instances).
      await proc.kill9();
      if (ownsDataDir) await proc.dispose().catch(() => undefined);
      throw new Error(`${err.message}\nagent stdout: ${JSON.stringify(proc.lines.slice(-20))}\nagent stderr: ${proc.stderr.join('\n')}`);
    });
    proc.uuid = manager.uuid;
    return proc;
  }

  /**
   * A new agent process on the same data directory (after this one has exited). The new one
   * takes over the removal of the directory: a test that keeps only it (in place of this one)
   * leaves nothing behind, and disposing of this one does not pull the directory from under it.
   * `overrides`: whether the new one keeps its instances when it stops (the same as this one's by default).
   */
  async restart(api: ApiClient, overrides: Pick<AgentOptions, 'keepInstancesOnExit'> = {}): Promise<AgentProcess> {
    await this.exited;
    const again = await AgentProcess.start(this.controller, api, { ...this.options, ...overrides, dataDir: this.dataDir }, this.datacenter);
    again.ownsDataDir = this.ownsDataDir;
    this.ownsDataDir = false;
    return again;
  }

  /** Whether the last thing done to this process was a SIGKILL (it could clean up nothing). */
  #killed = false;

  override async kill9(): Promise<ExitInfo> {
    this.#killed = true;
    return super.kill9();
  }

  /**
   * Stops the agent, then kills whatever instance processes it left running (an agent keeps
   * its instances running across its own stop, by design), removes what they held on the host
   * (namespaces, interfaces, nft tables of the agent's name prefixes: leftovers.ts) and its data
   * directory. Throws, naming them, when an agent that stops its instances on exit (every agent
   * the harness starts, but for keepInstancesOnExit) stopped gracefully and left any of those
   * behind: namespaces, their mounts, links or nft tables.
   */
  async dispose(): Promise<void> {
    const exit = await this.stop();
    // A restarted process on the same directory runs its instances there: they are its own to end.
    if (!this.ownsDataDir && this.options.dataDir === undefined) return;
    await killProcessesUnder(this.dataDir);
    const left = removeAgentLeftovers(this.uuid, this.options.prefix);
    if (this.ownsDataDir) await rm(this.dataDir, { recursive: true, force: true }).catch(() => undefined);
    const cleansUp = stopsInstancesOnExit(this.options) && !this.#killed && exit.code === 0;
    if (cleansUp && left.length > 0) throw new Error(`agent ${this.uuid} stopped its instances and left on the host: ${left.join(', ')}`);
  }
}

/** The processes (pid and command line) whose command line or working directory names `dir`. */
export async function processesUnder(dir: string): Promise<{ pid: number; cmdline: string }[]> {
  const found: { pid: number; cmdline: string }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const [cmdline, cwd] = await Promise.all([
      readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => ''),
      readlink(`/proc/${entry}/cwd`).catch(() => ''),
    ]);
    if (cmdline.includes(dir) || cwd.startsWith(dir)) found.push({ pid: Number(entry), cmdline: cmdline.replaceAll('\0', ' ').trim() });
  }
  return found;
}

/**
 * SIGKILLs every process whose command line or working directory names `dir`, pass after pass
 * until a pass finds none, and another 100 ms later none either: a process may start one after the pass listed /proc (a bwrap making
 * its sandbox's init as it is killed: that init, whose parent the pass killed, would live on
 * with the application under it). Throws, naming them, when some still run after `timeoutMs`.
 * Answers how many it killed.
 */
export async function killProcessesUnder(dir: string, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let killed = 0;
  // Nothing found right after kills is looked at once more a moment later: a parent outside the
  // directory (a supervisor, an agent) may be starting the next one just then.
  let settling = false;
  for (;;) {
    const found = await processesUnder(dir);
    if (found.length === 0) {
      if (killed === 0 || settling) return killed;
      settling = true;
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    settling = false;
    if (Date.now() > deadline) {
      throw new Error(`processes under ${dir} still run after ${timeoutMs} ms of SIGKILLs: ${found.map((p) => `${p.pid} ${p.cmdline.slice(0, 200)}`).join('; ')}`);
    }
    for (const { pid } of found) {
      try {
        process.kill(pid, 'SIGKILL');
        killed++;
      } catch {
        // gone already
      }
    }
    // What was killed leaves /proc once its parent reaps it: look again shortly.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
