/**
 * The metric endpoints' limits: a window is cut to the kept data and to now, a series holds at
 * most MAX_SERIES_POINTS points and an answer MAX_ANSWER_POINTS; what goes past them is refused
 * in `errors` before anything is read, so one request cannot hold the controller for minutes or
 * build an answer it cannot write.
 */
import test from 'ava';
import type { Job } from '@platform/controller';
import { unique } from '../harness/fixtures.js';
import { useController } from '../harness/suite.js';

const suite = useController(test);

interface MetricResponse {
  metrics: Record<string, Record<string, { times: number[]; values: number[] }>>;
  errors: Record<string, string>;
}

const query = (...metrics: string[]) => `/v1/metrics/jobs?${metrics.map((m) => `metric=${encodeURIComponent(m)}`).join('&')}`;

test('metrics: a window from long ago is cut to the kept data; one before it, or too many points, is refused', async (t) => {
  const api = suite.api();
  const fqn = `job::/metric-limits/${unique()}::j`;
  t.is((await api.post<Job>('/v1/jobs', { fqn })).status, 200);
  const nowS = Date.now() / 1000;

  // 100,000 years ago: read as from the oldest kept point (365 days), a day a bucket.
  const far = `${fqn},cpu.sum:avg-1d,-100000y`;
  const longAgo = `${fqn},cpu.sum,-10y,-5y`;
  const tooFine = `${fqn},cpu.sum:avg-1s,-1y`;
  const r = await api.get<MetricResponse>(query(far, longAgo, tooFine));
  t.is(r.status, 200, r.text);
  const series = r.body.metrics[far]?.[fqn];
  t.truthy(series, r.text.slice(0, 300));
  t.true(series!.times.length >= 365 && series!.times.length <= 367, `${series!.times.length} daily buckets`);
  t.true(series!.times[0]! >= nowS - 367 * 86_400, 'the first bucket is within the kept year');
  t.regex(r.body.errors[longAgo] ?? '', /^nothing is kept from before /);
  t.regex(r.body.errors[tooFine] ?? '', /^31536001 points of 1 s: at most 10000 a series; .*:avg-53min/);
  t.is(r.body.metrics[tooFine], undefined);
});

test('metrics: an answer holds at most 500,000 points over its series; a query past it is refused and the others are answered', async (t) => {
  const api = suite.api();
  const ns = `job::/metric-limits/${unique()}`;
  for (let i = 0; i < 60; i++) t.is((await api.post<Job>('/v1/jobs', { fqn: `${ns}::j${i}` })).status, 200);
  // 60 series of a year of hourly points (8,761 each): 525,660 points.
  const many = `${ns},cpu.sum:avg-1h,-1y`;
  const few = `${ns}::j0,cpu.sum:avg-1h,-1y`;
  const r = await api.get<MetricResponse>(query(few, many));
  t.is(r.status, 200, r.text.slice(0, 300));
  t.is(Object.keys(r.body.metrics[few] ?? {}).length, 1);
  t.regex(r.body.errors[many] ?? '', /^60 series of up to 8761 points are more than this answer can hold \(500000 points in all\)/);
  // Alone, within a smaller window, the same 60 series are answered.
  const week = `${ns},cpu.sum:avg-1h,-7d`;
  const w = await api.get<MetricResponse>(query(week));
  t.deepEqual(w.body.errors, {});
  t.is(Object.keys(w.body.metrics[week] ?? {}).length, 60);
});
