/**
 * Metrics benchmark (`npm run bench:metrics -w test`), on a real RocksDB store in a temporary
 * directory, with the controller's MetricStore on a manual clock:
 *
 *   1. Ingest: BENCH_METRICS_JOBS jobs (default 10,000) of two instances each, spread over 100
 *      agents, report every 10 s for BENCH_METRICS_INTERVALS intervals (default 30 = 5 minutes
 *      of simulated time); each interval the agents' batches are ingested and the closed points
 *      written (10 s points, namespace aggregates, 1 min and 1 h rollups). Printed: instance
 *      samples per second of CPU, store operations, and the share of one core the controller
 *      process (every thread, the store's writer included) would spend on it in real time:
 *      CPU time / simulated time.
 *   2. Query: 24 h of 10 s points for one job and for a namespace of BENCH_METRICS_NS_JOBS jobs
 *      (default 1,000) are written straight into the store; then the latency of reading the
 *      job's series, of the namespace's pre-aggregated series, and of the same namespace figure
 *      by a raw scan (every job's series read and summed), each the median of 5 runs: once right
 *      after the bulk write (RocksDB still compacting the fresh files), and once its compactions
 *      have settled, which is the state of a store written over a day.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RESOLUTIONS, FIELD_INDEX, ManualClock, MetricStore, RocksStore, silentLogger } from '@platform/controller';
import { envCount } from './env.js';

const JOBS = envCount('BENCH_METRICS_JOBS', 10_000);
const INTERVALS = envCount('BENCH_METRICS_INTERVALS', 30);
const NS_JOBS = envCount('BENCH_METRICS_NS_JOBS', 1_000);
const AGENTS = 100;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function ingest(dir: string): Promise<void> {
  const store = await RocksStore.open(join(dir, 'ingest'), { sync: true });
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const fqn = new Map<string, string>();
  for (let j = 0; j < JOBS; j++) fqn.set(`job-${j}`, `job::/bench/team${j % 50}/svc${j % 7}::app${j}`);
  const metrics = new MetricStore({ store, clock, log: silentLogger, jobFqn: async (u) => fqn.get(u) });
  let ops = 0;
  let samples = 0;
  let flushMs = 0;
  const cpu0 = cpuMs();
  const wall0 = performance.now();
  for (let k = 0; k < INTERVALS; k++) {
    const t = clock.nowMs();
    for (let a = 0; a < AGENTS; a++) {
      const instances = [];
      for (let j = a; j < JOBS; j += AGENTS) {
        for (let i = 0; i < 2; i++) {
          instances.push({
            instanceUuid: `inst-${j}-${i}`, jobUuid: `job-${j}`, cpuNs: 1e7 * (1 + ((j + k) % 10)), memoryUsed: 50e6, memoryLimit: 256e6, diskUsed: 10e6, diskLimit: 1e9,
            networkRx: 0, networkTx: 0, networkMeasured: false, bandwidthLimit: 0,
          });
        }
      }
      samples += instances.length;
      metrics.usage(`agent-${a}`, `host-${a}`, { samples: [{ timeMs: t + 1000, intervalMs: 10_000, host: { cpuNs: 1e9, cpuTotal: 8e9, memoryUsed: 8e9, memoryTotal: 16e9 }, instances }] });
    }
    clock.advance(10_000);
    const f = await metrics.flush();
    ops += f.ops;
    flushMs += f.ms;
  }
  await metrics.stop();
  const cpu = cpuMs() - cpu0;
  const wall = performance.now() - wall0;
  const simulatedMs = INTERVALS * 10_000;
  console.log(`ingest: ${JOBS} jobs x 2 instances on ${AGENTS} agents, ${INTERVALS} intervals of 10 s (${simulatedMs / 1000} s simulated)`);
  console.log(`  instance samples: ${samples} in ${wall.toFixed(0)} ms wall, ${cpu.toFixed(0)} ms CPU -> ${Math.round(samples / (cpu / 1000))} samples per CPU second`);
  console.log(`  store operations (points and rollups): ${ops}, ${Math.round(ops / INTERVALS)} per flush; flushes took ${(flushMs / INTERVALS).toFixed(1)} ms on average`);
  console.log(`  share of one core in real time: ${((cpu / simulatedMs) * 100).toFixed(2)} % (goal: a small share, under 5 %)`);
  await store.close();
}

async function query(dir: string): Promise<void> {
  const store = await RocksStore.open(join(dir, 'query'), { sync: false });
  const end = Date.UTC(2026, 0, 2);
  const clock = new ManualClock(end);
  const metrics = new MetricStore({ store, clock, log: silentLogger, jobFqn: async () => undefined });
  const res = DEFAULT_RESOLUTIONS[0]!;
  const endS = end / 1000;
  const startS = endS - 86_400;
  const points = 86_400 / 10;
  // Keys as the store writes them (series.ts); values [k, n, fields...].
  const pad = (s: number) => String(s).padStart(11, '0');
  const key = (kind: string, id: string, t: number) => `met/${res.name}/${pad(Math.floor(t / res.partitionS) * res.partitionS)}/${kind}/${encodeURIComponent(id)}/${pad(t)}`;
  const value = (n: number, cpu: number) => {
    const p = new Array<number>(11).fill(0);
    p[0] = 1;
    p[1] = n;
    p[2 + FIELD_INDEX.cpu] = cpu;
    return JSON.stringify(p);
  };
  const w0 = performance.now();
  let batch: { type: 'put'; key: string; value: string }[] = [];
  const put = async (k: string, v: string) => {
    batch.push({ type: 'put', key: k, value: v });
    if (batch.length >= 20_000) {
      await store.batch(batch);
      batch = [];
    }
  };
  for (let j = 0; j < NS_JOBS; j++) for (let p = 0; p < points; p++) await put(key('j', `ns-job-${j}`, startS + p * 10), value(2, 1e8));
  for (let p = 0; p < points; p++) await put(key('n', '/bench', startS + p * 10), value(2 * NS_JOBS, 1e8 * NS_JOBS));
  if (batch.length) await store.batch(batch);
  console.log(`query: ${NS_JOBS} jobs x ${points} points (24 h at 10 s) written in ${((performance.now() - w0) / 1000).toFixed(1)} s`);
  const time = async (what: string, fn: () => Promise<number>) => {
    const runs: number[] = [];
    let n = 0;
    for (let r = 0; r < 5; r++) {
      const t0 = performance.now();
      n = await fn();
      runs.push(performance.now() - t0);
    }
    console.log(`  ${what}: ${median(runs).toFixed(1)} ms (median of 5), ${n} points`);
  };
  await time('cold: one job, 24 h at 10 s', async () => (await metrics.read(res, 'j', 'ns-job-0', startS, endS)).length);
  await time(`cold: namespace of ${NS_JOBS} jobs, pre-aggregated`, async () => (await metrics.read(res, 'n', '/bench', startS, endS)).length);
  const settle0 = performance.now();
  while (performance.now() - settle0 < 600_000) {
    if (store.property('rocksdb.num-running-compactions') === '0' && store.property('rocksdb.compaction-pending') === '0') break;
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log(`  compactions settled after ${((performance.now() - settle0) / 1000).toFixed(1)} s`);
  await time('one job, 24 h at 10 s', async () => (await metrics.read(res, 'j', 'ns-job-0', startS, endS)).length);
  await time(`namespace of ${NS_JOBS} jobs, pre-aggregated`, async () => (await metrics.read(res, 'n', '/bench', startS, endS)).length);
  await time(`namespace of ${NS_JOBS} jobs, raw scan of every job's series`, async () => {
    const sums = new Map<number, number>();
    for (let j = 0; j < NS_JOBS; j++) {
      for (const p of await metrics.read(res, 'j', `ns-job-${j}`, startS, endS)) sums.set(p.t, (sums.get(p.t) ?? 0) + p.p[2 + FIELD_INDEX.cpu]!);
    }
    return sums.size;
  });
  await store.close();
}

const dir = await mkdtemp(join(tmpdir(), 'bench-metrics-'));
try {
  await ingest(dir);
  await query(dir);
} finally {
  await rm(dir, { recursive: true, force: true });
}
