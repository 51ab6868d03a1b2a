/**
 * Scale benchmark (`npm run bench:scale`): one controller process against a fleet of simulated
 * agents (test/src/simulator: real gRPC sessions, no processes), in one run, for each store in
 * BENCH_STORES:
 *
 *   1. the agents register (Hello/Welcome over a connection each);
 *   2. placement: jobs of BENCH_SCALE_PER_JOB instances each are POSTed started until the fleet
 *      has been asked for every instance, and every one is RUNNING (as the agents report, then
 *      confirmed by GET /jobs/health); placements per second is instances over the time from the
 *      first POST to the last StartInstance received;
 *   3. meanwhile a separate process (scale-load.ts) GETs and PUTs (a tag changed) other jobs
 *      one request at a time: p50/p99 of each during that churn;
 *   4. an agent's host dies (its stream cut, no reconnect): the time from then until each of its
 *      instances is RUNNING on another agent, with the controller's default timings;
 *   5. POST /jobs from 64 connections (autocannon, in scale-load.ts) until the controller holds
 *      BENCH_SCALE_JOBS jobs: requests per second;
 *   6. the controller's resident memory (VmRSS) then;
 *   7. a restart (SIGTERM, then a new process on the same data directory): the time to its ready
 *      line and to the first GET of a job answered; then until every agent is back and every
 *      instance RUNNING in the controller's view.
 *
 * Each figure is printed beside its anchor or aim. These are benchmark aims, not assertions.
 *
 * Stores (BENCH_STORES, comma-separated, default `rocksdb,etcd`: both, side by side): `rocksdb` (the data directory);
 * `etcd` (a single-member etcd started here on loopback, as the controller's tests start it) or
 * `etcd://host:port` (one running, with this environment's PLATFORM_ETCD_* settings): passed to
 * the controller as `--store <url>`. A store that cannot be measured here is said so in the output.
 *
 * Environment: BENCH_SCALE=small (50 agents, 2,000 instances, 2,000 jobs: under a minute) or
 * full (the default: 1,000 agents, 100,000 instances, 100,000 jobs); BENCH_SCALE_AGENTS,
 * BENCH_SCALE_INSTANCES, BENCH_SCALE_PER_JOB, BENCH_SCALE_JOBS override the size's;
 * BENCH_SCALE_TIMEOUT_S bounds the placement phase (default 1800: a run that has not placed
 * everything by then prints the rate so far); BENCH_PROFILE_DIR: the controller runs with
 * --cpu-prof, its profiles written there at its exits; BENCH_CONTROLLER_NODE_ARGS: more options
 * for the controller's node (space-separated, e.g. `--heap-prof --heap-prof-dir=/tmp/heap`);
 * BENCH_HEAPSNAPSHOT_DIR: the controller writes a heap snapshot there (V8's, for Chrome's
 * DevTools) once every instance runs and once the jobs are posted, just before their memory is
 * read (a snapshot collects and compacts garbage first, and the C allocator keeps the memory its
 * writer used, 100 MB and more at this size: the RSS printed after one is not comparable);
 * BENCH_CONTROLLER_LOG: the controller's log (its stdout and stderr, each process's, restarts
 * included) is appended to that file, for the cause of an internal error (500) it answered.
 *
 * A POST /jobs answered 503 with `retry` (etcd busy past the controller's deadline) is sent again
 * after the `try_again_in_ms` it names, as a deploy tool would; the run counts them. Any other
 * failure stops the run.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync, statSync, type WriteStream } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Job } from '@platform/controller';
import { etcdAvailable, startEtcd } from '@platform/controller/testing';
import { httpAppArchive, httpAppJob, uploadPackage } from '../harness/apps.js';
import { CONTROLLER_BIN, ControllerProcess, TEST_JOIN_TOKEN } from '../harness/controller-process.js';
import type { ApiClient } from '../harness/http.js';
import { eventually } from '../harness/wait.js';
import { AgentSimulator } from '../simulator/simulator.js';
import { envCount } from './env.js';
import { percentile } from './load-generator.js';
import type { LoadReport, LoadTask } from './scale-load.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const LOAD = join(HERE, 'scale-load.js');

const SIZES = {
  small: { agents: 50, instances: 2_000, perJob: 20, jobs: 2_000 },
  full: { agents: 1_000, instances: 100_000, perJob: 100, jobs: 100_000 },
} as const;
const SIZE_NAME = process.env['BENCH_SCALE'] || 'full';
if (!(SIZE_NAME in SIZES)) throw new Error(`BENCH_SCALE="${SIZE_NAME}" is neither small nor full`);
const SIZE = SIZES[SIZE_NAME as keyof typeof SIZES];
const AGENTS = envCount('BENCH_SCALE_AGENTS', SIZE.agents);
const PER_JOB = envCount('BENCH_SCALE_PER_JOB', SIZE.perJob);
const INSTANCES = Math.ceil(envCount('BENCH_SCALE_INSTANCES', SIZE.instances) / PER_JOB) * PER_JOB;
const JOBS = envCount('BENCH_SCALE_JOBS', SIZE.jobs);
const TIMEOUT_MS = envCount('BENCH_SCALE_TIMEOUT_S', 1800) * 1000;
const PROFILE_DIR = process.env['BENCH_PROFILE_DIR'] || undefined;
const NODE_ARGS = (process.env['BENCH_CONTROLLER_NODE_ARGS'] ?? '').split(' ').filter((a) => a !== '');
const HEAPSNAPSHOT_DIR = process.env['BENCH_HEAPSNAPSHOT_DIR'] || undefined;
const CONTROLLER_LOG = process.env['BENCH_CONTROLLER_LOG'] || undefined;
const STORES = (process.env['BENCH_STORES'] || 'rocksdb,etcd').split(',').map((s) => s.trim()).filter((s) => s !== '');

/** Jobs the GET/PUT probe works on (stopped: the probe's PUTs start nothing). */
const PROBE_JOBS = 20;
/** POSTs of the started jobs at once (a deploy tool's parallelism, not a load test). */
const START_CONCURRENCY = 8;
const POST_CONNECTIONS = 64;
/** The controller's defaults (docs/operators.md, "Heartbeats and lost agents"). */
const HEARTBEAT_MS = 2_000;
const LOST_AFTER_MS = 10_000;

const MB = 1e6;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const secs = (ms: number) => `${fmt(ms / 1000, 1)} s`;
const msText = (ms: number) => `${fmt(ms, ms < 10 ? 1 : 0)} ms`;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

function progress(line: string): void {
  process.stderr.write(`[scale ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

function rssBytes(pid: number): number {
  const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}

/** CPU time (user + system, ms) a process has used. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

interface Memory {
  /** The longest event-loop delay since the previous scrape (ms). */
  lagMaxMs: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

/** The controller's memory: VmRSS, and the V8 heap and external memory from its /metrics. */
async function memoryOf(controller: ControllerProcess): Promise<Memory> {
  const rss = rssBytes(controller.child.pid!);
  const text = await (await fetch(`${controller.url}/metrics`)).text();
  const metric = (name: string) => Number(new RegExp(`^platform_controller_nodejs_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return { lagMaxMs: metric('eventloop_lag_max_seconds') * 1000, rss, heapUsed: metric('heap_size_used_bytes'), heapTotal: metric('heap_size_total_bytes'), external: metric('external_memory_bytes') };
}

/** With BENCH_HEAPSNAPSHOT_DIR: the controller writes a heap snapshot (SIGUSR2); resolves once it is written. */
async function heapSnapshot(controller: ControllerProcess, what: string): Promise<void> {
  if (!HEAPSNAPSHOT_DIR) return;
  const snapshots = () => readdirSync(HEAPSNAPSHOT_DIR).filter((f) => f.endsWith('.heapsnapshot'));
  const before = new Set(snapshots());
  controller.child.kill('SIGUSR2');
  let last = -1;
  await eventually(
    async () => {
      const file = snapshots().find((f) => !before.has(f));
      if (!file) return false;
      // Written when its size stops changing (V8 writes it in chunks, the process blocked meanwhile).
      const size = statSync(join(HEAPSNAPSHOT_DIR, file)).size;
      const done = size > 0 && size === last;
      last = size;
      if (done) progress(`heap snapshot ${what}: ${join(HEAPSNAPSHOT_DIR, file)}`);
      return done;
    },
    { timeoutMs: 600_000, intervalMs: 1_000, what: `a heap snapshot ${what}` },
  );
}

/** ` (dropped: N reason, ...)` when sessions ended without the agents asking. */
function dropText(sim: AgentSimulator): string {
  const drops = [...sim.drops()].map(([why, n]) => `${n} "${why}"`);
  return drops.length ? ` (sessions ended: ${drops.join(', ')})` : '';
}

const memoryText = (m: Memory) =>
  `RSS ${fmt(m.rss / MB)} MB (V8 heap ${fmt(m.heapUsed / MB)} MB used of ${fmt(m.heapTotal / MB)}, external ${fmt(m.external / MB)})`;

// ---------------------------------------------------------------- stores

interface StoreUnderTest {
  /** As given in BENCH_STORES. */
  name: string;
  /** Why it cannot be measured here; undefined when it can. */
  unavailable?: string;
  /** The controller's arguments and environment that select it. */
  args: string[];
  env: Record<string, string>;
  /** The process of a store server started here (its RSS is printed too). */
  serverPid?: number;
  dispose(): Promise<void>;
}

let controllerHelp: string | undefined;
function controllerTakes(flag: string): boolean {
  controllerHelp ??= execFileSync(process.execPath, [CONTROLLER_BIN, '--help'], { encoding: 'utf8' });
  return controllerHelp.includes(flag);
}

/**
 * `rocksdb`: the data directory; `etcd`: a single-member etcd started here on loopback (with its
 * authentication on, as the controller's tests run it); `etcd://host:port`: one already running,
 * with the PLATFORM_ETCD_* settings of this environment.
 */
async function prepareStore(name: string): Promise<StoreUnderTest> {
  const none = async () => undefined;
  const unavailable = (why: string): StoreUnderTest => ({ name, args: [], env: {}, dispose: none, unavailable: why });
  if (name === 'rocksdb') return { name, args: [], env: {}, dispose: none };
  if (name === 'etcd' || name.startsWith('etcd://') || name.startsWith('etcds://')) {
    if (!controllerTakes('--store')) return unavailable('this controller build has no --store option');
    if (name !== 'etcd') return { name, args: ['--store', name], env: {}, dispose: none };
    if (!etcdAvailable()) return unavailable('etcd is not installed (apt-get install etcd-server)');
    const etcd = await startEtcd();
    return {
      name,
      args: ['--store', `etcd://${etcd.endpoint}`],
      env: { PLATFORM_ETCD_USER: etcd.auth.username, PLATFORM_ETCD_PASSWORD: etcd.auth.password },
      serverPid: etcd.pid,
      dispose: () => etcd.stop(),
    };
  }
  return unavailable('not a store this benchmark knows (rocksdb, etcd, etcd://host:port)');
}

// ---------------------------------------------------------------- load processes

function runLoad(task: LoadTask): { report: Promise<LoadReport>; stop: () => void; child: ChildProcess } {
  const child = fork(LOAD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const report = new Promise<LoadReport>((resolve, reject) => {
    child.once('message', (m) => resolve(m as LoadReport));
    child.once('exit', (code) => reject(new Error(`scale-load exited (${code}) without a report`)));
  });
  child.send(task);
  return { report, stop: () => child.connected && child.send('stop'), child };
}

// ---------------------------------------------------------------- one store

interface Figures {
  registerMs: number;
  placements: number;
  placeMs: number;
  runningMs: number;
  confirmedMs: number;
  complete: boolean;
  controllerCpuPerPlacementMs: number;
  /** CPU this process (the simulated agents, the benchmark) used per placement meanwhile. */
  simulatorCpuPerPlacementMs: number;
  get: number[];
  put: number[];
  probeErrors: string[];
  lostInstances: number;
  detectMs: number;
  recoverMs: number;
  post: Extract<LoadReport, { mode: 'post' }>;
  jobsHeld: number;
  /** Sessions the agents had to open again during placement (their stream failed). */
  reconnects: number;
  /** POSTs of the started jobs answered 503 (retry) and sent again, and the last one's message. */
  retries: { count: number; last: string };
  drops: string;
  /** RSS of the store's server (etcd) with the jobs, when one was started here. */
  storeRss: number | undefined;
  memInstances: Memory;
  memJobs: Memory;
  stopMs: number;
  readyMs: number;
  servingMs: number;
  reconnectedMs: number;
  memRestarted: Memory;
}

/** Sum of RUNNING instances of `jobs` in the controller's view (GET /jobs/health, 100 at a time). */
async function runningInController(api: ApiClient, jobs: string[]): Promise<number> {
  let running = 0;
  for (let i = 0; i < jobs.length; i += 100) {
    const r = await api.get<{ instance_state_count: Record<string, number> }[]>(`/jobs/health?ids=${jobs.slice(i, i + 100).join(',')}`);
    if (r.status !== 200) throw new Error(`GET /jobs/health: ${r.status} ${r.text}`);
    for (const h of r.body) running += h.instance_state_count['RUNNING'] ?? 0;
  }
  return running;
}

/** POSTs answered 503 with `retry` and sent again (createJobs), and the last one's message. */
const retried = { count: 0, last: '' };

async function createJobs(api: ApiClient, bodies: Record<string, unknown>[], concurrency: number): Promise<string[]> {
  const uuids: string[] = new Array<string>(bodies.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const n = next++;
        for (let again = false; ; again = true) {
          const r = await api.post<Job & { retry?: boolean; try_again_in_ms?: number; message?: string }>('/jobs', bodies[n]);
          if (r.status === 200) {
            uuids[n] = r.body.uuid;
            break;
          }
          // A POST that etcd did not answer in time may have been written all the same: its
          // repetition finds the job (409 naming its uuid).
          const made = again && r.status === 409 ? /\(uuid ([0-9a-f-]{36})\)/.exec(r.body.message ?? '') : null;
          if (made) {
            uuids[n] = made[1]!;
            break;
          }
          if (r.status !== 503 || r.body.retry !== true) throw new Error(`POST /jobs: ${r.status} ${r.text}`);
          retried.count++;
          retried.last = r.body.message ?? r.text;
          await new Promise((resolve) => setTimeout(resolve, r.body.try_again_in_ms ?? 1000));
        }
      }
    }),
  );
  return uuids;
}

/** BENCH_CONTROLLER_LOG's file, opened for appending (rejects when it cannot be: a directory, no such directory). */
function openLog(path: string): Promise<WriteStream> {
  return new Promise((resolve, reject) => {
    const log = createWriteStream(path, { flags: 'a' });
    log.once('open', () => resolve(log));
    log.once('error', (err) => reject(new Error(`BENCH_CONTROLLER_LOG=${path} cannot be written: ${err.message}`)));
  });
}

/** With BENCH_CONTROLLER_LOG: the controller's output appended to that file (else drained unread). */
function keepLog(controller: ControllerProcess, log: WriteStream | undefined): void {
  controller.discardOutput();
  if (!log) return;
  // What it wrote before its ready line (its start's steps) was read by the harness.
  log.write(controller.lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  controller.child.stdout!.pipe(log, { end: false });
  controller.child.stderr!.pipe(log, { end: false });
}

async function measure(store: StoreUnderTest): Promise<Figures> {
  retried.count = 0;
  retried.last = '';
  const env = { PLATFORM_LOG_LEVEL: 'info', ...store.env };
  const nodeArgs = [
    ...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []),
    ...(HEAPSNAPSHOT_DIR ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${HEAPSNAPSHOT_DIR}`] : []),
    ...NODE_ARGS,
  ];
  // The simulated agents make no bridges: the pool of their instance subnets can be the default's
  // size, a block for each of 4,096 agents (the harness's pool for real agents has 16, and the
  // agents past them registered with none: an error line each, at every registration).
  const args = [...store.args, '--agent-subnet-pool', '10.192.0.0/12'];
  // Opened before the controller starts: a path that cannot be written stops the run with nothing left running.
  const log = CONTROLLER_LOG ? await openLog(CONTROLLER_LOG) : undefined;
  let controller = await ControllerProcess.start({ args, env, nodeArgs, readyTimeoutMs: 600_000 });
  keepLog(controller, log);
  const sim = new AgentSimulator({ grpcAddress: controller.grpcAddress, joinToken: TEST_JOIN_TOKEN });
  const loads: ChildProcess[] = [];
  try {
    const api = await controller.admin();
    progress(`${AGENTS} simulated agents registering`);
    let t = performance.now();
    await sim.start(AGENTS, {}, 300_000);
    const registerMs = performance.now() - t;

    const ns = '/bench-scale';
    const pkg = await uploadPackage(api, ns, httpAppArchive());
    const probeJobs = await createJobs(api, Array.from({ length: PROBE_JOBS }, (_, n) => httpAppJob(`job::${ns}/probe::p${n}`, pkg.uuid)), 4);

    // ---- placement, with the GET/PUT probe running
    const startedCount = INSTANCES / PER_JOB;
    progress(`placement: ${startedCount} started jobs of ${PER_JOB} instances (${INSTANCES} instances over ${AGENTS} agents)`);
    const probe = runLoad({ mode: 'probe', url: controller.url, headers: api.defaultHeaders, jobs: probeJobs });
    loads.push(probe.child);
    const cpu0 = cpuMs(controller.child.pid!);
    const simCpu0 = cpuMs(process.pid);
    const t0 = Date.now();
    const creating = createJobs(
      api,
      Array.from({ length: startedCount }, (_, n) => httpAppJob(`job::${ns}/started::s${n}`, pkg.uuid, { num_instances: PER_JOB, state: 'started' })),
      START_CONCURRENCY,
    );
    let startedJobs: string[] = [];
    const creatingDone = creating.then((u) => (startedJobs = u));
    let lastCount = 0;
    let lastAt = t0;
    const ticker = setInterval(() => {
      const now = Date.now();
      const n = sim.starts.length;
      const line = `  ${fmt(n)} placed (${fmt(((n - lastCount) * 1000) / (now - lastAt))}/s over the last ${secs(now - lastAt)}), ${fmt(sim.count('RUNNING'))} RUNNING, ` +
        `${sim.agents.reduce((r, a) => r + a.welcomes - 1, 0)} agent sessions reopened${dropText(sim)}`;
      lastCount = n;
      lastAt = now;
      memoryOf(controller).then(
        (m) => progress(`${line}, controller ${memoryText(m)}, event-loop delay up to ${msText(m.lagMaxMs)}`),
        () => progress(line),
      );
    }, 5_000);
    let complete = true;
    try {
      await sim.waitFor(() => sim.starts.length >= INSTANCES && sim.count('RUNNING') >= INSTANCES, { timeoutMs: TIMEOUT_MS, what: `${INSTANCES} instances RUNNING` });
    } catch {
      complete = false;
      progress(`placement did not finish within ${secs(TIMEOUT_MS)}: figures so far`);
    } finally {
      clearInterval(ticker);
    }
    const cpu1 = cpuMs(controller.child.pid!);
    const simCpu1 = cpuMs(process.pid);
    probe.stop();
    const probed = (await probe.report) as Extract<LoadReport, { mode: 'probe' }>;
    const placements = Math.min(sim.starts.length, INSTANCES);
    const placeMs = Math.max(...sim.starts.slice(0, placements).map((s) => s.startedAtMs)) - t0;
    const runningMs = Math.max(...sim.starts.slice(0, placements).map((s) => s.runningAtMs ?? 0)) - t0;
    await creatingDone;
    let confirmedMs = Number.NaN;
    if (complete) {
      await eventually(async () => (await runningInController(api, startedJobs)) === INSTANCES, { timeoutMs: 120_000, what: 'every instance RUNNING in the controller' });
      confirmedMs = Date.now() - t0;
    }
    const reconnects = sim.agents.reduce((n, a) => n + a.welcomes - 1, 0);
    const drops = dropText(sim);
    await heapSnapshot(controller, `with ${INSTANCES} instances`);
    const memInstances = await memoryOf(controller);

    // ---- an agent's host dies: the one with the most instances
    const victim = sim.agents.filter((a) => a.state === 'welcomed').reduce((a, b) => (b.live.length > a.live.length ? b : a));
    const lost = new Map(victim.live.map((i) => [i.uuid, i.spec.jobUuid ?? '']));
    const affected = [...new Set(lost.values())];
    progress(`agent loss: ${victim.o.hostname} with ${lost.size} instances`);
    const startsBefore = sim.starts.length;
    const tKill = Date.now();
    victim.kill();
    // Replacements: starts after the loss of instances of the jobs it held, once RUNNING.
    const replacements = () => sim.starts.slice(startsBefore).filter((s) => s.runningAtMs !== undefined && affected.includes(sim.jobOf(s.instance) ?? ''));
    await sim.waitFor(() => replacements().length >= lost.size, { timeoutMs: 180_000, what: `the ${lost.size} lost instances replaced` });
    const times = replacements().map((s) => s.runningAtMs!).sort((a, b) => a - b);
    const detectMs = Math.min(...sim.starts.slice(startsBefore).map((s) => s.startedAtMs)) - tKill;
    const recoverMs = times[lost.size - 1]! - tKill;
    await eventually(async () => (await runningInController(api, affected)) === affected.length * PER_JOB, { timeoutMs: 120_000, what: 'the jobs of the lost agent all RUNNING again in the controller' });

    // ---- POST /jobs at 64 connections, up to JOBS jobs
    const toPost = Math.max(0, JOBS - startedCount - PROBE_JOBS);
    progress(`POST /jobs: ${toPost} jobs from ${POST_CONNECTIONS} connections`);
    const template = httpAppJob('', pkg.uuid);
    delete template['fqn'];
    const posting = runLoad({ mode: 'post', url: controller.url, headers: api.defaultHeaders, count: toPost, connections: POST_CONNECTIONS, body: template, fqnPrefix: `job::${ns}/posted::j` });
    loads.push(posting.child);
    const post = (await posting.report) as Extract<LoadReport, { mode: 'post' }>;
    const jobsHeld = startedCount + PROBE_JOBS + post.requests - post.non2xx;
    await heapSnapshot(controller, `with ${jobsHeld} jobs`);
    const memJobs = await memoryOf(controller);
    const storeRss = store.serverPid === undefined ? undefined : rssBytes(store.serverPid);

    // ---- restart
    progress('restart');
    t = performance.now();
    await controller.stop();
    const stopMs = performance.now() - t;
    const welcomes = sim.agents.map((a) => a.welcomes);
    t = performance.now();
    controller = await controller.restart();
    const readyMs = performance.now() - t;
    keepLog(controller, log);
    const api2 = await controller.admin();
    await eventually(async () => (await api2.get(`/jobs/${startedJobs[0]}`)).status === 200, { timeoutMs: 60_000, intervalMs: 5, what: 'a job served after the restart' });
    const servingMs = performance.now() - t;
    const back = sim.agents.map((a, i) => ({ a, before: welcomes[i]! })).filter(({ a }) => a.state !== 'dead');
    await sim.waitFor(() => back.every(({ a, before }) => a.welcomes > before), { timeoutMs: 300_000, what: 'every agent welcomed again' });
    await eventually(async () => (await runningInController(api2, startedJobs)) === INSTANCES, { timeoutMs: 300_000, intervalMs: 250, what: 'every instance RUNNING after the restart' });
    const reconnectedMs = performance.now() - t;
    const memRestarted = await memoryOf(controller);

    return {
      registerMs, placements, placeMs, runningMs, confirmedMs, complete,
      controllerCpuPerPlacementMs: (cpu1 - cpu0) / Math.max(1, placements),
      simulatorCpuPerPlacementMs: (simCpu1 - simCpu0) / Math.max(1, placements),
      get: probed.get, put: probed.put, probeErrors: probed.errors,
      lostInstances: lost.size, detectMs, recoverMs,
      reconnects, retries: { ...retried }, drops, storeRss, post, jobsHeld, memInstances, memJobs, stopMs, readyMs, servingMs, reconnectedMs, memRestarted,
    };
  } finally {
    for (const l of loads) if (l.exitCode === null) l.kill('SIGKILL');
    await sim.close();
    await controller.stop();
    await controller.dispose();
    log?.end();
  }
}

function report(store: string, f: Figures): string {
  const pct = (xs: number[], p: number) => (xs.length ? msText(percentile(xs, p)) : 'none');
  const rate = (f.placements * 1000) / f.placeMs;
  const p99Get = f.get.length ? percentile(f.get, 99) : Infinity;
  const p99Put = f.put.length ? percentile(f.put, 99) : Infinity;
  const lines = [
    `store ${store}`,
    `  ${fmt(AGENTS)} agents registered in ${secs(f.registerMs)}`,
    `  placements: ${fmt(f.placements)} instances in ${secs(f.placeMs)} = ${fmt(rate)}/s${f.complete ? '' : ` (INCOMPLETE: ${fmt(INSTANCES)} asked)`}` +
      `   aim >= 2,000/s on one controller: ${verdict(rate >= 2000 && f.complete)}; anchor: Nomad C1M, 3,750/s on five servers`,
    `    every one RUNNING as the agents report it at ${secs(f.runningMs)}, in the controller's view (GET /jobs/health) by ${Number.isNaN(f.confirmedMs) ? 'n/a' : secs(f.confirmedMs)};` +
      ` controller CPU ${fmt(f.controllerCpuPerPlacementMs, 3)} ms per placement (the simulated agents' process ${fmt(f.simulatorCpuPerPlacementMs, 3)} ms);` +
      ` ${f.reconnects} agent sessions opened again meanwhile${f.drops}`,
    `  GET /jobs/{uuid} during placement: p50 ${pct(f.get, 50)}, p99 ${pct(f.get, 99)} (${fmt(f.get.length)} requests)   aim p99 <= 100 ms: ${verdict(p99Get <= 100)}; Kubernetes' SLO: 1 s`,
    `  PUT /jobs/{uuid} during placement: p50 ${pct(f.put, 50)}, p99 ${pct(f.put, 99)} (${fmt(f.put.length)} requests)   aim p99 <= 100 ms: ${verdict(p99Put <= 100)}; Kubernetes' SLO: 1 s`,
    ...(f.retries.count ? [`    ${fmt(f.retries.count)} POSTs of the started jobs answered 503 (retry) and sent again; the last: ${f.retries.last}`] : []),
    ...(f.probeErrors.length ? [`    probe errors: ${f.probeErrors.join('; ')}`] : []),
    `  agent lost -> its ${f.lostInstances} instances RUNNING elsewhere: ${secs(f.recoverMs)} (declared lost, first replacement placed, at ${secs(f.detectMs)})` +
      `   aim <= 15 s with the default timings (heartbeat ${secs(HEARTBEAT_MS)}, lost after ${secs(LOST_AFTER_MS)}): ${verdict(f.recoverMs <= 15_000)}`,
    `  POST /jobs from ${POST_CONNECTIONS} connections: ${fmt(f.post.rps)}/s (${fmt(f.post.requests)} jobs in ${secs(f.post.seconds * 1000)}, ${f.post.non2xx} non-2xx, ${f.post.errors} errors)` +
      `   anchor: 5,420/s into an empty controller (npm run bench, docs/architecture.md)`,
    `  controller memory with ${fmt(INSTANCES)} instances on ${fmt(AGENTS)} agents: ${memoryText(f.memInstances)}`,
    `  controller memory with ${fmt(f.jobsHeld)} jobs besides: ${memoryText(f.memJobs)}   aim RSS <= 500 MB: ${verdict(f.memJobs.rss <= 500 * MB)}` +
      (f.storeRss === undefined ? '' : `; the ${store} server's RSS then ${fmt(f.storeRss / MB)} MB`),
    `  restart: stopped in ${secs(f.stopMs)}; the new process ready in ${secs(f.readyMs)}, serving a job at ${secs(f.servingMs)}   aim <= 5 s: ${verdict(f.servingMs <= 5000)}`,
    `    every agent back and every instance RUNNING at ${secs(f.reconnectedMs)}; then ${memoryText(f.memRestarted)}`,
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  process.stdout.write(
    `scale benchmark, size ${SIZE_NAME}: ${fmt(AGENTS)} simulated agents, ${fmt(INSTANCES)} instances (${PER_JOB} a job), ${fmt(JOBS)} jobs; ` +
      `${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the start\n`,
  );
  if (!STORES.some((s) => s === 'etcd' || s.startsWith('etcd://'))) {
    const why = controllerTakes('--store') ? '' : '; this controller build has no --store option anyway';
    process.stdout.write(`store etcd: NOT MEASURED: not in BENCH_STORES (the default, rocksdb,etcd, measures it)${why}\n`);
  }
  for (const name of STORES) {
    const store = await prepareStore(name);
    if (store.unavailable) {
      process.stdout.write(`store ${name}: NOT MEASURED: ${store.unavailable}\n`);
      continue;
    }
    try {
      const figures = await measure(store);
      process.stdout.write(`${report(name, figures)}\n`);
    } finally {
      await store.dispose();
    }
  }
}

await main();
