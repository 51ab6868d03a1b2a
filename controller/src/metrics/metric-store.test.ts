import test from 'ava';
import type { InstanceUsage } from '@platform/proto';
import { silentLogger } from '@platform/proto/common';
import { Registry } from 'prom-client';
import { MemoryStore } from '../store/memory-store.js';
import { ManualClock } from '../util/clock.js';
import { MetricStore } from './metric-store.js';
import { RequestStatsTee, type JobRequestWindow } from './request-stats.js';
import { FIELD_INDEX, namespaceLevels, parseRetention, pointValue, type Resolution } from './series.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

function setup(fqns: Record<string, string> = { j1: 'job::/a/b/c/d/e::web', j2: 'job::/a/x::db' }) {
  const store = new MemoryStore();
  const clock = new ManualClock(T0);
  const registry = new Registry();
  const metrics = new MetricStore({ store, clock, log: silentLogger, registry, jobFqn: async (u) => fqns[u] });
  return { store, clock, metrics, registry };
}

function inst(instanceUuid: string, jobUuid: string, cpuNs: number, memoryUsed = 100): InstanceUsage {
  return { instanceUuid, jobUuid, cpuNs, memoryUsed, memoryLimit: 1000, diskUsed: 10, diskLimit: 50, networkRx: 1, networkTx: 2, bandwidthLimit: 0 };
}

const field = (p: number[], f: keyof typeof FIELD_INDEX) => p[2 + FIELD_INDEX[f]]!;

test('metric store: a job point sums its instances across agents, namespaces to four levels, managers by host', async (t) => {
  const { clock, metrics } = setup();
  const t1 = T0 + 3_000; // bucket T0
  metrics.usage('agent-1', 'host-a', { samples: [{ timeMs: t1, host: { cpuNs: 5e8, memoryUsed: 7, memoryTotal: 9 }, instances: [inst('i1', 'j1', 1e8), inst('i3', 'j2', 4e8)] }] });
  metrics.usage('agent-2', 'host-b', { samples: [{ timeMs: t1 + 1000, host: { cpuNs: 1e8 }, instances: [inst('i2', 'j1', 3e8)] }] });
  // A second sample of i1 in the same bucket replaces the first.
  metrics.usage('agent-1', 'host-a', { samples: [{ timeMs: t1 + 2000, instances: [inst('i1', 'j1', 2e8)] }] });
  t.is((await metrics.flush()).points, 0, 'the bucket is not closed yet');
  clock.advance(45_000);
  const stats = await metrics.flush();
  t.true(stats.points > 0);
  const res = metrics.resolutions[0]!;
  const s = T0 / 1000;
  const [job] = await metrics.read(res, 'j', 'j1', s - 60, s + 60);
  t.is(job!.t, s);
  t.is(job!.p[0], 1);
  t.is(job!.p[1], 2, 'two instances');
  t.is(field(job!.p, 'cpu'), 5e8);
  t.is(field(job!.p, 'mem_used'), 200);
  t.is(field(job!.p, 'bandwidth_used'), 2 * 24, 'rx+tx bytes as bits');
  t.deepEqual(namespaceLevels('/a/b/c/d/e'), ['/a', '/a/b', '/a/b/c', '/a/b/c/d']);
  const [a] = await metrics.read(res, 'n', '/a', s, s);
  t.is(a!.p[1], 3);
  t.is(field(a!.p, 'cpu'), 9e8);
  t.is((await metrics.read(res, 'n', '/a/b/c/d', s, s))[0]!.p[1], 2);
  t.deepEqual(await metrics.read(res, 'n', '/a/b/c/d/e', s, s), [], 'no fifth level');
  t.is(field((await metrics.read(res, 'm', 'host-a', s, s))[0]!.p, 'cpu'), 5e8);
  t.is(field((await metrics.read(res, 'm', 'host-b', s, s))[0]!.p, 'cpu'), 1e8);
});

test('metric store: 1 min and 1 h rollups average their 10 s points; a late sample is merged into the stored point', async (t) => {
  const { clock, metrics, store } = setup();
  const s = T0 / 1000;
  for (let k = 0; k < 6; k++) metrics.usage('agent-1', 'h', { samples: [{ timeMs: T0 + k * 10_000 + 1, instances: [inst('i1', 'j1', (k + 1) * 1e8)] }] });
  clock.advance(120_000);
  await metrics.flush();
  const [m1] = await metrics.read(metrics.resolutions[1]!, 'j', 'j1', s, s);
  t.is(m1!.p[0], 6);
  t.is(field(m1!.p, 'cpu') / m1!.p[0]!, 3.5e8, 'the average of 1..6 x 1e8');
  // A sample for the first bucket arrives late (another instance, buffered by its agent).
  metrics.usage('agent-2', 'h2', { samples: [{ timeMs: T0 + 2, instances: [inst('i9', 'j1', 1e9)] }] });
  clock.advance(60_000);
  await metrics.flush();
  const [p10] = await metrics.read(metrics.resolutions[0]!, 'j', 'j1', s, s);
  t.is(p10!.p[1], 2);
  t.is(field(p10!.p, 'cpu'), 1e8 + 1e9);
  const [m1b] = await metrics.read(metrics.resolutions[1]!, 'j', 'j1', s, s);
  t.is(m1b!.p[0], 6, 'the late part does not count as another 10 s point');
  t.is(field(m1b!.p, 'cpu'), 21e8 + 1e9);
  const [h1] = await metrics.read(metrics.resolutions[2]!, 'j', 'j1', s - 3600, s);
  t.is(h1!.p[0], 6);
  // A restarted store (new instance, same data) adds to the rollup it finds.
  const again = new MetricStore({ store, clock, log: silentLogger, jobFqn: async () => 'job::/a::x' });
  again.usage('agent-1', 'h', { samples: [{ timeMs: clock.nowMs(), instances: [inst('i1', 'j1', 1e8)] }] });
  await again.stop();
  const [h1b] = await again.read(again.resolutions[2]!, 'j', 'j1', s - 3600, s + 3600);
  t.is(h1b!.p[0], 7);
});

test('metric store: reads include the open points not yet written, and count them once after the flush', async (t) => {
  const { clock, metrics } = setup();
  const s = T0 / 1000;
  const [r10, r1m] = metrics.resolutions as [Resolution, Resolution];
  metrics.usage('agent-1', 'h', { samples: [{ timeMs: T0 + 1000, host: { cpuNs: 7 }, instances: [inst('i1', 'j1', 1e8), inst('i2', 'j1', 2e8), inst('i3', 'j2', 5e8)] }] });
  const snapshot = async () => ({
    job: await metrics.read(r10, 'j', 'j1', s - 60, s + 60),
    ns: await metrics.read(r10, 'n', '/a', s - 60, s + 60),
    deep: await metrics.read(r10, 'n', '/a/b/c/d', s - 60, s + 60),
    host: await metrics.read(r10, 'm', 'h', s - 60, s + 60),
    minute: await metrics.read(r1m, 'j', 'j1', s - 60, s + 60),
  });
  const open = await snapshot();
  t.is(metrics.openPoints, 3);
  t.deepEqual(open.job.map((p) => [p.t, p.p[0], p.p[1], field(p.p, 'cpu')]), [[s, 1, 2, 3e8]], 'the open point, before any flush');
  t.deepEqual(open.ns.map((p) => [p.p[1], field(p.p, 'cpu')]), [[3, 8e8]], 'namespace: every open job under it');
  t.deepEqual(open.deep.map((p) => [p.p[1], field(p.p, 'cpu')]), [[2, 3e8]]);
  t.is(field(open.host[0]!.p, 'cpu'), 7);
  t.deepEqual(open.minute.map((p) => [p.t, p.p[0], field(p.p, 'cpu')]), [[s, 1, 3e8]], 'a rollup of the open point');
  clock.advance(45_000);
  await metrics.flush();
  t.is(metrics.openPoints, 0);
  t.deepEqual(await snapshot(), open, 'the same answer once written');
  // A late sample of the written bucket: open again, added to the stored point (not counted as another 10 s point).
  metrics.usage('agent-2', 'h2', { samples: [{ timeMs: T0 + 2000, instances: [inst('i4', 'j1', 1e9)] }] });
  const late = await snapshot();
  t.deepEqual(late.job.map((p) => [p.p[0], p.p[1], field(p.p, 'cpu')]), [[1, 3, 13e8]]);
  t.deepEqual(late.minute.map((p) => [p.p[0], p.p[1], field(p.p, 'cpu')]), [[1, 3, 13e8]]);
  await metrics.flush();
  t.deepEqual(await snapshot(), late);
});

test('metric store: the router\'s request windows add up per job and bucket, and answer requests_per_second and request_latency', async (t) => {
  const { clock, metrics } = setup();
  const s = T0 / 1000;
  metrics.usage('agent-1', 'h', { samples: [{ timeMs: T0 + 1000, instances: [inst('i1', 'j1', 1e8), inst('i2', 'j1', 1e8)] }] });
  metrics.requests([{ jobUuid: 'j1', requests: 30, errors: 1, latencySumMs: 600, latencyMaxMs: 90 }], T0 + 2000);
  metrics.requests([{ jobUuid: 'j1', requests: 20, errors: 0, latencySumMs: 400, latencyMaxMs: 50 }, { jobUuid: 'j2', requests: 5, errors: 5, latencySumMs: 5, latencyMaxMs: 1 }], T0 + 8000);
  const check = async (what: string) => {
    const [p] = await metrics.read(metrics.resolutions[0]!, 'j', 'j1', s, s);
    t.is(pointValue(p!.p, 'requests_per_second', 'sum'), 5, `${what}: 50 requests in 10 s`);
    t.is(pointValue(p!.p, 'requests_per_second', 'mean'), 2.5, `${what}: per instance`);
    t.is(pointValue(p!.p, 'request_errors_per_second', 'sum'), 0.1);
    t.is(pointValue(p!.p, 'request_latency', 'mean'), 20, `${what}: 1000 ms over 50 requests`);
    t.is(pointValue(p!.p, 'requests_per_second', 'count'), 2, `${what}: the router is not an instance`);
    t.is(pointValue(p!.p, 'cpu', 'sum'), 2e8);
    const [j2] = await metrics.read(metrics.resolutions[0]!, 'j', 'j2', s, s);
    t.is(pointValue(j2!.p, 'requests_per_second', 'mean'), null, 'no instance: no mean');
  };
  await check('open');
  clock.advance(45_000);
  await metrics.flush();
  await check('written');
});

test('metric store: resolutions by age of the query, expiry by partition, drops counted', async (t) => {
  const { clock, metrics, store, registry } = setup();
  const s = T0 / 1000;
  t.is(metrics.resolutionFor(s - 3600).name, '10s');
  t.is(metrics.resolutionFor(s - 3600, 60).name, '1m');
  t.is(metrics.resolutionFor(s - 3600, 7200).name, '1h');
  t.is(metrics.resolutionFor(s - 3 * 86_400).name, '1m');
  t.is(metrics.resolutionFor(s - 30 * 86_400).name, '1h');
  metrics.usage('a', 'h', { samples: [{ timeMs: T0, instances: [inst('i1', 'j1', 1)] }] });
  metrics.usage('a', 'h', { samples: [{ timeMs: T0 - 2 * 86_400_000, instances: [inst('i1', 'j1', 1)] }], droppedTotal: 3 });
  await metrics.stop();
  t.regex(await registry.metrics(), /platform_metrics_samples_dropped_total\{reason="old"\} 1/);
  t.regex(await registry.metrics(), /platform_metrics_samples_dropped_total\{reason="agent"\} 3/);
  clock.advance(2 * 86_400_000 + 1000);
  const deleted = await metrics.expire();
  t.true(deleted > 0);
  t.deepEqual(await metrics.read(metrics.resolutions[0]!, 'j', 'j1', s, s), []);
  t.is((await metrics.read(metrics.resolutions[1]!, 'j', 'j1', s, s)).length, 1, '1 min points are kept 7 days');
  let left = 0;
  for await (const _ of store.iterate({ prefix: 'met/10s/' })) left++;
  t.is(left, 0);
});

test('metric store: retention settings are parsed and checked', (t) => {
  t.deepEqual(parseRetention('10s:24h,1m:7d,1h:365d').map((r) => [r.name, r.stepS, r.retentionS]), [['10s', 10, 86_400], ['1m', 60, 604_800], ['1h', 3600, 31_536_000]]);
  t.throws(() => parseRetention('1m:7d'), { message: /finest resolution must be 10s/ });
  t.throws(() => parseRetention('10s:24h,15s:2d'), { message: /multiple/ });
  t.throws(() => parseRetention('10s:5s'), { message: /shorter/ });
  t.throws(() => parseRetention('10s:24x'), { message: /not a number/ });
});

test('metric store: a request source drained by two consumers gives each every window, summed per job', (t) => {
  let next: JobRequestWindow[] = [];
  const tee = new RequestStatsTee({ drain: () => [...next.splice(0)] });
  next = [{ jobUuid: 'a', requests: 2, errors: 1, latencySumMs: 10, latencyMaxMs: 8, latencyBuckets: [1, 1] }];
  t.deepEqual(tee.first.drain(), [{ jobUuid: 'a', requests: 2, errors: 1, latencySumMs: 10, latencyMaxMs: 8, latencyBuckets: [1, 1] }]);
  next = [{ jobUuid: 'a', requests: 3, errors: 0, latencySumMs: 6, latencyMaxMs: 5, latencyBuckets: [3, 0] }];
  t.deepEqual(tee.second.drain(), [{ jobUuid: 'a', requests: 5, errors: 1, latencySumMs: 16, latencyMaxMs: 8, latencyBuckets: [4, 1] }], 'what the first took, and the new');
  t.deepEqual(tee.first.drain(), [{ jobUuid: 'a', requests: 3, errors: 0, latencySumMs: 6, latencyMaxMs: 5, latencyBuckets: [3, 0] }]);
  t.deepEqual(tee.first.drain(), []);
  t.deepEqual(tee.second.drain(), []);
});
