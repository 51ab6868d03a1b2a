/**
 * The controller's Prometheus metrics. Each controller owns its Registry (never
 * prom-client's global one), so that several controllers, or tests, can live in
 * one process.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface ControllerMetrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route'>;
  readonly storeDuration: Histogram<'op'>;
  readonly actorActivations: Counter<'kind'>;
  readonly actorPassivations: Counter<'kind'>;
  readonly uploadBytes: Counter;
  /** Registers a gauge whose value is read when Prometheus scrapes. */
  gaugeFrom(name: string, help: string, labelName: string, read: () => Record<string, number>): void;
}

export function createControllerMetrics(options: { defaultMetrics?: boolean } = {}): ControllerMetrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'platform_controller_' });

  return {
    registry,
    httpRequests: new Counter({
      name: 'platform_http_requests_total',
      help: 'API requests answered, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'platform_http_request_duration_seconds',
      help: 'API request latency, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [registry],
    }),
    storeDuration: new Histogram({
      name: 'platform_store_operation_duration_seconds',
      help: 'Latency of store operations, by operation.',
      labelNames: ['op'],
      buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 0.5],
      registers: [registry],
    }),
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
      help: 'Bytes of package archives received and verified.',
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
