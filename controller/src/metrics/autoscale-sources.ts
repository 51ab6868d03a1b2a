/**
 * What the autoscaler observes, from the controller's own parts: CPU from the metric store,
 * custom `http_metric` values polled over HTTP (on every running instance for a `$INSTANCE` url),
 * and the router's request series when the store has them.
 */
import type { InstanceRecord } from '../model/instance.js';
import { RUNNING_STATES } from '../model/instance.js';
import type { MetricStore } from './metric-store.js';
import type { ScaledJob } from './autoscaler.js';
import { FIELD_INDEX, STEP_S } from './series.js';

const HTTP_TIMEOUT_MS = 5_000;

/** A float answered as text by `url` (undefined when it fails or is not a number). */
async function pollFloat(url: string): Promise<number | undefined> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    if (!r.ok) return undefined;
    const v = Number.parseFloat((await r.text()).trim());
    return Number.isFinite(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export function autoscaleObserver(o: { metrics: MetricStore; nowMs(): number; instancesOf(job: string): InstanceRecord[] }) {
  return async (job: ScaledJob, metric: string, windowS: number): Promise<number | undefined> => {
    if (metric === 'cpu_per_second') {
      const nowS = Math.floor(o.nowMs() / 1000);
      const points = await o.metrics.read(o.metrics.resolutions[0]!, 'j', job.uuid, nowS - windowS, nowS);
      let cpu = 0;
      let n = 0;
      for (const p of points) {
        cpu += p.p[2 + FIELD_INDEX.cpu] ?? 0;
        n += p.p[1] ?? 0;
      }
      // Mean per instance, ns per second -> ms of CPU per second (the unit of resources.cpu).
      return n > 0 ? cpu / n / 1e6 : undefined;
    }
    if (metric === 'requests_per_second' || metric === 'request_latency') {
      // Per instance, over the window: requests per second, or the mean latency in seconds.
      const nowS = Math.floor(o.nowMs() / 1000);
      const points = await o.metrics.read(o.metrics.resolutions[0]!, 'j', job.uuid, nowS - windowS, nowS);
      let requests = 0;
      let latency = 0;
      let instances = 0;
      for (const p of points) {
        requests += p.p[2 + FIELD_INDEX.requests] ?? 0;
        latency += p.p[2 + FIELD_INDEX.latency_ms_sum] ?? 0;
        instances += p.p[1] ?? 0;
      }
      if (metric === 'request_latency') return requests > 0 ? latency / requests / 1000 : undefined;
      // instances / points = the mean count; requests / (points * 10 s) = requests per second.
      return instances > 0 ? requests / STEP_S / instances : undefined;
    }
    const rule = job.monitoring[metric];
    if (!rule || rule.type !== 'http_metric') return undefined;
    const url = rule.config.url;
    const m = /^(https?:\/\/)\$INSTANCE(?::\d+)?(\/.*)?$/.exec(url);
    if (!m) return pollFloat(url);
    const addresses = o
      .instancesOf(job.uuid)
      .filter((i) => RUNNING_STATES.has(i.state))
      .map((i) => Object.values(i.ports)[0])
      .filter((a): a is string => a !== undefined);
    const values = (await Promise.all(addresses.map((a) => pollFloat(`${m[1]}${a}${m[2] ?? '/'}`)))).filter((v): v is number => v !== undefined);
    return values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : undefined;
  };
}
