/**
 * The HTTP side of the router: matches a request to a routed path, picks an instance, and
 * streams the request and the response through (bodies are piped with backpressure, never held
 * whole). WebSocket and other upgrades are spliced into a raw two-way pipe.
 *
 * Why node's own http with a keep-alive Agent rather than a proxy library: it streams both ways
 * and upgrades with no extra dependency, and the Agent keeps a pool of idle connections per
 * backend (LIFO, so few stay warm). Idle backend connections close before the instance's own
 * keep-alive timeout would, and a request that finds its pooled connection reset is retried.
 *
 * Answers of the router itself (plain text, with X-Request-Id):
 *   404 no route for the host  ·  503 the route has no running instance  ·
 *   502 the instance refused, reset or failed (after one retry on another instance when the
 *   request is idempotent and has no body)  ·  301 to https for an https_only route over HTTP.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '@platform/proto/common';
import type { JobRequestCounter } from '../request-stats.js';
import type { RouterMetrics, RouteStats } from './router-metrics.js';
import type { Backend, RoutedPath, RoutingTable } from './routing.js';

export const STICKY_COOKIE = 'Platform-LB';

export interface HttpProxyOptions {
  routing: RoutingTable;
  metrics: RouterMetrics;
  /** Requests per job (of the instance chosen), for metric queries and autoscaling. */
  requests: JobRequestCounter;
  log: Logger;
  requestId: () => string;
  /** The port that https redirects name (none for 443 or when there is no TLS listener). */
  httpsPort?: () => number | undefined;
  /** Idle keep-alive connections to instances are closed after this long. Default 4 s (Node apps close theirs at 5 s). */
  idleBackendMs?: number;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

/** The host a request names, lower case, without port or trailing dot; '' when absent. */
export function requestHost(raw: string | undefined): string {
  if (!raw) return '';
  let host = raw.toLowerCase();
  if (host.startsWith('[')) host = host.slice(0, host.indexOf(']') + 1);
  else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0) host = host.slice(0, colon);
  }
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

function pathOf(url: string | undefined): string {
  const u = url ?? '/';
  const q = u.indexOf('?');
  return q < 0 ? u : u.slice(0, q);
}

function clientAddress(socket: Socket): string {
  const a = socket.remoteAddress ?? '';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}

/** The value of cookie `name` in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Headers to send to the instance: hop-by-hop ones dropped, the X-Forwarded-* and X-Request-Id set. */
function forwardHeaders(req: IncomingMessage, secure: boolean, requestId: string, keepUpgrade: boolean): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  const listed = new Set((req.headers.connection ?? '').toLowerCase().split(',').map((s) => s.trim()));
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  if (keepUpgrade && req.headers.upgrade) {
    out['connection'] = 'upgrade';
    out['upgrade'] = req.headers.upgrade;
  }
  const ip = clientAddress(req.socket);
  const xff = req.headers['x-forwarded-for'];
  out['x-forwarded-for'] = xff ? `${Array.isArray(xff) ? xff.join(', ') : xff}, ${ip}` : ip;
  out['x-forwarded-proto'] ??= secure ? 'https' : 'http';
  if (req.headers.host) out['x-forwarded-host'] ??= req.headers.host;
  out['x-request-id'] = requestId;
  return out;
}

function responseHeaders(upstream: IncomingMessage): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  const listed = new Set((upstream.headers.connection ?? '').toLowerCase().split(',').map((s) => s.trim()));
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  return out;
}

/**
 * The Platform-LB cookie to set for `backend`: when the instance's response sets one of the
 * job's sticky cookies (same lifetime as that cookie), or when the request's Platform-LB named
 * an instance that no longer serves (replaced, for the browser's session).
 */
function stickyCookie(backend: Backend, setCookie: string[] | undefined, replaced: boolean): string | undefined {
  if (backend.stickyCookies.length > 0) {
    for (const c of setCookie ?? []) {
      const eq = c.indexOf('=');
      if (eq <= 0 || !backend.stickyCookies.includes(c.slice(0, eq).trim())) continue;
      const lifetime = c
        .split(';')
        .slice(1)
        .map((a) => a.trim())
        .filter((a) => /^(max-age|expires)=/i.test(a));
      return [`${STICKY_COOKIE}=${backend.instance}`, 'Path=/', 'HttpOnly', ...lifetime].join('; ');
    }
  }
  return replaced ? `${STICKY_COOKIE}=${backend.instance}; Path=/; HttpOnly` : undefined;
}

export class HttpProxy {
  readonly agent: http.Agent;
  readonly #unmatched: RouteStats;
  /** Upgraded connections: the HTTP server no longer tracks them, so `close` ends them here. */
  readonly #tunnels = new Set<Duplex>();

  constructor(private readonly o: HttpProxyOptions) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1024, maxFreeSockets: 256, scheduling: 'lifo', timeout: o.idleBackendMs ?? 4_000 });
    this.#unmatched = o.metrics.route('');
  }

  /** Picks the sticky instance when the request names one that serves, else the next by weight. */
  #choose(route: RoutedPath, req: IncomingMessage, avoid?: string): { backend: Backend | undefined; replaced: boolean } {
    const sticky = avoid === undefined ? cookieValue(req.headers.cookie, STICKY_COOKIE) : undefined;
    if (sticky) {
      const b = route.backendOf(sticky);
      if (b) return { backend: b, replaced: false };
    }
    return { backend: route.pick(avoid), replaced: sticky !== undefined };
  }

  /** Counts an answer of `status` (metrics per route, and per job when an instance was chosen). */
  #answered(stats: RouteStats, started: bigint, status: number, job: string | undefined): void {
    this.o.metrics.answered(stats, status);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    stats.latency.observe(seconds);
    if (job !== undefined) this.o.requests.record(job, status, seconds * 1000);
  }

  #reply(res: ServerResponse, stats: RouteStats, started: bigint, requestId: string, status: number, text: string, headers: Record<string, string> = {}, job?: string): void {
    this.#answered(stats, started, status, job);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = `${text}\n`;
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId, ...headers });
    res.end(body);
  }

  /** Where an https_only route sends a plain HTTP request. */
  #httpsLocation(req: IncomingMessage, host: string): string {
    const port = this.o.httpsPort?.();
    return `https://${host}${port && port !== 443 ? `:${port}` : ''}${req.url ?? '/'}`;
  }

  handle(req: IncomingMessage, res: ServerResponse, secure: boolean): void {
    const started = process.hrtime.bigint();
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && given.length > 0 && given.length <= 200 ? given : this.o.requestId();
    const host = requestHost(req.headers.host);
    const route = host ? this.o.routing.matchHttp(host, pathOf(req.url)) : undefined;
    if (!route) {
      req.resume();
      this.#reply(res, this.#unmatched, started, requestId, 404, `404 Not Found: no route for host "${host}"`);
      return;
    }
    const stats = this.o.metrics.route(route.label);
    if (route.httpsOnly && !secure) {
      req.resume();
      this.#reply(res, stats, started, requestId, 301, `301 Moved Permanently: ${route.label} is served over https only`, {
        location: this.#httpsLocation(req, host),
      });
      return;
    }
    const retriable =
      IDEMPOTENT.has(req.method ?? '') && (req.headers['content-length'] === undefined || req.headers['content-length'] === '0') && !req.headers['transfer-encoding'];
    stats.active++;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      stats.active--;
    };
    res.once('close', finish);
    req.on('data', (chunk: Buffer) => (stats.bytesIn += chunk.length));

    const attempt = (n: number, avoid?: string): void => {
      const { backend, replaced } = this.#choose(route, req, avoid);
      if (!backend) {
        req.resume();
        this.#reply(res, stats, started, requestId, 503, `503 Service Unavailable: no running instance serves ${route.label}`);
        return;
      }
      const upstream = http.request({
        agent: this.agent,
        host: backend.host,
        port: backend.port,
        method: req.method,
        path: req.url,
        headers: forwardHeaders(req, secure, requestId, false),
      });
      let answered = false;
      upstream.on('response', (up) => {
        answered = true;
        const headers = responseHeaders(up);
        const setCookie = up.headers['set-cookie'];
        const sticky = stickyCookie(backend, setCookie, replaced);
        if (sticky) headers['set-cookie'] = [...(setCookie ?? []), sticky];
        headers['x-request-id'] ??= requestId;
        this.#answered(stats, started, up.statusCode ?? 502, backend.job);
        res.writeHead(up.statusCode ?? 502, up.statusMessage, headers);
        up.on('data', (chunk: Buffer) => (stats.bytesOut += chunk.length));
        up.pipe(res);
        up.on('error', () => res.destroy());
      });
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        if (answered || res.writableEnded || res.destroyed) {
          res.destroy();
          return;
        }
        if (retriable && n === 0 && !req.destroyed) {
          this.o.log.debug('instance failed; trying another', { route: route.label, instance: backend.instance, err: err.code ?? err.message, request_id: requestId });
          attempt(1, backend.instance);
          return;
        }
        this.o.log.warn('instance failed', { route: route.label, instance: backend.instance, err: err.code ?? err.message, request_id: requestId });
        this.#reply(
          res,
          stats,
          started,
          requestId,
          502,
          `502 Bad Gateway: the instance serving ${route.label} ${err.code === 'ECONNREFUSED' ? 'refused the connection' : 'failed'} (${err.code ?? err.message})`,
          {},
          backend.job,
        );
      });
      // The client went away: stop the instance's work too.
      res.once('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      if (retriable) upstream.end();
      else req.pipe(upstream);
    };
    attempt(0);
  }

  /** An upgrade (WebSocket): the instance's 101 and then raw bytes both ways. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, secure: boolean): void {
    const started = process.hrtime.bigint();
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && given.length > 0 && given.length <= 200 ? given : this.o.requestId();
    const host = requestHost(req.headers.host);
    const route = host ? this.o.routing.matchHttp(host, pathOf(req.url)) : undefined;
    socket.on('error', () => socket.destroy());
    const rawReply = (stats: RouteStats, status: number, text: string, extra = '', job?: string) => {
      this.#answered(stats, started, status, job);
      const body = `${text}\n`;
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
          `x-request-id: ${requestId}\r\n${extra}connection: close\r\n\r\n${body}`,
      );
    };
    if (!route) return rawReply(this.#unmatched, 404, `404 Not Found: no route for host "${host}"`);
    const stats = this.o.metrics.route(route.label);
    if (route.httpsOnly && !secure) return rawReply(stats, 301, `301 Moved Permanently: ${route.label} is served over https only`, `location: ${this.#httpsLocation(req, host)}\r\n`);
    const { backend } = this.#choose(route, req);
    if (!backend) return rawReply(stats, 503, `503 Service Unavailable: no running instance serves ${route.label}`);
    const upstream = http.request({
      agent: false,
      host: backend.host,
      port: backend.port,
      method: req.method,
      path: req.url,
      headers: forwardHeaders(req, secure, requestId, true),
    });
    upstream.on('upgrade', (up, upSocket, upHead) => {
      this.#answered(stats, started, 101, backend.job);
      stats.active++;
      let lines = `HTTP/1.1 101 ${up.statusMessage ?? 'Switching Protocols'}\r\n`;
      for (let i = 0; i < up.rawHeaders.length; i += 2) lines += `${up.rawHeaders[i]}: ${up.rawHeaders[i + 1]}\r\n`;
      socket.write(`${lines}\r\n`);
      if (upHead.length > 0) socket.write(upHead);
      if (head.length > 0) upSocket.write(head);
      upSocket.on('data', (c: Buffer) => (stats.bytesOut += c.length));
      socket.on('data', (c: Buffer) => (stats.bytesIn += c.length));
      upSocket.pipe(socket).pipe(upSocket);
      this.#tunnels.add(socket);
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        stats.active--;
        this.#tunnels.delete(socket);
        upSocket.destroy();
        socket.destroy();
      };
      upSocket.on('error', close).on('close', close);
      socket.on('error', close).on('close', close);
    });
    upstream.on('response', (up) => {
      // The instance did not upgrade: pass its answer on and close.
      this.#answered(stats, started, up.statusCode ?? 502, backend.job);
      let lines = `HTTP/1.1 ${up.statusCode} ${up.statusMessage ?? ''}\r\n`;
      for (let i = 0; i < up.rawHeaders.length; i += 2) {
        if (!HOP_BY_HOP.has(up.rawHeaders[i]!.toLowerCase())) lines += `${up.rawHeaders[i]}: ${up.rawHeaders[i + 1]}\r\n`;
      }
      socket.write(`${lines}connection: close\r\n\r\n`);
      up.pipe(socket);
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (socket.writable) rawReply(stats, 502, `502 Bad Gateway: the instance serving ${route.label} failed (${err.code ?? err.message})`, '', backend.job);
    });
    upstream.end();
  }

  close(): void {
    for (const t of this.#tunnels) t.destroy();
    this.agent.destroy();
  }
}
