/**
 * Router benchmark (`npm run bench:router`): a real controller with its embedded router and one
 * real agent running 4 instances of a small app (BENCH_APP below), then the same load
 * (autocannon, keep-alive connections, GET /) through:
 *
 *   1. the router embedded in the controller, by the route's host, over the 4 instances;
 *   2. a standalone platform-router (its own process, following the table), the same way;
 *   3. one instance directly (the floor: no proxy at all);
 *   4. HAProxy (/usr/sbin/haproxy, Debian package haproxy) configured by this script for the same
 *      4 instances, round robin, keep-alive to the backends, 1 thread (`nbthread 1`): the anchor.
 *
 * and the time from a PUT that adds a route to the first 200 through each router (repeated; p50
 * and max). The aims: at least half of HAProxy's requests/s on one core, p99 within
 * 2x of it, route changes live within 1 s.
 *
 * "On one core", the same way for every proxy: with 2 or more CPUs and `taskset` (util-linux),
 * the proxies (the controller with its embedded router, the platform-router and HAProxy, every
 * thread of each) are pinned to the last CPU, and everything else that works under load (the
 * load generator, a process of its own: load-generator.ts; the agent, and so the instances it
 * starts) to the others, so a proxy never competes with the load or the apps for its core, and
 * HAProxy's one thread has no more CPU than Node's main thread and its helper threads together.
 * BENCH_ROUTER_PIN=0 runs everything unpinned. Other processes of the machine are not pinned:
 * on a shared machine the load of others changes from one run to the next, so the four paths are
 * measured in turn, BENCH_ROUTER_ROUNDS times, and the figures are the medians (the ratios: the
 * median of each round's ratio, the paths of one round having run close together). Besides
 * requests/s, the CPU time each proxy used per request is printed: its inverse is what one core
 * of its own would serve, the figure that the load of others disturbs least.
 *
 * Environment: BENCH_ROUTER_SECONDS (per run, default 5), BENCH_ROUTER_ROUNDS (default 3),
 * BENCH_ROUTER_CONNECTIONS (default 32), BENCH_ROUTER_ROUTE_RUNS (route changes timed per router,
 * default 10), BENCH_ROUTER_PIN (default 1), BENCH_ROUTER_PROFILE=DIR (the controller and the
 * platform-router write CPU profiles there, node --cpu-prof, when they stop).
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Job } from '@platform/controller';
import { AgentProcess, bwrapWorks } from '../harness/agent-process.js';
import { httpAppJob, tarGz, uploadPackage } from '../harness/apps.js';
import { runningInstances } from '../harness/cluster.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import { freePort } from '../harness/net.js';
import { viaRouter } from '../harness/router-app.js';
import { RouterProcess } from '../harness/router-process.js';
import { eventually } from '../harness/wait.js';
import { envCount } from './env.js';
import { percentile, type LoadResult, type LoadSpec } from './load-generator.js';

const SECONDS = envCount('BENCH_ROUTER_SECONDS', 5);
const ROUNDS = envCount('BENCH_ROUTER_ROUNDS', 3);
const PROFILE = process.env['BENCH_ROUTER_PROFILE'];
const CONNECTIONS = envCount('BENCH_ROUTER_CONNECTIONS', 32);
const ROUTE_RUNS = envCount('BENCH_ROUTER_ROUTE_RUNS', 10);
const HAPROXY = '/usr/sbin/haproxy';
const LOAD_GENERATOR = join(dirname(fileURLToPath(import.meta.url)), 'load-generator.js');

/** CPUs for the proxies and for everything else, when pinning (2+ CPUs and taskset present). */
const PINNING = (() => {
  const n = cpus().length;
  if (process.env['BENCH_ROUTER_PIN'] === '0' || n < 2 || spawnSync('taskset', ['-V']).status !== 0) return undefined;
  return { proxy: String(n - 1), rest: n === 2 ? '0' : `0-${n - 2}` };
})();

/** Pins every thread of process `pid` (and so the children it starts from now on) to `cpuList`. */
function pin(pid: number | undefined, cpuList: string | undefined): void {
  if (pid === undefined || cpuList === undefined) return;
  const r = spawnSync('taskset', ['-a', '-p', '-c', cpuList, String(pid)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`taskset -a -p -c ${cpuList} ${pid}: ${r.stderr}`);
}

const progress = (line: string) => process.stderr.write(`${line}\n`);

/**
 * The small app: answers its instance and pid as JSON, and logs nothing per request (a line per
 * request would be shipped to the controller and stored, which is the log pipeline's load, not
 * the router's).
 */
const BENCH_APP = `
const http = require('node:http');
const body = JSON.stringify({ instance: process.env.PLATFORM_INSTANCE_UUID, pid: process.pid });
http.createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end(body); }).listen(Number(process.env.PORT));
`;

/** CPU time (user + system, ms) a process has used so far. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

interface Row {
  name: string;
  rps: number;
  /** CPU time of the proxy process per request (µs); NaN when there is no proxy. */
  cpuUs: number;
  /** Share of one core the proxy process used during the run (%); NaN when there is no proxy. */
  busy: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/**
 * The load generator (a process of its own, on the CPUs that are not the proxies') against `url`
 * with a Host header; p50/p99 of every response time (ms); the CPU that process `pid` used.
 */
async function load(name: string, url: string, host: string | undefined, seconds = SECONDS, pid?: number): Promise<Row> {
  const spec: LoadSpec = { url, seconds, connections: CONNECTIONS, ...(host ? { host } : {}) };
  const command = [process.execPath, LOAD_GENERATOR, JSON.stringify(spec)];
  const cpu0 = pid ? cpuMs(pid) : 0;
  const { stdout } = await promisify(execFile)(PINNING ? 'taskset' : command[0]!, PINNING ? ['-c', PINNING.rest, ...command] : command.slice(1), {
    timeout: (seconds + 60) * 1000,
  });
  const r = JSON.parse(stdout) as LoadResult;
  const used = pid ? cpuMs(pid) - cpu0 : Number.NaN;
  const cpuUs = (used * 1000) / Math.max(1, r.requests);
  return { name, rps: r.rps, cpuUs, busy: (used / (seconds * 1000)) * 100, p50: r.p50, p99: r.p99, non2xx: r.non2xx, errors: r.errors };
}

async function main(): Promise<void> {
  if (spawnSync(HAPROXY, ['-v']).status !== 0) throw new Error(`${HAPROXY} is needed as the anchor: apt-get install haproxy`);
  const profile = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', PROFILE] : [];
  const controller = await ControllerProcess.start({ args: ['--domain', 'bench.test'], nodeArgs: profile });
  pin(controller.child.pid, PINNING?.proxy);
  pin(process.pid, PINNING?.rest);
  const cleanup: (() => Promise<unknown>)[] = [async () => {
    if (PROFILE) await controller.stop();
    await controller.dispose();
  }];
  try {
    const api = await controller.admin();
    const agent = await AgentProcess.start(controller, api, { isolation: bwrapWorks() ? 'bwrap' : 'process' });
    // Before the job: the instances it starts inherit its CPUs.
    pin(agent.child.pid, PINNING?.rest);
    cleanup.unshift(() => agent.dispose());
    const pkg = await uploadPackage(api, '/sandbox/admin', tarGz({ 'app/server.js': BENCH_APP }));
    const host = `${unique('bench')}.bench.test`;
    const body = httpAppJob(`job::/sandbox/admin::${unique('bench')}`, pkg.uuid, {
      num_instances: 4,
      state: 'started',
      ports: [{ number: 0, optional: false, routes: [{ type: 'http', endpoint: host }] }],
    });
    const created = await api.post<Job>('/jobs', body);
    if (created.status !== 200) throw new Error(`job: ${created.status} ${created.text}`);
    const instances = await runningInstances(api, created.body.uuid, 4, 120_000);
    const backends = instances.map((i) => Object.values(i.ports)[0]!);
    await eventually(async () => (await viaRouter(controller.routerAddress, host)).status === 200, { what: 'the route served' });
    // A standalone router too: the same proxy in a process of its own, following the table.
    const standalone = await RouterProcess.start(controller, [], profile);
    pin(standalone.child.pid, PINNING?.proxy);
    // A profile is written at a graceful exit only.
    cleanup.unshift(() => (PROFILE ? standalone.stop() : standalone.kill9()));
    await eventually(async () => (await viaRouter(standalone.address, host)).status === 200, { what: 'the standalone router serving' });
    progress(`4 instances running at ${backends.join(', ')}; router at ${controller.routerAddress}, standalone at ${standalone.address}`);

    // HAProxy: same 4 backends, round robin, keep-alive both ways, one thread (as our router has one).
    const dir = await mkdtemp(join(tmpdir(), 'bench-haproxy-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const haPort = await freePort();
    const config = [
      'global', '  nbthread 1', '  maxconn 4096',
      'defaults', '  mode http', '  timeout connect 5s', '  timeout client 30s', '  timeout server 30s', '  option http-keep-alive',
      `frontend web`, `  bind 127.0.0.1:${haPort}`, '  default_backend apps',
      'backend apps', '  balance roundrobin', '  http-reuse always',
      ...backends.map((b, i) => `  server app${i} ${b}`),
      '',
    ].join('\n');
    await writeFile(join(dir, 'haproxy.cfg'), config);
    const haproxy = spawn(HAPROXY, ['-f', join(dir, 'haproxy.cfg'), '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
    pin(haproxy.pid, PINNING?.proxy);
    cleanup.unshift(async () => {
      haproxy.kill('SIGKILL');
      await new Promise((r) => haproxy.once('exit', r));
    });
    await eventually(async () => (await viaRouter(`127.0.0.1:${haPort}`, host)).status === 200, { what: 'haproxy answering' });

    // Warm-up of each path, then the measured runs.
    for (const [url, h] of [[`http://${controller.routerAddress}/`, host], [`http://${standalone.address}/`, host], [`http://${backends[0]}/`, undefined], [`http://127.0.0.1:${haPort}/`, host]] as const) {
      await load('warm-up', url, h, 2);
    }
    const paths = [
      { name: 'router -> 4 instances', url: `http://${controller.routerAddress}/`, host, pid: controller.child.pid },
      { name: 'platform-router -> 4', url: `http://${standalone.address}/`, host, pid: standalone.child.pid },
      { name: 'direct -> 1 instance', url: `http://${backends[0]}/`, host: undefined, pid: undefined },
      { name: 'HAProxy -> 4 instances', url: `http://127.0.0.1:${haPort}/`, host, pid: haproxy.pid },
    ];
    const runs: Row[][] = paths.map(() => []);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [i, p] of paths.entries()) {
        progress(`round ${round}/${ROUNDS}: ${p.name}`);
        runs[i]!.push(await load(p.name, p.url, p.host, SECONDS, p.pid));
      }
    }
    const median = (xs: number[]) => percentile(xs, 50);
    const rows: Row[] = runs.map((r, i) => ({
      name: paths[i]!.name,
      rps: median(r.map((x) => x.rps)),
      cpuUs: median(r.map((x) => x.cpuUs)),
      busy: median(r.map((x) => x.busy)),
      p50: median(r.map((x) => x.p50)),
      p99: median(r.map((x) => x.p99)),
      non2xx: r.reduce((sum, x) => sum + x.non2xx, 0),
      errors: r.reduce((sum, x) => sum + x.errors, 0),
    }));
    /** Median over rounds of (path / HAProxy) for requests/s and p99. */
    const ratio = (i: number) => ({
      rps: median(runs[i]!.map((x, round) => x.rps / runs[3]![round]!.rps)),
      p99: median(runs[i]!.map((x, round) => x.p99 / runs[3]![round]!.p99)),
      /** Requests/s on one core of the proxy's own CPU, against HAProxy's: HAProxy's CPU per request over ours. */
      core: median(runs[i]!.map((x, round) => runs[3]![round]!.cpuUs / x.cpuUs)),
      rounds: runs[i]!.map((x, round) => `${(x.rps / runs[3]![round]!.rps).toFixed(2)}/${(x.p99 / runs[3]![round]!.p99).toFixed(2)}`).join(' '),
    });

    // Route changes: PUT adding a new host -> first 200 through each router. The one-core rule
    // is for the load above; the controller and the router get every CPU back, as deployed.
    const all = `0-${cpus().length - 1}`;
    if (PINNING) for (const pid of [controller.child.pid, standalone.child.pid, process.pid]) pin(pid, all);
    const changes = new Map<string, number[]>([[controller.routerAddress, []], [standalone.address, []]]);
    for (const [address, times] of changes) {
      progress(`route changes through ${address}`);
      for (let i = 0; i < ROUTE_RUNS; i++) {
        const job = (await api.get<Job>(`/jobs/${created.body.uuid}`)).body;
        const fresh = `${unique('r')}.bench.test`;
        const t0 = performance.now();
        const put = await api.put(`/jobs/${job.uuid}`, { ...job, ports: [{ number: 0, optional: false, routes: [{ type: 'http', endpoint: host }, { type: 'http', endpoint: fresh }] }] });
        if (put.status !== 200) throw new Error(`PUT route: ${put.status} ${put.text}`);
        for (;;) {
          if ((await viaRouter(address, fresh)).status === 200) break;
          if (performance.now() - t0 > 10_000) throw new Error('a route change not live within 10 s');
        }
        times.push(performance.now() - t0);
      }
    }

    const embedded = ratio(0);
    const alone = ratio(1);
    const changeLine = (name: string, times: number[]) =>
      `  PUT adding a route -> first 200 through ${name}, ${times.length} runs: p50 ${percentile(times, 50).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (aim < 1000 ms)`;
    console.log('');
    console.log(
      `Router benchmark: ${CONNECTIONS} keep-alive connections, GET /, ${ROUNDS} rounds of ${SECONDS} s per path (medians), ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(1)}`,
    );
    console.log(
      PINNING
        ? `  the proxy under test alone on CPU ${PINNING.proxy} (HAProxy nbthread 1; the routers' every thread); the load generator (its own process), agent and apps on CPU ${PINNING.rest}`
        : '  nothing pinned (fewer than 2 CPUs, no taskset, or BENCH_ROUTER_PIN=0): proxies, load generator, agent and apps share every CPU',
    );
    console.log('');
    console.log('  path                         req/s     p50 ms   p99 ms   non-2xx  errors   proxy CPU us/req  of its core');
    for (const r of rows) {
      console.log(
        `  ${r.name.padEnd(26)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(2).padStart(9)} ${r.p99.toFixed(2).padStart(8)} ${String(r.non2xx).padStart(9)} ${String(r.errors).padStart(7)} ${(Number.isNaN(r.cpuUs) ? '-' : r.cpuUs.toFixed(0)).padStart(18)} ${(Number.isNaN(r.busy) ? '-' : `${r.busy.toFixed(0)}%`).padStart(12)}`,
      );
    }
    console.log('  (a proxy well under 100% of its core did not limit its own requests/s: the load generator, the apps or other');
    console.log('   work on the machine did; the requests/s ratio then says how much each hop adds to a request, and the one-core');
    console.log('   line below, from the CPU per request, what each proxy could carry on a core of its own)');
    console.log('');
    console.log(`  embedded router / HAProxy: ${embedded.rps.toFixed(2)}x the requests/s (aim >= 0.5), p99 ${embedded.p99.toFixed(2)}x (aim <= 2); rounds (req/s / p99): ${embedded.rounds}`);
    console.log(`  platform-router / HAProxy: ${alone.rps.toFixed(2)}x the requests/s (aim >= 0.5), p99 ${alone.p99.toFixed(2)}x (aim <= 2); rounds (req/s / p99): ${alone.rounds}`);
    console.log(
      `  on one core of their own (HAProxy's CPU per request over ours): embedded ${embedded.core.toFixed(2)}x, platform-router ${alone.core.toFixed(2)}x HAProxy's requests/s (the embedded figure includes the controller's own work)`,
    );
    console.log(changeLine('the embedded router', changes.get(controller.routerAddress)!));
    console.log(changeLine('the platform-router', changes.get(standalone.address)!));
    console.log('  (the embedded router shares the controller process, which also serves the PUTs; HAProxy is a separate process with 1 thread)');
  } finally {
    for (const step of cleanup) await step().catch(() => undefined);
  }
}

await main();
