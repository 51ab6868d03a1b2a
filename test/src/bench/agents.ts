/**
 * Agents benchmark (`npm run bench:agents -w test`): how fast a real controller and one real
 * `platform-agent` (default isolation: bubblewrap when it works here) start instances, beside a
 * Node script spawning the same command directly, in one run:
 *
 *   1. PUT that starts a job of N instances (default 50) -> all N RUNNING, against spawning N
 *      `node server.js` processes directly and waiting until each one's port accepts a
 *      connection; the ratio of the two (the aim: the platform within 1.5x of the direct spawn).
 *   2. The agent's resident memory (VmRSS) once connected and idle, and with the N running.
 *   3. p50/p99 of one instance's start (PUT start of a 1-instance job -> RUNNING), repeated, and
 *      the same for one direct spawn (nearest rank: with 30 runs, p99 is the slowest).
 *   4. The CPU each side spent on the N at once: the controller and the agent with everything
 *      they start (instances, network commands, bwrap) in one cgroup v1 `cpuacct` group, the
 *      direct servers in another (cpu-group.ts; n/a where the host has none); the agent's and
 *      the controller's own; and the whole machine's, which counts whatever else runs.
 *
 * Both sides run the same HTTP server (harness/apps.ts HTTP_APP) on a port chosen for it, with
 * stdout/stderr to files, and are observed by polling at the same interval: GET
 * /jobs/{uuid}/instances for the platform, a TCP connect for the direct spawn. The polling
 * interval is therefore in both figures. The direct servers run without isolation and with the
 * environment an instance gets. One unmeasured start of each comes first, so that the
 * package is in the agent's cache and the files the node binary reads are in the page cache.
 *
 * Environment: BENCH_AGENTS_INSTANCES (default 50), BENCH_AGENTS_RUNS (single starts, default
 * 30), BENCH_AGENTS_POLL_MS (polling interval, default 10), BENCH_AGENTS_INSTANCE_NETWORKS=0
 * (--instance-networks=off: instances share the host's network; by default an agent run by root
 * gives each instance a network namespace of its own), BENCH_AGENTS_LOG (a file the agent's log
 * lines are written to at the end), BENCH_AGENTS_NETWORK_POOL (--network-pool: namespaces made
 * ahead; default the agent's), BENCH_AGENTS_CPU_PROF (a directory: the agent runs with node's
 * --cpu-prof and writes its profile there when it stops; the span of the N starts in the
 * profile's clock, monotonic microseconds, is printed on stderr).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from '@platform/controller';
import { AgentProcess } from '../harness/agent-process.js';
import { agentPrefixes } from '../harness/leftovers.js';
import { HTTP_APP, httpAppArchive, httpAppJob, uploadPackage } from '../harness/apps.js';
import { instancesOf, type ApiInstance } from '../harness/cluster.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { freePorts } from '../harness/net.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { eventually } from '../harness/wait.js';
import { CpuGroup } from './cpu-group.js';
import { envCount } from './env.js';

const INSTANCES = envCount('BENCH_AGENTS_INSTANCES', 50);
const RUNS = envCount('BENCH_AGENTS_RUNS', 30);
const POLL_MS = envCount('BENCH_AGENTS_POLL_MS', 10);
const GOAL_RATIO = 1.5;
const INSTANCE_NETWORKS = process.env['BENCH_AGENTS_INSTANCE_NETWORKS'] !== '0';
const AGENT_LOG = process.env['BENCH_AGENTS_LOG'];
const NETWORK_POOL = process.env['BENCH_AGENTS_NETWORK_POOL'];
const CPU_PROF = process.env['BENCH_AGENTS_CPU_PROF'];
const MiB = 1024 * 1024;
/** Deadlines only guard against a hang; a busy 2-core machine needs far less. */
const MANY_TIMEOUT_MS = 180_000;
const ONE_TIMEOUT_MS = 60_000;

function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Nearest-rank percentile (p in 0..100) of a non-empty sample. */
function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const ms = (x: number) => `${x.toFixed(0)} ms`;

/** CPU time a process used so far (user + system, its own: not its children's), in ms. */
async function cpuMsOf(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * CPU time the whole machine spent so far (every process and the kernel: user, nice, system,
 * irq, softirq, steal; not idle nor iowait), in ms: over a burst, what it cost all told,
 * the network commands' processes, bwrap and the kernel's namespace work included.
 */
async function machineCpuMs(): Promise<number> {
  const fields = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return ((user + nice + system + irq + softirq + steal) * 1000) / 100;
}

/** VmRSS of a process, in bytes. */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!m) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(m[1]) * 1024;
}

// ---------------------------------------------------------------- the platform side

interface Manager {
  uuid: string;
  isolation: string;
  cgroups: boolean;
  system_tags: string[];
}

function describe(instances: ApiInstance[]): string {
  const counts: Record<string, number> = {};
  for (const i of instances) counts[i.state] = (counts[i.state] ?? 0) + 1;
  const failed = instances.find((i) => i.failed && i.reason);
  return `${JSON.stringify(counts)}${failed ? `; a failure: ${failed.reason}` : ''}`;
}

/**
 * PUTs the job started and polls its instances every POLL_MS until `count` are RUNNING and no
 * other is live; answers the milliseconds from just before the PUT. A failed instance aborts:
 * the figure would mean nothing.
 */
async function timedStart(api: ApiClient, jobUuid: string, count: number, timeoutMs: number): Promise<number> {
  const job = (await api.get<Job>(`/jobs/${jobUuid}`)).body;
  const before = new Set((await instancesOf(api, jobUuid)).map((i) => i.uuid));
  const t0 = performance.now();
  const put = await api.put(`/jobs/${jobUuid}`, { ...job, state: 'started' });
  if (put.status !== 200) throw new Error(`PUT start: ${put.status} ${put.text}`);
  for (;;) {
    const all = await instancesOf(api, jobUuid);
    const live = all.filter((i) => i.state !== 'REMOVED');
    if (live.length === count && live.every((i) => i.state === 'RUNNING')) return performance.now() - t0;
    const failed = all.find((i) => i.failed && !before.has(i.uuid));
    if (failed) throw new Error(`instance ${failed.uuid} failed to start: ${failed.reason ?? ''} (${describe(all)})`);
    if (performance.now() - t0 > timeoutMs) throw new Error(`not ${count} RUNNING within ${timeoutMs} ms: ${describe(all)}`);
    await pause(POLL_MS);
  }
}

/** PUTs the job stopped and waits until every instance is REMOVED (not measured). */
async function stopJob(api: ApiClient, jobUuid: string): Promise<void> {
  const job = (await api.get<Job>(`/jobs/${jobUuid}`)).body;
  const put = await api.put(`/jobs/${jobUuid}`, { ...job, state: 'stopped' });
  if (put.status !== 200) throw new Error(`PUT stop: ${put.status} ${put.text}`);
  await eventually(async () => (await instancesOf(api, jobUuid)).every((i) => i.state === 'REMOVED'), {
    timeoutMs: MANY_TIMEOUT_MS,
    what: `every instance of job ${jobUuid} REMOVED`,
  });
}

// ---------------------------------------------------------------- where the agent's time goes

/** Median of a non-empty sample. */
const median = (xs: number[]) => percentile(xs, 50);

/**
 * From the agent's log lines since `from` (index into its lines): when its StartInstances
 * arrived (first and last, ms after `putAtMs`, wall clock), and the median of each phase of
 * its starts ("instance running": setup steps, spawn, wait for the ports).
 */
function agentPhases(lines: readonly Record<string, unknown>[], from: number, putAtMs: number): string {
  const mine = lines.slice(from);
  const arrived = mine.filter((l) => l['msg'] === 'instance starting').map((l) => Date.parse(String(l['time'])) - putAtMs);
  const running = mine.filter((l) => l['msg'] === 'instance running').map((l) => l['start_ms'] as Record<string, number | Record<string, number>>);
  if (running.length === 0) return '    (no "instance running" lines in the agent\'s log)';
  const phases = new Map<string, number[]>();
  for (const r of running) {
    for (const [k, v] of Object.entries(r)) {
      if (typeof v === 'number') phases.set(k, [...(phases.get(k) ?? []), v]);
      else for (const [step, ms] of Object.entries(v)) phases.set(`  ${step}`, [...(phases.get(`  ${step}`) ?? []), ms]);
    }
  }
  const order = ['setup', ...[...phases.keys()].filter((k) => k.startsWith('  ')), 'spawn', 'ready', 'total'];
  const arrival = arrived.length > 0 && !Number.isNaN(putAtMs) ? `    StartInstance received ${ms(Math.min(...arrived))} .. ${ms(Math.max(...arrived))} after the PUT\n` : '';
  return arrival + order.filter((k) => phases.has(k)).map((k) => `    ${k.padEnd(14)} median ${ms(median(phases.get(k)!))}  max ${ms(Math.max(...phases.get(k)!))}`).join('\n');
}

// ---------------------------------------------------------------- the direct side

/**
 * The environment of the direct servers: what an instance gets from the agent (agent/src/runner/
 * env.ts: the usual system PATH, HOME, PORT), not this script's. Node reads some variables at
 * start-up (NODE_EXTRA_CA_CERTS, NODE_OPTIONS) that can cost each process tens of ms, which the
 * platform's instances never pay.
 */
const DIRECT_ENV = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: tmpdir() };

class DirectSpawner {
  readonly children = new Set<ChildProcess>();
  private n = 0;

  constructor(
    private readonly server: string,
    private readonly logDir: string,
  ) {}

  /**
   * Spawns `count` servers at once (each on a port found free just before, output to a file,
   * as the agent does) and polls each port every POLL_MS until it accepts a connection; answers
   * the milliseconds from the first spawn to the last one ready.
   */
  async startAll(count: number, timeoutMs: number, group?: CpuGroup): Promise<number> {
    const t0 = performance.now();
    // Ports first, all at once, then the spawns in one synchronous burst: the fastest a script
    // can do it (awaiting each port between spawns lets the starting servers delay the loop).
    const ports = await freePorts(count);
    const ready: Promise<void>[] = [];
    // The servers are counted in `group` from their start (this process is, only while it spawns them).
    group?.join();
    for (const port of ports) {
      const log = openSync(join(this.logDir, `direct-${this.n++}.log`), 'a');
      try {
        const child = spawn('node', [this.server], { env: { ...DIRECT_ENV, PORT: String(port) }, stdio: ['ignore', log, log] });
        this.children.add(child);
        child.once('exit', () => this.children.delete(child));
        ready.push(this.awaitPort(child, port, t0 + timeoutMs));
      } finally {
        closeSync(log);
      }
    }
    group?.leave();
    await Promise.all(ready);
    return performance.now() - t0;
  }

  private async awaitPort(child: ChildProcess, port: number, deadline: number): Promise<void> {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`direct server on ${port} exited (${child.exitCode ?? child.signalCode})`);
      if (await accepts(port)) return;
      if (performance.now() > deadline) throw new Error(`direct server did not listen on ${port} in time`);
      await pause(POLL_MS);
    }
  }

  /** SIGTERM (the app's graceful stop) to all, waiting for their exits; SIGKILL with `force`. */
  async stopAll(force = false): Promise<void> {
    const exits = [...this.children].map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill(force ? 'SIGKILL' : 'SIGTERM');
        }),
    );
    await Promise.all(exits);
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

// ---------------------------------------------------------------- the run

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-agents-'));
  await mkdir(join(work, 'app'));
  const server = join(work, 'app', 'server.js');
  await writeFile(server, HTTP_APP);
  const direct = new DirectSpawner(server, work);
  let controller: ControllerProcess | undefined;
  let agent: AgentProcess | undefined;
  // The CPU each side spent, whatever else the machine does: the controller and the agent with
  // everything they start (instances, network commands, bwrap), and the direct servers.
  const platformGroup = CpuGroup.open('bench-agents-platform');
  const directGroup = platformGroup && CpuGroup.open('bench-agents-direct');
  let cleaning: Promise<void> | undefined;
  // The agent's instances are detached (their own sessions): a Ctrl-C reaches the agent but
  // not them, so an interrupted run cleans up as a finished one does.
  const cleanup = () =>
    (cleaning ??= (async () => {
      await direct.stopAll(true);
      if (AGENT_LOG && agent) await writeFile(AGENT_LOG, agent.lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      await agent?.dispose();
      await controller?.dispose();
      platformGroup?.close();
      directGroup?.close();
      await rm(work, { recursive: true, force: true });
    })());
  const interrupted = (signal: NodeJS.Signals) => {
    progress(`${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    progress('starting a controller and one agent (default isolation)');
    controller = await ControllerProcess.start();
    const api = await controller.admin();
    agent = await AgentProcess.start(controller, api, { ...(CPU_PROF ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] } : {}), args: [INSTANCE_NETWORKS ? '--instance-networks' : '--instance-networks=off', '--stop-instances-on-exit', ...(NETWORK_POOL !== undefined ? [`--network-pool=${NETWORK_POOL}`] : [])] });
    platformGroup?.add(controller.child.pid!);
    platformGroup?.add(agent.child.pid!);
    const manager = (await api.get<Manager>(`/instance_managers/${agent.uuid}`)).body;
    const agentPid = agent.child.pid!;
    const idleRss = await rssOf(agentPid);

    const ns = `/bench/${unique()}`;
    const pkg = await uploadPackage(api, ns, httpAppArchive());
    // Small, so that N fit on one modest host. Under a cgroup limit the server (about 44 MiB
    // RSS, much of it the node binary's file pages) gets 64 MiB, so that the kernel does not
    // reclaim those pages during the start being measured.
    const resources = { memory: (manager.cgroups ? 64 : 32) * MiB, disk: 16 * MiB };
    const single = (await api.post<Job>('/jobs', httpAppJob(`job::${ns}::one`, pkg.uuid, { resources }))).body;
    const many = (await api.post<Job>('/jobs', httpAppJob(`job::${ns}::many`, pkg.uuid, { num_instances: INSTANCES, resources }))).body;
    if (!single.uuid || !many.uuid) throw new Error('job creation failed');

    progress('warm-up: one unmeasured start of each');
    await timedStart(api, single.uuid, 1, ONE_TIMEOUT_MS);
    await stopJob(api, single.uuid);
    await direct.startAll(1, ONE_TIMEOUT_MS);
    await direct.stopAll();

    if (NETWORK_POOL !== undefined && INSTANCE_NETWORKS) {
      // A pool is filled between starts: the burst begins with it full, as it would after a quiet spell.
      const size = Number(NETWORK_POOL);
      const prefix = `${agentPrefixes(agent.uuid).netns}pool-`;
      const pooled = async () => (await readdir('/run/netns').catch(() => [] as string[])).filter((n) => n.startsWith(prefix)).length;
      await eventually(async () => ((await pooled()) >= size ? true : undefined), { timeoutMs: MANY_TIMEOUT_MS, what: `the agent's pool of ${size} namespaces` });
    }
    progress(`${INSTANCES} instances on the agent`);
    let mark = agent.lines.length;
    const manyAt = Date.now();
    const cpuBefore = await cpuMsOf(agentPid);
    const controllerCpuBefore = await cpuMsOf(controller.child.pid!);
    const machineBefore = await machineCpuMs();
    const platformCpuBefore = platformGroup?.usageMs();
    const manyFrom = process.hrtime.bigint();
    const platformMany = await timedStart(api, many.uuid, INSTANCES, MANY_TIMEOUT_MS);
    const machinePlatform = (await machineCpuMs()) - machineBefore;
    const platformCpu = platformGroup ? platformGroup.usageMs() - platformCpuBefore! : undefined;
    const agentCpu = (await cpuMsOf(agentPid)) - cpuBefore;
    const controllerCpu = (await cpuMsOf(controller.child.pid!)) - controllerCpuBefore;
    if (CPU_PROF) progress(`the ${INSTANCES} starts in the agent's CPU profile (monotonic µs): ${manyFrom / 1000n} .. ${process.hrtime.bigint() / 1000n}`);
    const manyPhases = agentPhases(agent.lines, mark, manyAt);
    const busyRss = await rssOf(agentPid);
    await stopJob(api, many.uuid);
    progress(`${INSTANCES} direct spawns`);
    const machineDirectBefore = await machineCpuMs();
    const directCpuBefore = directGroup?.usageMs();
    const directMany = await direct.startAll(INSTANCES, MANY_TIMEOUT_MS, directGroup);
    const machineDirect = (await machineCpuMs()) - machineDirectBefore;
    const directCpu = directGroup ? directGroup.usageMs() - directCpuBefore! : undefined;
    await direct.stopAll();

    progress(`${RUNS} single starts of each, alternating`);
    const platformOne: number[] = [];
    const directOne: number[] = [];
    mark = agent.lines.length;
    for (let i = 0; i < RUNS; i++) {
      platformOne.push(await timedStart(api, single.uuid, 1, ONE_TIMEOUT_MS));
      await stopJob(api, single.uuid);
      directOne.push(await direct.startAll(1, ONE_TIMEOUT_MS));
      await direct.stopAll();
    }

    const onePhases = agentPhases(agent.lines, mark, Number.NaN);
    const ratio = platformMany / directMany;
    const oneP50 = percentile(platformOne, 50);
    const directP50 = percentile(directOne, 50);
    process.stdout.write(
      `agent instance starts (${cpus().length} cores, isolation ${manager.isolation}, cgroups ${manager.cgroups ? 'on' : 'off'}, instance networks ${INSTANCE_NETWORKS ? `on, network pool ${NETWORK_POOL ?? 'default'}` : 'off'}, ` +
        `polling every ${POLL_MS} ms, resources per instance: memory ${resources.memory / MiB} MiB, disk ${resources.disk / MiB} MiB)\n` +
        `  ${INSTANCES} instances, PUT start -> all RUNNING      ${ms(platformMany)}\n` +
        `  ${INSTANCES} direct spawns -> all ports accept      ${ms(directMany)}\n` +
        `  CPU time meanwhile of the agent process itself ${ms(agentCpu)}, of the controller process ${ms(controllerCpu)}\n` +
        `  CPU spent: the controller and the agent with all they started ${platformCpu === undefined ? `n/a (${CpuGroup.unavailable})` : ms(platformCpu)}, ` +
        `the direct servers ${directCpu === undefined ? 'n/a' : ms(directCpu)}; the whole machine (whatever else runs) ${ms(machinePlatform)} and ${ms(machineDirect)}\n` +
        `  where the agent's time went, per instance (${INSTANCES} at once):\n${manyPhases}\n` +
        `  ratio  ${ratio.toFixed(2)}x  (aim: within ${GOAL_RATIO}x: ${ratio <= GOAL_RATIO ? 'met' : 'NOT met'})\n` +
        `  agent RSS: idle ${(idleRss / MiB).toFixed(1)} MiB, with ${INSTANCES} running ${(busyRss / MiB).toFixed(1)} MiB\n` +
        `  one instance, PUT start -> RUNNING (${RUNS} runs)  p50 ${ms(oneP50)}  p99 ${ms(percentile(platformOne, 99))}` +
        `  (min ${ms(Math.min(...platformOne))})\n` +
        `  one direct spawn -> port accepts (${RUNS} runs)    p50 ${ms(directP50)}  p99 ${ms(percentile(directOne, 99))}` +
        `  (min ${ms(Math.min(...directOne))})\n` +
        `  one-instance ratio (p50)  ${(oneP50 / directP50).toFixed(2)}x\n` +
        `  where the agent's time went, per instance (one at a time):\n${onePhases}\n`,
    );
  } finally {
    await cleanup();
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}

await main();
