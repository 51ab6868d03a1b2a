/**
 * The controller's Prometheus metrics. Each controller owns its Registry (never
 * prom-client's global one), so that several controllers, or tests, can live in
 * one process.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { defaultMetricsOptions } from '@platform/proto/common';
import { AggregatingHistogram } from './aggregating-histogram.js';

/**
 * Counts requests without touching prom-client on the request path: increments
 * go to a plain map, and are added to the counter when Prometheus scrapes.
 * prom-client hashes label values on every inc(), which is most of its cost.
 */
export class RequestCounter {
  readonly #pending = new Map<string, RequestCount>();

  constructor(private readonly counter: Counter<'method' | 'route' | 'status'>) {}

  /**
   * The count of one label set, to keep and increment (`n++`): a caller that finds it by
   * objects it already holds builds no key per request.
   */
  count(method: string, route: string, status: number): RequestCount {
    const key = `${method} ${route} ${status}`;
    let entry = this.#pending.get(key);
    if (!entry) this.#pending.set(key, (entry = { labels: [method, route, String(status)], n: 0 }));
    return entry;
  }

  /** Moves the pending counts into the prom-client counter (the entries stay, at zero). */
  flush(): void {
    for (const entry of this.#pending.values()) {
      if (entry.n > 0) this.counter.inc({ method: entry.labels[0], route: entry.labels[1], status: entry.labels[2] }, entry.n);
      entry.n = 0;
    }
  }
}

/** Requests counted since the last scrape, for one method, route and status. */
export interface RequestCount {
  readonly labels: [string, string, string];
  n: number;
}

export interface ControllerMetrics {
  readonly registry: Registry;
  readonly httpRequests: RequestCounter;
  readonly httpDuration: AggregatingHistogram<'method' | 'route'>;
  readonly storeDuration: AggregatingHistogram<'op'>;
  readonly actorActivations: Counter<'kind'>;
  readonly actorPassivations: Counter<'kind'>;
  readonly uploadBytes: Counter;
  readonly gatewayOrphans: Counter<'type' | 'kind' | 'outcome'>;
  /** Registers a gauge whose value is read when Prometheus scrapes. */
  gaugeFrom(name: string, help: string, labelName: string, read: () => Record<string, number>): void;
}

export function createControllerMetrics(options: { defaultMetrics?: boolean } = {}): ControllerMetrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, ...defaultMetricsOptions('platform_controller_') });

  let requests: RequestCounter | undefined = undefined;
  const requestCounter = new Counter({
    name: 'platform_http_requests_total',
    help: 'API requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
    collect() {
      requests?.flush();
    },
  });
  requests = new RequestCounter(requestCounter);

  return {
    registry,
    httpRequests: requests,
    httpDuration: new AggregatingHistogram(
      'platform_http_request_duration_seconds',
      'API request latency, by method and route pattern.',
      ['method', 'route'],
      [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registry,
    ),
    storeDuration: new AggregatingHistogram(
      'platform_store_operation_duration_seconds',
      'Latency of store operations, by operation.',
      ['op'],
      [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 0.5],
      registry,
    ),
    actorActivations: new Counter({
      name: 'platform_actor_activations_total',
      help: 'Actors brought into memory, by kind.',
      labelNames: ['kind'],
      registers: [registry],
    }),
    actorPassivations: new Counter({
      name: 'platform_actor_passivations_total',
      help: 'Idle actors released from memory, by kind.',
      labelNames: ['kind'],
      registers: [registry],
    }),
    uploadBytes: new Counter({
      name: 'platform_package_upload_bytes_total',
      help: 'Bytes of package archives received (including uploads refused afterwards).',
      registers: [registry],
    }),
    gatewayOrphans: new Counter({
      name: 'platform_gateway_orphans_total',
      help: 'Objects a service gateway made (or may have made) that the cluster does not keep, by service type, kind (provider, service, binding) and outcome (deleted again, not_deleted: left at the gateway, unknown: no id to delete by).',
      labelNames: ['type', 'kind', 'outcome'],
      registers: [registry],
    }),
    gaugeFrom(name, help, labelName, read) {
      new Gauge({
        name,
        help,
        labelNames: [labelName],
        registers: [registry],
        collect() {
          this.reset();
          for (const [label, value] of Object.entries(read())) this.set({ [labelName]: label }, value);
        },
      });
    },
  };
}
