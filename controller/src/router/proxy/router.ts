/**
 * A router: HTTP listeners in front of the instances that the route table names. It follows a
 * table feed (the controller's table in-process, or the gRPC watch stream of a standalone
 * router) and never asks anything on the request path: matching and balancing are local.
 *
 * Lifecycle: `Router.start` listens; `stop(graceMs)` stops accepting, lets requests in flight
 * finish for up to `graceMs`, then closes what is left; `closed` resolves once stopped.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from '../../log/logger.js';
import type { TableUpdate } from '../route-table.js';
import { HttpProxy } from './http-proxy.js';
import { RouterMetrics } from './router-metrics.js';
import { RoutingTable } from './routing.js';

export interface Listen {
  host: string;
  port: number;
}

/** Subscribes to table updates (a snapshot first); returns the unsubscribe function. */
export type TableFeed = (listener: (update: TableUpdate) => void) => () => void;

export interface RouterOptions {
  /** Plain HTTP listener. */
  listen: Listen;
  feed: TableFeed;
  /** Where the router's metrics are registered (the owner serves it). */
  registry: Registry;
  log: Logger;
  requestId: () => string;
}

function listenOn(server: http.Server, at: Listen): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export function formatAddress(server: http.Server): string {
  const a = server.address() as AddressInfo;
  return a.family === 'IPv6' ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`;
}

export class Router {
  readonly routing = new RoutingTable();
  readonly metrics: RouterMetrics;
  readonly #proxy: HttpProxy;
  readonly #server: http.Server;
  #unsubscribe: (() => void) | undefined;
  #stopping: Promise<void> | undefined;

  private constructor(private readonly o: RouterOptions) {
    this.metrics = new RouterMetrics(o.registry);
    this.#proxy = new HttpProxy({ routing: this.routing, metrics: this.metrics, log: o.log, requestId: o.requestId });
    this.#server = http.createServer({ keepAliveTimeout: 65_000 }, (req, res) => this.#proxy.handle(req, res, false));
    this.#server.on('upgrade', (req, socket, head) => this.#proxy.upgrade(req, socket, head, false));
    this.#server.on('clientError', (_err, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    });
  }

  static async start(o: RouterOptions): Promise<Router> {
    const router = new Router(o);
    router.#unsubscribe = o.feed((update) => router.routing.apply(update));
    try {
      await listenOn(router.#server, o.listen);
    } catch (err) {
      router.#unsubscribe?.();
      throw err;
    }
    o.log.info('router listening', { http: router.address });
    return router;
  }

  /** host:port of the HTTP listener. */
  get address(): string {
    return formatAddress(this.#server);
  }

  stop(graceMs = 5_000): Promise<void> {
    this.#stopping ??= (async () => {
      this.#unsubscribe?.();
      const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
      this.#server.closeIdleConnections();
      const force = setTimeout(() => this.#server.closeAllConnections(), graceMs);
      force.unref();
      await closed;
      clearTimeout(force);
      this.#proxy.close();
    })();
    return this.#stopping;
  }
}
