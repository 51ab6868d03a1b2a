/**
 * Prometheus metrics of a router, per route (`host[/path]`, or a TCP/UDP endpoint): requests by
 * status class, latency, bytes each way, active connections. Counted in plain numbers on the
 * request path and handed to prom-client when Prometheus scrapes (prom-client hashes labels on
 * every inc(), which costs more than the proxying of a small request).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import { AggregatingHistogram, type Series } from '../../telemetry/aggregating-histogram.js';

export interface RouteStats {
  readonly latency: Series;
  /** Requests answered, by status class (`2xx` ...). */
  readonly answered: Map<string, number>;
  bytesIn: number;
  bytesOut: number;
  active: number;
}

const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

export class RouterMetrics {
  readonly #stats = new Map<string, RouteStats>();
  readonly #latency: AggregatingHistogram<'route'>;

  constructor(registry: Registry) {
    const stats = this.#stats;
    this.#latency = new AggregatingHistogram(
      'platform_router_request_duration_seconds',
      'Time from a request reaching the router to the end of its response head, by route.',
      ['route'],
      [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registry,
    );
    new Counter({
      name: 'platform_router_requests_total',
      help: 'Requests (TCP and UDP: connections and flows) answered by the router, by route and status class.',
      labelNames: ['route', 'class'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [route, s] of stats) for (const [cls, n] of s.answered) this.inc({ route, class: cls }, n);
      },
    });
    new Counter({
      name: 'platform_router_bytes_total',
      help: 'Body bytes through the router, by route and direction (in: from clients, out: to clients).',
      labelNames: ['route', 'direction'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [route, s] of stats) {
          if (s.bytesIn > 0) this.inc({ route, direction: 'in' }, s.bytesIn);
          if (s.bytesOut > 0) this.inc({ route, direction: 'out' }, s.bytesOut);
        }
      },
    });
    new Gauge({
      name: 'platform_router_active_connections',
      help: 'Requests in progress (HTTP, WebSocket) and open connections (TCP) through the router, by route.',
      labelNames: ['route'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [route, s] of stats) this.set({ route }, s.active);
      },
    });
  }

  /** The stats of one route label (kept for the router's life: route labels are few). */
  route(label: string): RouteStats {
    let s = this.#stats.get(label);
    if (!s) {
      s = { latency: this.#latency.series({ route: label }), answered: new Map(), bytesIn: 0, bytesOut: 0, active: 0 };
      this.#stats.set(label, s);
    }
    return s;
  }

  /** Requests that matched no route are counted under route "". */
  answered(stats: RouteStats, status: number): void {
    const cls = STATUS_CLASSES[Math.floor(status / 100)] ?? `${Math.floor(status / 100)}xx`;
    stats.answered.set(cls, (stats.answered.get(cls) ?? 0) + 1);
  }
}
