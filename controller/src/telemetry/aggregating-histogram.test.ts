import test from 'ava';
import { Registry } from 'prom-client';
import { AggregatingHistogram } from './aggregating-histogram.js';

test('aggregating histogram: exposes cumulative buckets, sum and count per label set', async (t) => {
  const registry = new Registry();
  const h = new AggregatingHistogram('demo_seconds', 'A demo.', ['route'], [0.1, 1], registry);
  const a = h.series({ route: '/a' });
  for (const v of [0.05, 0.5, 5]) a.observe(v);
  h.series({ route: '/b' }).observe(0.01);
  t.is(h.series({ route: '/a' }), a);
  const text = await registry.metrics();
  for (const line of [
    '# TYPE demo_seconds histogram',
    'demo_seconds_bucket{le="0.1",route="/a"} 1',
    'demo_seconds_bucket{le="1",route="/a"} 2',
    'demo_seconds_bucket{le="+Inf",route="/a"} 3',
    'demo_seconds_sum{route="/a"} 5.55',
    'demo_seconds_count{route="/a"} 3',
    'demo_seconds_bucket{le="0.1",route="/b"} 1',
  ]) {
    t.true(text.includes(line), line);
  }
});

test('aggregating histogram: startTimer observes the elapsed time', async (t) => {
  const registry = new Registry();
  const h = new AggregatingHistogram('timer_seconds', 'A timer.', ['op'], [10], registry);
  const end = h.startTimer({ op: 'x' });
  end();
  t.true((await registry.metrics()).includes('timer_seconds_count{op="x"} 1'));
});
