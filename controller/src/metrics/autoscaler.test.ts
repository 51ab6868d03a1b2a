import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InstanceRecord } from '../model/instance.js';
import { JsonLogger, MemorySink, silentLogger } from '@platform/proto/common';
import { ManualClock } from '../util/clock.js';
import { MemoryStore } from '../store/memory-store.js';
import { autoscaleObserver } from './autoscale-sources.js';
import { Autoscaler, pidDecision, thresholdDecision, type ScaledJob } from './autoscaler.js';
import { MetricStore } from './metric-store.js';
import { testDestinations } from '../scheduler/cluster.test-fixture.js';

function harness(autoscaling: ScaledJob['autoscaling'], series: (tMs: number) => number | undefined) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const job: ScaledJob = { uuid: 'j1', fqn: 'job::/a::web', state: 'started', num_instances: 1, autoscaling, monitoring: {} };
  const changes: { atS: number; to: number; reason: string }[] = [];
  const windows: number[] = [];
  const scaler = new Autoscaler({
    clock,
    log: silentLogger,
    jobs: async () => [job],
    observe: async (_j, _metric, windowS) => {
      windows.push(windowS);
      return series(clock.nowMs());
    },
    scale: async (_j, to, reason) => {
      changes.push({ atS: (clock.nowMs() - Date.UTC(2026, 0, 1)) / 1000, to, reason });
      job.num_instances = to;
    },
  });
  /** Runs the autoscaler every 5 s of simulated time for `seconds`. */
  const run = async (seconds: number) => {
    for (let s = 0; s < seconds; s += 5) {
      clock.advance(5_000);
      await scaler.tick();
    }
  };
  return { clock, job, changes, windows, run };
}

test('autoscaler: threshold rule scales up by its delta above the upper bound, waits its timeout and warm-up, and back down below the lower', async (t) => {
  let load = 500;
  const h = harness(
    {
      min_instances: 1, max_instances: 4, observation_interval_secs: 10, scale_timeout_secs: 30, warmup_secs: 10,
      rule: { type: 'threshold', metric: 'cpu_per_second', config: { lower_threshold: 50, upper_threshold: 200, scale_up_delta: 2, scale_down_delta: 1, monitoring_window_secs: 20 } },
    },
    () => load,
  );
  await h.run(15);
  t.deepEqual(h.changes.map((c) => [c.atS, c.to]), [[15, 3]], 'first evaluation one interval after the job is seen: +2');
  t.regex(h.changes[0]!.reason, /cpu_per_second threshold: 500 above 200: 1 -> 3 instances/);
  t.is(h.windows[0], 20, 'the monitoring window');
  await h.run(35);
  t.deepEqual(h.changes.map((c) => c.to), [3], 'nothing within scale timeout + warm-up (40 s)');
  await h.run(10);
  t.deepEqual(h.changes.map((c) => [c.atS, c.to]), [[15, 3], [55, 4]], 'then up again, never above max');
  await h.run(120);
  t.is(h.changes.length, 2, 'at max: no change');
  load = 10;
  await h.run(200);
  t.deepEqual(h.changes.slice(2).map((c) => c.to), [3, 2, 1], 'down one at a time to min');
  t.true(h.changes.slice(2).every((c, i, all) => i === 0 || c.atS - all[i - 1]!.atS >= 40), 'each after the timeout and warm-up');
  load = 100;
  await h.run(100);
  t.is(h.changes.length, 5, 'within bounds: no change');
});

test('autoscaler: pid rule follows the load to the setpoint; no value, a stopped job or no autoscaling decide nothing', async (t) => {
  let perInstanceTotal = 600; // total demand in ms/s, shared by the instances
  const h = harness(
    { min_instances: 1, max_instances: 10, observation_interval_secs: 10, scale_timeout_secs: 10, rule: { type: 'pid', config: { setpoint: 100, kp: 0.45, ki: 0.0013, kd: 0 } } },
    () => perInstanceTotal / h.job.num_instances,
  );
  await h.run(300);
  t.true(h.job.num_instances >= 5 && h.job.num_instances <= 7, `about 6 instances for 600 ms/s at 100 each: ${h.job.num_instances}`);
  perInstanceTotal = 100;
  await h.run(600);
  t.true(h.job.num_instances <= 2, `back down: ${h.job.num_instances}`);
  t.true(h.changes.every((c) => c.to >= 1 && c.to <= 10));
  const n = h.changes.length;
  h.job.state = 'stopped';
  perInstanceTotal = 5000;
  await h.run(60);
  t.is(h.changes.length, n, 'a stopped job is left alone');
  h.job.state = 'started';
  h.job.autoscaling = null;
  await h.run(60);
  t.is(h.changes.length, n, 'no autoscaling: left alone');
  const quiet = harness({ min_instances: 1, max_instances: 5, rule: { type: 'pid' } }, () => undefined);
  await quiet.run(120);
  t.deepEqual(quiet.changes, [], 'no value of the metric: no decision');
});

test('autoscaler: pid anti-windup: the integral does not grow while the count sits at max', (t) => {
  const s = { integral: 0, lastError: undefined as number | undefined };
  const c = { setpoint: 100, kp: 0.45, ki: 0.0013, kd: 0 };
  for (let i = 0; i < 100; i++) t.is(pidDecision(s, c, 1000, 10, 3, 1, 3).desired, 3);
  t.is(s.integral, 0, 'saturated at max: no wind-up');
  // Load gone: it comes down at once instead of unwinding a huge integral first.
  t.true(pidDecision(s, c, 10, 10, 3, 1, 3).desired < 3);
  t.deepEqual(thresholdDecision({ lower_threshold: 1, scale_up_delta: 1, scale_down_delta: 1 }, 1e9, 2, 1, 5).desired, 2, 'no upper bound: never up');
});

test('autoscaler: observes cpu_per_second, requests_per_second and request_latency per instance from the metric store', async (t) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const metrics = new MetricStore({ store: new MemoryStore(), clock, log: silentLogger, jobFqn: async () => 'job::/a::web' });
  const T = clock.nowMs();
  const usage = (i: string, cpuNs: number) => ({ instanceUuid: i, jobUuid: 'j1', cpuNs, memoryUsed: 1, memoryLimit: 1, diskUsed: 0, diskLimit: 0, networkRx: 0, networkTx: 0, bandwidthLimit: 0 });
  metrics.usage('a', 'h', { samples: [{ timeMs: T + 1000, instances: [usage('i1', 3e8), usage('i2', 1e8)] }] });
  metrics.requests([{ jobUuid: 'j1', requests: 40, errors: 0, latencySumMs: 2000, latencyMaxMs: 100 }], T + 2000);
  clock.advance(9_000);
  const observe = autoscaleObserver({ metrics, nowMs: () => clock.nowMs(), instancesOf: () => [], destinations: testDestinations().metrics });
  const job: ScaledJob = { uuid: 'j1', fqn: 'job::/a::web', state: 'started', num_instances: 2, autoscaling: {}, monitoring: {} };
  t.is(await observe(job, 'cpu_per_second', 10), 200, 'mean per instance: (300 + 100) / 2 ms per second');
  t.is(await observe(job, 'requests_per_second', 10), 2, '40 requests in 10 s over 2 instances');
  t.is(await observe(job, 'request_latency', 10), 0.05, '50 ms in seconds');
  t.is(await observe(job, 'unknown', 10), undefined);
});

test('autoscaler: an http_metric is polled as written, or on every running instance for a $INSTANCE host, and averaged', async (t) => {
  const servers = await Promise.all(
    ['3.5', '1.5', 'not a number'].map(
      (answer) =>
        new Promise<Server>((resolve) => {
          const s = createServer((req, res) => res.end(req.url === '/load' ? answer : '0'));
          s.listen(0, '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  t.teardown(() => servers.forEach((s) => s.close()));
  const address = (s: Server) => `127.0.0.1:${(s.address() as AddressInfo).port}`;
  const record = (uuid: string, state: string, s: Server) => ({ uuid, state, ports: { '0': address(s) } }) as unknown as InstanceRecord;
  const metrics = new MetricStore({ store: new MemoryStore(), clock: new ManualClock(0), log: silentLogger, jobFqn: async () => undefined });
  const observe = autoscaleObserver({
    metrics,
    nowMs: () => 0,
    // The third answers no number; a stopped one is not asked.
    instancesOf: () => [record('i1', 'RUNNING', servers[0]!), record('i2', 'RUNNING', servers[1]!), record('i3', 'RUNNING', servers[2]!), record('i4', 'STOPPED', servers[0]!)],
    // The urls polled as written are on loopback: listed. $INSTANCE urls need no listing.
    destinations: testDestinations(servers.map(address).join(',')).metrics,
  });
  const job = (url: string): ScaledJob => ({ uuid: 'j1', fqn: 'job::/a::web', state: 'started', num_instances: 3, autoscaling: {}, monitoring: { load: { type: 'http_metric', config: { url } } } });
  t.is(await observe(job('http://$INSTANCE/load'), 'load', 10), 2.5);
  t.is(await observe(job(`http://${address(servers[1]!)}/load`), 'load', 10), 1.5);
  t.is(await observe(job(`http://${address(servers[2]!)}/load`), 'load', 10), undefined);
});

test('autoscaler: an http_metric url polled as written at a loopback or link-local address is refused unless listed, and the server sees no request; a redirect is not followed', async (t) => {
  const seen: string[] = [];
  const servers = await Promise.all(
    [0, 1].map(
      () =>
        new Promise<Server>((resolve) => {
          const s = createServer((req, res) => {
            seen.push(`${(s.address() as AddressInfo).port}${req.url ?? ''}`);
            // The first redirects to the second; the second answers a number.
            if (s === servers[0]) res.writeHead(302, { Location: `http://127.0.0.1:${(servers[1]!.address() as AddressInfo).port}/load` }).end();
            else res.end('4.5');
          });
          s.listen(0, '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  t.teardown(() => servers.forEach((s) => s.close()));
  const port = (s: Server) => (s.address() as AddressInfo).port;
  const metrics = new MetricStore({ store: new MemoryStore(), clock: new ManualClock(0), log: silentLogger, jobFqn: async () => undefined });
  const sink = new MemorySink();
  const log = new JsonLogger(sink, 'warn');
  const warnings = sink.lines; // each { msg, err, ... }
  const observer = (allow: string) => autoscaleObserver({ metrics, nowMs: () => 0, instancesOf: () => [], destinations: testDestinations(allow).metrics, log });
  const job = (url: string): ScaledJob => ({ uuid: 'j1', fqn: 'job::/a::web', state: 'started', num_instances: 1, autoscaling: {}, monitoring: { load: { type: 'http_metric', config: { url } } } });
  const direct = `http://127.0.0.1:${port(servers[1]!)}/load`;
  for (const url of [direct, `http://localhost:${port(servers[1]!)}/load`, `http://[::ffff:127.0.0.1]:${port(servers[1]!)}/load`, 'http://169.254.169.254/latest/meta-data/']) {
    t.is(await observer('')(job(url), 'load', 10), undefined, url);
  }
  t.deepEqual(seen, [], 'no request reached the server');
  t.is(warnings.length, 4);
  t.is(warnings[0]!['msg'], 'an http_metric url is refused');
  t.regex(String(warnings[0]!['err']), /^http_metric urls may not reach 127\.0\.0\.1:\d+: 127\.0\.0\.1 is a loopback address/);
  t.regex(String(warnings[1]!['err']), /may not reach localhost:\d+: it resolves to /);
  t.regex(String(warnings[3]!['err']), /169\.254\.169\.254 is a link-local address/);
  // Listed: polled. A redirect (to a listed address even) is not followed.
  t.is(await observer(`127.0.0.1:${port(servers[1]!)}`)(job(direct), 'load', 10), 4.5);
  t.is(await observer('127.0.0.1')(job(`http://127.0.0.1:${port(servers[0]!)}/load`), 'load', 10), undefined);
  t.deepEqual(seen, [`${port(servers[1]!)}/load`, `${port(servers[0]!)}/load`]);
});
