/**
 * What the autoscaler observes, from the controller's own parts: CPU from the metric store,
 * custom `http_metric` values polled over HTTP (on every running instance for a `$INSTANCE` url;
 * a url polled as written only at an address the destination rule allows), and the router's
 * request series when the store has them.
 */
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { destinationRefusal, type DestinationPolicy, type Logger } from '@platform/proto/common';
import type { InstanceRecord } from '../model/instance.js';
import { RUNNING_STATES } from '../model/instance.js';
import { parseMetricUrl } from '../model/job.js';
import type { MetricStore } from './metric-store.js';
import type { ScaledJob } from './autoscaler.js';
import { FIELD_INDEX, STEP_S } from './series.js';

const HTTP_TIMEOUT_MS = 5_000;
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * A float answered as text by `url` (undefined when it fails or is not a number). A redirect
 * is not followed (an answer of its own). `destinations`: the rule the url's address must pass,
 * judged on the address connected to; absent for `$INSTANCE` urls (addresses the platform gave).
 */
async function pollFloat(url: URL, destinations?: DestinationPolicy): Promise<number | undefined> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const connect = destinations?.connectOptions(host, port) ?? {};
    const req = (url.protocol === 'https:' ? httpsGet : httpGet)(url, { agent: false, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS), ...connect }, resolve);
    req.on('error', reject);
  });
  if (res.statusCode !== 200) {
    res.resume();
    return undefined;
  }
  let text = '';
  for await (const chunk of res as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.length > MAX_ANSWER_BYTES) {
      res.destroy();
      return undefined;
    }
  }
  const v = Number.parseFloat(text.trim());
  return Number.isFinite(v) ? v : undefined;
}

export function autoscaleObserver(o: {
  metrics: MetricStore;
  nowMs(): number;
  instancesOf(job: string): InstanceRecord[];
  /** The rule the address of an http_metric url polled as written must pass (--allowed-destinations). */
  destinations: DestinationPolicy;
  /** Hears a url refused by the rule. */
  log?: Logger;
}) {
  const poll = (job: ScaledJob, metric: string, url: URL, destinations?: DestinationPolicy) =>
    pollFloat(url, destinations).catch((err: unknown) => {
      const refused = destinationRefusal(err);
      if (refused) o.log?.warn('an http_metric url is refused', { job: job.uuid, metric, err: refused.message });
      return undefined;
    });
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
    const target = parseMetricUrl(rule.config.url);
    if ('error' in target) return undefined;
    if (!target.instance) return poll(job, metric, target.url, o.destinations);
    const addresses = o
      .instancesOf(job.uuid)
      .filter((i) => RUNNING_STATES.has(i.state))
      .map((i) => Object.values(i.ports)[0])
      .filter((a): a is string => a !== undefined);
    const values = (await Promise.all(addresses.map((a) => poll(job, metric, new URL(`${target.scheme}${a}${target.path}`))))).filter((v): v is number => v !== undefined);
    return values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : undefined;
  };
}
