import test from 'ava';
import { createRequire } from 'node:module';
import type * as PerfHooks from 'node:perf_hooks';
import { EVENT_LOOP_SAMPLE_MS } from '@platform/proto/common';
import { createControllerMetrics } from './controller-metrics.js';

// prom-client reads perf_hooks.monitorEventLoopDelay when the default metrics are collected: the
// resolution it asks for is how often an idle controller's event loop is woken for it.
const perfHooks = createRequire(import.meta.url)('node:perf_hooks') as typeof PerfHooks;

test.serial('the default metrics sample the event loop every EVENT_LOOP_SAMPLE_MS, not prom-client\'s 10 ms', async (t) => {
  const original = perfHooks.monitorEventLoopDelay;
  const asked: (number | undefined)[] = [];
  perfHooks.monitorEventLoopDelay = (options) => {
    asked.push(options?.resolution);
    return original(options);
  };
  try {
    const metrics = createControllerMetrics();
    t.deepEqual(asked, [EVENT_LOOP_SAMPLE_MS]);
    t.is(EVENT_LOOP_SAMPLE_MS, 100);
    t.regex(await metrics.registry.metrics(), /^platform_controller_nodejs_eventloop_lag_p99_seconds \d/m);
  } finally {
    perfHooks.monitorEventLoopDelay = original;
  }
});
