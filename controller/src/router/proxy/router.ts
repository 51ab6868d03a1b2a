/**
 * A router: HTTP listeners in front of the instances that the route table names. It follows a
 * table feed (the controller's table in-process, or the gRPC watch stream of a standalone
 * router) and never asks anything on the request path: matching and balancing are local.
 *
 * Lifecycle: `Router.start` listens; `stop(graceMs)` stops accepting, lets requests in flight
 * finish for up to `graceMs`, then closes what is left; `closed` resolves once stopped.
 */
import { X509Certificate } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import type { Registry } from 'prom-client';
import type { Logger } from '@platform/proto/common';
import { JobRequestCounter } from '../request-stats.js';
import type { TableUpdate } from '../route-table.js';
import { afterAnswers, checkingIntervalMs, closeLingering, DEFAULT_HTTP_LIMITS, failBodyOfLatest, limitRequests, type HttpLimits } from '../../util/http-limits.js';
import { HttpProxy, RouterRequestError } from './http-proxy.js';
import { RouterMetrics } from './router-metrics.js';
import { RoutingTable } from './routing.js';
import { StreamProxy } from './stream-proxy.js';

export interface Listen {
  host: string;
  port: number;
}

/** Subscribes to table updates (a snapshot first); returns the unsubscribe function. */
export type TableFeed = (listener: (update: TableUpdate) => void) => () => void;

/** A certificate chain and its private key, PEM. */
export interface CertificatePair {
  cert: string;
  key: string;
}

export interface RouterTlsOptions {
  listen: Listen;
  /**
   * TLS ends at the router. With several, the one whose names match the client's SNI host name
   * is used (wildcards as in the certificate); the first when none matches or no SNI is sent.
   */
  certificates: CertificatePair[];
}

export interface RouterOptions {
  /** Plain HTTP listener. */
  listen: Listen;
  /** HTTPS listener; none when absent. */
  tls?: RouterTlsOptions;
  feed: TableFeed;
  /** Where the router's metrics are registered (the owner serves it). */
  registry: Registry;
  log: Logger;
  requestId: () => string;
  /** A UDP flow without datagrams for this long ends. Default 30 s. */
  udpFlowTimeoutMs?: number;
  /** How long a client may take to send a request (util/http-limits.ts). Defaults: DEFAULT_HTTP_LIMITS. */
  httpLimits?: Partial<HttpLimits>;
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
  /** Requests per job since the last drain (the controller reads the embedded router's; a standalone one reports them). */
  readonly requests = new JobRequestCounter();
  readonly #proxy: HttpProxy;
  readonly #server: http.Server;
  readonly #tlsServer: https.Server | undefined;
  readonly #streams: StreamProxy;
  readonly #limits: HttpLimits;
  #unsubscribe: (() => void) | undefined;
  #stopping: Promise<void> | undefined;

  private constructor(private readonly o: RouterOptions) {
    this.#limits = { ...DEFAULT_HTTP_LIMITS, ...o.httpLimits };
    this.metrics = new RouterMetrics(o.registry);
    this.#proxy = new HttpProxy({
      routing: this.routing,
      metrics: this.metrics,
      requests: this.requests,
      log: o.log,
      requestId: o.requestId,
      httpsPort: () => (this.#tlsServer?.address() as AddressInfo | null)?.port,
    });
    // TCP and UDP routes listen on the HTTP listener's address, on the port each route names.
    this.#streams = new StreamProxy({
      routing: this.routing,
      metrics: this.metrics,
      log: o.log,
      host: o.listen.host,
      ...(o.udpFlowTimeoutMs ? { flowTimeoutMs: o.udpFlowTimeoutMs } : {}),
    });
    this.routing.onUpdate = () => this.#streams.sync();
    this.#server = http.createServer({ connectionsCheckingInterval: checkingIntervalMs(this.#limits) });
    this.#serve(this.#server, false);
    if (o.tls) {
      const { certificates } = o.tls;
      if (certificates.length === 0) throw new Error('the TLS listener needs at least one certificate');
      const contexts = certificates.map((c) => ({ x509: new X509Certificate(c.cert), context: tls.createSecureContext(c) }));
      this.#tlsServer = https.createServer({
        connectionsCheckingInterval: checkingIntervalMs(this.#limits),
        ...certificates[0]!,
        SNICallback: (servername, done) => done(null, (contexts.find((c) => c.x509.checkHost(servername)) ?? contexts[0]!).context),
      });
      this.#serve(this.#tlsServer, true);
    }
  }

  #serve(server: http.Server, secure: boolean): void {
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => this.#proxy.handle(req, res, secure));
    server.on('upgrade', (req: http.IncomingMessage, socket, head: Buffer) => this.#proxy.upgrade(req, socket, head, secure));
    limitRequests(server, this.#limits, () => new RouterRequestError(408, `the request body stalled: no byte of it arrived for ${this.#limits.bodyIdleTimeoutMs / 1000} s`));
    server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
      const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      const reason = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'the request did not arrive in time' : `malformed HTTP request: ${(err as { reason?: string }).reason ?? 'not HTTP/1.1'}`;
      // A body that broke off while it was being passed on to an instance: the exchange ends the
      // instance's request and answers (http-proxy.ts), then the connection closes; once that
      // request was answered, the connection closes without a second answer.
      if (failBodyOfLatest(socket, new RouterRequestError(status, reason))) return;
      if (err.code === 'ECONNRESET' || !socket.writable) {
        socket.destroy();
        return;
      }
      const body = `${status} ${http.STATUS_CODES[status]}: ${reason}\n`;
      // After the answers still going out on this connection, not in the middle of one.
      afterAnswers(socket, () => {
        if (!socket.writable) {
          socket.destroy();
          return;
        }
        socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
        closeLingering(socket);
      });
    });
  }

  static async start(o: RouterOptions): Promise<Router> {
    const router = new Router(o);
    router.#unsubscribe = o.feed((update) => router.routing.apply(update));
    try {
      await listenOn(router.#server, o.listen);
      if (router.#tlsServer && o.tls) await listenOn(router.#tlsServer, o.tls.listen);
    } catch (err) {
      router.#unsubscribe?.();
      router.#streams.close();
      router.#server.close();
      throw err;
    }
    o.log.info('router listening', { http: router.address, ...(router.tlsAddress ? { https: router.tlsAddress } : {}) });
    return router;
  }

  /** host:port of the HTTP listener. */
  get address(): string {
    return formatAddress(this.#server);
  }

  /** host:port of the HTTPS listener, when there is one. */
  get tlsAddress(): string | undefined {
    return this.#tlsServer ? formatAddress(this.#tlsServer) : undefined;
  }

  stop(graceMs = 5_000): Promise<void> {
    this.#stopping ??= (async () => {
      this.#unsubscribe?.();
      const servers = [this.#server, ...(this.#tlsServer ? [this.#tlsServer] : [])];
      const closed = Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
      for (const s of servers) s.closeIdleConnections();
      const force = setTimeout(() => servers.forEach((s) => s.closeAllConnections()), graceMs);
      force.unref();
      this.#streams.close();
      await closed;
      clearTimeout(force);
      this.#proxy.close();
    })();
    return this.#stopping;
  }
}
