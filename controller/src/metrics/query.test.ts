import test from 'ava';
import { downsample, parseInterval, parseMetricQuery, parseTime, QueryError } from './query.js';

// Wednesday 2026-01-07 10:30:00 UTC
const NOW = Date.UTC(2026, 0, 7, 10, 30) / 1000;
const at = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi) / 1000;

test('metric query: relative times in every unit, now, and the absolute forms', (t) => {
  t.is(parseTime('now', NOW), NOW);
  t.is(parseTime('-30s', NOW), NOW - 30);
  t.is(parseTime('-5min', NOW), NOW - 300);
  t.is(parseTime('-6h', NOW), NOW - 6 * 3600);
  t.is(parseTime('-2d', NOW), NOW - 2 * 86_400);
  t.is(parseTime('-1w', NOW), NOW - 7 * 86_400);
  t.is(parseTime('-1mon', NOW), NOW - 30 * 86_400);
  t.is(parseTime('-1y', NOW), NOW - 365 * 86_400);
  t.is(parseTime('14:05_260103', NOW), at(2026, 1, 3, 14, 5));
  t.is(parseTime('20251231', NOW), at(2025, 12, 31));
  t.is(parseTime('12/25/25', NOW), at(2025, 12, 25));
  t.throws(() => parseTime('20250231', NOW), { instanceOf: QueryError });
  t.throws(() => parseTime('-5x', NOW), { instanceOf: QueryError });
});

test('metric query: the at(1) forms', (t) => {
  t.is(parseTime('noon', NOW), at(2026, 1, 7, 12));
  t.is(parseTime('midnight', NOW), at(2026, 1, 8), 'midnight has passed today: the next one');
  t.is(parseTime('teatime', NOW), at(2026, 1, 7, 16));
  t.is(parseTime('9:00', NOW), at(2026, 1, 8, 9), 'a time already past is tomorrow');
  t.is(parseTime('11:15', NOW), at(2026, 1, 7, 11, 15));
  t.is(parseTime('3pm', NOW), at(2026, 1, 7, 15));
  t.is(parseTime('10:00 am tomorrow', NOW), at(2026, 1, 8, 10));
  t.is(parseTime('noon tomorrow', NOW), at(2026, 1, 8, 12));
  t.is(parseTime('midnight today', NOW), at(2026, 1, 7));
  t.is(parseTime('tomorrow', NOW), at(2026, 1, 8));
  t.is(parseTime('now + 2 hours', NOW), NOW + 7200);
  t.is(parseTime('now+30 minutes', NOW), NOW + 1800);
  t.is(parseTime('teatime + 1 day', NOW), at(2026, 1, 8, 16));
  t.is(parseTime('1630 2026-02-01', NOW), at(2026, 2, 1, 16, 30));
  t.is(parseTime('noon jan 2 2026', NOW), at(2026, 1, 2, 12));
  t.is(parseTime('08:00 31.12.2025', NOW), at(2025, 12, 31, 8));
  t.is(parseTime('midnight 1/5/2026', NOW), at(2026, 1, 5));
  for (const bad of ['soon', 'now + 2 fortnights', '25:00', '13pm', 'noon extra', 'feb x']) t.throws(() => parseTime(bad, NOW), { instanceOf: QueryError }, bad);
});

test('metric query: target, metric with suffix, down-sampling and the default window', (t) => {
  const q = parseMetricQuery('job::/platform::guide,cpu.mean:avg-1h,-6h,now', NOW, true);
  t.deepEqual(q, { text: 'job::/platform::guide,cpu.mean:avg-1h,-6h,now', target: 'job::/platform::guide', field: 'cpu', aggregate: 'mean', downsample: { fn: 'avg', intervalS: 3600 }, fromS: NOW - 6 * 3600, untilS: NOW });
  const d = parseMetricQuery('job::/a,mem_used.count', NOW, true);
  t.is(d.fromS, NOW - 86_400);
  t.is(d.untilS, NOW);
  t.is(parseMetricQuery('*,disk_used', NOW, false).aggregate, 'value');
  for (const bad of ['job::/a', 'job::/a,cpu', 'job::/a,cpu.total', 'job::/a,cpux.sum', 'job::/a,cpu.sum:median-1h', 'job::/a,cpu.sum:avg-1q', 'job::/a,cpu.sum,now,-1h', 'job::/a,cpu.sum:avg-1h:x']) {
    t.throws(() => parseMetricQuery(bad, NOW, true), { instanceOf: QueryError }, bad);
  }
  t.throws(() => parseMetricQuery('h,network_rx', NOW, false), { message: /not a metric/ });
  t.throws(() => parseMetricQuery('h,cpu.sum', NOW, false), { instanceOf: QueryError });
  t.is(parseInterval('5min'), 300);
});

test('metric query: down-sampling rounds buckets to the interval, every function, empty buckets 0', (t) => {
  const pts = [
    { t: 100, v: 1 },
    { t: 110, v: 3 },
    { t: 130, v: null },
    { t: 200, v: 5 },
  ];
  t.deepEqual(downsample(pts, 'avg', 60, 95, 250), { times: [60, 120, 180, 240], values: [2, 0, 5, 0] });
  t.deepEqual(downsample(pts, 'sum', 60, 60, 200).values, [4, 0, 5]);
  t.deepEqual(downsample(pts, 'max', 60, 60, 200).values, [3, 0, 5]);
  t.deepEqual(downsample(pts, 'min', 60, 60, 200).values, [1, 0, 5]);
  t.deepEqual(downsample(pts, 'last', 60, 60, 200).values, [3, 0, 5]);
});
