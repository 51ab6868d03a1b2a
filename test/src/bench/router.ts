/**
 * Router benchmark (`npm run bench:router -w test`): a real controller with its embedded router
 * and one real agent running 4 instances of a small app (BENCH_APP below), then the
 * same load (autocannon, keep-alive connections, GET /) through:
 *
 *   1. the router embedded in the controller, by the route's host, over the 4 instances;
 *   2. a standalone platform-router (its own process, following the table), the same way;
 *   3. one instance directly (the floor: no proxy at all);
 *   4. HAProxy (/usr/sbin/haproxy, Debian package haproxy) configured by this script for the same
 *      4 instances, round robin, keep-alive to the backends, 1 thread (`nbthread 1`): the anchor.
 *
 * and the time from a PUT that adds a route to the first 200 through it (repeated; p50 and max).
 * The aims of issue 12: at least half of HAProxy's requests/s, p99 within 2x of it, route changes
 * live within 1 s. The load generator runs in this process and shares the machine with all of it.
 *
 * Environment: BENCH_ROUTER_SECONDS (per run, default 10), BENCH_ROUTER_CONNECTIONS (default
 * 32), BENCH_ROUTER_ROUTE_RUNS (route changes timed, default 10).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { Result } from 'autocannon';
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

const SECONDS = envCount('BENCH_ROUTER_SECONDS', 10);
const CONNECTIONS = envCount('BENCH_ROUTER_CONNECTIONS', 32);
const ROUTE_RUNS = envCount('BENCH_ROUTER_ROUTE_RUNS', 10);
const HAPROXY = '/usr/sbin/haproxy';

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

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** autocannon against `url` with a Host header; p50/p99 from every response time (ms). */
function load(name: string, url: string, host: string | undefined, seconds = SECONDS): Promise<Row> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: seconds, ...(host ? { headers: { host } } : {}) },
      (err: unknown, r: Result) => {
        if (err) return reject(err instanceof Error ? err : new Error(String(err)));
        resolve({ name, rps: r.requests.average, p50: percentile(latencies, 50), p99: percentile(latencies, 99), non2xx: r.non2xx, errors: r.errors });
      },
    );
    instance.on('response', (_c: unknown, _s: number, _b: number, ms: number) => latencies.push(ms));
  });
}

async function main(): Promise<void> {
  if (spawnSync(HAPROXY, ['-v']).status !== 0) throw new Error(`${HAPROXY} is needed as the anchor: apt-get install haproxy`);
  const controller = await ControllerProcess.start({ args: ['--domain', 'bench.test'] });
  const cleanup: (() => Promise<unknown>)[] = [() => controller.dispose()];
  try {
    const api = await controller.admin();
    const agent = await AgentProcess.start(controller, api, { isolation: bwrapWorks() ? 'bwrap' : 'process' });
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
    const standalone = await RouterProcess.start(controller);
    cleanup.unshift(() => standalone.kill9());
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
    cleanup.unshift(async () => {
      haproxy.kill('SIGKILL');
      await new Promise((r) => haproxy.once('exit', r));
    });
    await eventually(async () => (await viaRouter(`127.0.0.1:${haPort}`, host)).status === 200, { what: 'haproxy answering' });

    // Warm-up of each path, then the measured runs.
    for (const [url, h] of [[`http://${controller.routerAddress}/`, host], [`http://${standalone.address}/`, host], [`http://${backends[0]}/`, undefined], [`http://127.0.0.1:${haPort}/`, host]] as const) {
      await load('warm-up', url, h, 2);
    }
    const rows: Row[] = [];
    progress('load: our router -> 4 instances');
    rows.push(await load('router -> 4 instances', `http://${controller.routerAddress}/`, host));
    progress('load: platform-router -> 4 instances');
    rows.push(await load('platform-router -> 4', `http://${standalone.address}/`, host));
    progress('load: straight to 1 instance');
    rows.push(await load('direct -> 1 instance', `http://${backends[0]}/`, undefined));
    progress('load: HAProxy -> 4 instances');
    rows.push(await load('HAProxy -> 4 instances', `http://127.0.0.1:${haPort}/`, host));

    // Route changes: PUT adding a new host -> first 200 through the router.
    progress('route changes');
    const changes: number[] = [];
    for (let i = 0; i < ROUTE_RUNS; i++) {
      const job = (await api.get<Job>(`/jobs/${created.body.uuid}`)).body;
      const fresh = `${unique('r')}.bench.test`;
      const t0 = performance.now();
      const put = await api.put(`/jobs/${job.uuid}`, { ...job, ports: [{ number: 0, optional: false, routes: [{ type: 'http', endpoint: host }, { type: 'http', endpoint: fresh }] }] });
      if (put.status !== 200) throw new Error(`PUT route: ${put.status} ${put.text}`);
      for (;;) {
        if ((await viaRouter(controller.routerAddress, fresh)).status === 200) break;
        if (performance.now() - t0 > 10_000) throw new Error('a route change not live within 10 s');
      }
      changes.push(performance.now() - t0);
    }

    const ha = rows[3]!;
    const ours = rows[0]!;
    const alone = rows[1]!;
    console.log('');
    console.log(`Router benchmark: ${CONNECTIONS} keep-alive connections, GET /, ${SECONDS} s per run, ${cpus().length} cores (shared with the load generator, controller, agent and apps), load average ${loadavg()[0]!.toFixed(1)}`);
    console.log('');
    console.log('  path                         req/s     p50 ms   p99 ms   non-2xx  errors');
    for (const r of rows) {
      console.log(`  ${r.name.padEnd(26)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(2).padStart(9)} ${r.p99.toFixed(2).padStart(8)} ${String(r.non2xx).padStart(9)} ${String(r.errors).padStart(7)}`);
    }
    console.log('');
    console.log(`  embedded router / HAProxy: ${(ours.rps / ha.rps).toFixed(2)}x the requests/s (aim >= 0.5), p99 ${(ours.p99 / ha.p99).toFixed(2)}x (aim <= 2)`);
    console.log(`  platform-router / HAProxy: ${(alone.rps / ha.rps).toFixed(2)}x the requests/s (aim >= 0.5), p99 ${(alone.p99 / ha.p99).toFixed(2)}x (aim <= 2)`);
    console.log(`  PUT adding a route -> first 200 through it, ${changes.length} runs: p50 ${percentile(changes, 50).toFixed(1)} ms, max ${Math.max(...changes).toFixed(1)} ms (aim < 1000 ms)`);
    console.log('  (the router is embedded in the controller process, which also serves the PUTs; HAProxy is a separate process with 1 thread)');
  } finally {
    for (const step of cleanup) await step().catch(() => undefined);
  }
}

await main();
