import test from 'ava';
import { JobRequestCounter, LATENCY_BUCKETS_MS, RequestStats } from './request-stats.js';

test('request stats: a counter sums requests, 5xx, latency and buckets per job, and a drain empties it', (t) => {
  const c = new JobRequestCounter();
  c.record('a', 200, 0.5);
  c.record('a', 502, 30);
  c.record('a', 404, 20_000);
  c.record('b', 101, 3);
  const [a, b] = c.drain().sort((x, y) => x.jobUuid.localeCompare(y.jobUuid));
  t.like(a, { jobUuid: 'a', requests: 3, errors: 1, latencySumMs: 20_030.5, latencyMaxMs: 20_000 });
  t.is(a!.latencyBuckets!.length, LATENCY_BUCKETS_MS.length + 1);
  t.is(a!.latencyBuckets![0], 1, '0.5 ms: the first bucket (<= 1 ms)');
  t.is(a!.latencyBuckets![LATENCY_BUCKETS_MS.indexOf(50)], 1, '30 ms: <= 50 ms');
  t.is(a!.latencyBuckets!.at(-1), 1, '20 s: above the last bound');
  t.like(b, { jobUuid: 'b', requests: 1, errors: 0 });
  t.deepEqual(c.drain(), []);
});

test('request stats: the controller merges its router and the reports of others, once per sequence', (t) => {
  const local = new JobRequestCounter();
  let now = 0;
  const stats = new RequestStats(() => now);
  stats.attach(local);
  local.record('a', 200, 10);
  t.true(stats.report('r1', 1, [{ jobUuid: 'a', requests: 4, errors: 1, latencySumMs: 8, latencyMaxMs: 50 }]));
  t.true(stats.report('r2', 1, [{ jobUuid: 'b', requests: 2, errors: 0, latencySumMs: 2, latencyMaxMs: 1 }]));
  t.false(stats.report('r1', 1, [{ jobUuid: 'a', requests: 4, errors: 1, latencySumMs: 8, latencyMaxMs: 50 }]), 'sent again');
  const drained = stats.drain().sort((x, y) => x.jobUuid.localeCompare(y.jobUuid));
  t.like(drained[0], { jobUuid: 'a', requests: 5, errors: 1, latencySumMs: 18, latencyMaxMs: 50 });
  t.like(drained[1], { jobUuid: 'b', requests: 2 });
  t.deepEqual(stats.drain(), []);
  // A router silent for more than 10 minutes is forgotten: its sequence starts over (a restart).
  now = 11 * 60_000;
  t.true(stats.report('r2', 1, []));
  t.true(stats.report('r1', 1, [{ jobUuid: 'a', requests: 1, errors: 0, latencySumMs: 1, latencyMaxMs: 1 }]));
});
