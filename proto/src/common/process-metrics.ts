/**
 * The options every program passes to prom-client's `collectDefaultMetrics` besides its registry:
 * its metric name prefix, and how often the event loop's delay is sampled.
 *
 * prom-client samples the delay every 10 ms by default, with a timer of its own: an idle
 * controller's main thread woke about 200 times a second for it (strace, 5 s: 1,004 epoll waits;
 * 134 at 100 ms) and spent 9.5-10 ms of CPU a second instead of 5.5-6.5. The
 * `*_nodejs_eventloop_lag_*` gauges keep their meaning; between two scrapes 15 s apart they
 * summarise 150 samples instead of 1,500, and a stall of the loop shows in them either way.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

export interface DefaultMetricsOptions {
  prefix: string;
  eventLoopMonitoringPrecision: number;
}

/** `prefix`: the program's, e.g. `platform_controller_`. */
export function defaultMetricsOptions(prefix: string): DefaultMetricsOptions {
  return { prefix, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS };
}
