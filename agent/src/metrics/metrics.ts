/**
 * The agent's Prometheus metrics, in its own Registry (never prom-client's global one), served
 * at /metrics on --metrics-listen.
 */
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { INSTANCE_STATES } from '@platform/proto';
import { defaultMetricsOptions } from '@platform/proto/common';

export class AgentMetrics {
  readonly registry = new Registry();
  readonly instances: Gauge;
  readonly starts: Counter;
  readonly failures: Counter<'kind'>;
  readonly cacheHits: Counter;
  readonly cacheMisses: Counter;
  readonly cacheEvictions: Counter;
  readonly bytesFetched: Counter;
  readonly connects: Counter;
  readonly disconnects: Counter;
  readonly heartbeatLag: Histogram;
  readonly logLinesSent: Counter;
  readonly logBytesDropped: Counter;
  readonly drainSent: Counter<'drain'>;
  readonly drainDropped: Counter<'drain'>;
  readonly drainConnected: Gauge<'drain'>;

  /** `countByState` is read at scrape time. */
  constructor(countByState: () => Record<string, number> = () => ({}), opts: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.instances = new Gauge({
      name: 'platform_agent_instances', help: 'Instances on this agent by state', labelNames: ['state'], registers,
      collect() {
        const counts = countByState();
        for (const s of INSTANCE_STATES) this.set({ state: s }, counts[s] ?? 0);
      },
    });
    this.starts = new Counter({ name: 'platform_agent_instance_starts_total', help: 'Instances whose process was started', registers });
    this.failures = new Counter({ name: 'platform_agent_instance_failures_total', help: 'Instances that ended failed, by kind (setup, start, exit, lost, disk)', labelNames: ['kind'], registers });
    this.cacheHits = new Counter({ name: 'platform_agent_package_cache_hits_total', help: 'Package archives found in the cache', registers });
    this.cacheMisses = new Counter({ name: 'platform_agent_package_cache_misses_total', help: 'Package archives fetched from the controller', registers });
    this.cacheEvictions = new Counter({ name: 'platform_agent_package_cache_evictions_total', help: 'Package archives removed from the cache to stay under its bound', registers });
    this.bytesFetched = new Counter({ name: 'platform_agent_package_bytes_fetched_total', help: 'Bytes of package archives fetched', registers });
    this.connects = new Counter({ name: 'platform_agent_session_connects_total', help: 'Sessions welcomed by the controller', registers });
    this.disconnects = new Counter({ name: 'platform_agent_session_disconnects_total', help: 'Sessions that ended', registers });
    this.heartbeatLag = new Histogram({
      name: 'platform_agent_heartbeat_lag_seconds', help: 'How late heartbeats were sent after they were due',
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5], registers,
    });
    this.logLinesSent = new Counter({ name: 'platform_agent_log_lines_sent_total', help: 'Instance log lines sent to the controller', registers });
    this.logBytesDropped = new Counter({ name: 'platform_agent_log_bytes_dropped_total', help: 'Log bytes rotated away before they were sent (while disconnected)', registers });
    this.drainSent = new Counter({ name: 'platform_agent_log_drain_messages_sent_total', help: 'Log lines written to a log drain', labelNames: ['drain'], registers });
    this.drainDropped = new Counter({ name: 'platform_agent_log_drain_messages_dropped_total', help: 'Log lines a log drain could not take (queue full, send failed, drain removed)', labelNames: ['drain'], registers });
    this.drainConnected = new Gauge({ name: 'platform_agent_log_drain_connected', help: '1 while a TCP log drain is connected', labelNames: ['drain'], registers });
    if (opts.defaultMetrics) collectDefaultMetrics({ register: this.registry, ...defaultMetricsOptions('platform_agent_') });
  }
}

/** Serves `/metrics` of `registry` on host:port; resolves with the server once it listens. */
export function serveMetrics(registry: Registry, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${err.message}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
