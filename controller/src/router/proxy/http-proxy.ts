/**
 * The HTTP side of the router: matches a request to a routed path, picks an instance, and
 * streams the request and the response through (bodies are piped with backpressure, never held
 * whole). WebSocket and other upgrades are spliced into a raw two-way pipe.
 *
 * Requests without a body (most of them: GET, HEAD, DELETE ...) go to instances through
 * InstanceClient (instance-client.ts): keep-alive connections pooled per instance, the request
 * head in one write, the answer read by Node's own llhttp parser (a fifth less CPU per proxied
 * request than undici). Requests with a body go through undici (the HTTP/1.1 client of the Node.js
 * project, which Node's fetch is built on), which streams them with backpressure; both read the
 * answer back with backpressure (the client's `drain` resumes reading the instance). The client
 * side is node:http's server; the instance's header lines go to it as a flat list, in their
 * spelling. Idle connections to instances close before the instance's own keep-alive timeout
 * would (4 s, and sooner when the instance's Keep-Alive header says so), and a request that finds
 * its pooled connection reset is retried. Upgrades (WebSocket) use node:http, spliced into a raw
 * pipe.
 *
 * Answers of the router itself (plain text, with X-Request-Id):
 *   404 no route for the host  ·  503 the route has no running instance  ·
 *   502 the instance refused, reset or failed (after one retry on another instance when the
 *   request is idempotent and has no body)  ·  301 to https for an https_only route over HTTP.
 */
import http, { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import type { Logger } from '@platform/proto/common';
import { bodyFailure } from '../../util/http-limits.js';
import type { JobRequestCounter } from '../request-stats.js';
import { InstanceClient, type InstanceRequest, type InstanceResponseHandler } from './instance-client.js';
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
  /** Idle keep-alive connections to instances are closed after this long at most. Default 4 s (Node apps close theirs at 5 s). */
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

/** Connection header values that name no other header. */
const COMMON_CONNECTION = new Set(['keep-alive', 'close', 'upgrade']);

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

/** The names a Connection header lists (hop-by-hop for this message), lower case; undefined when none. */
function connectionListed(value: string | undefined): Set<string> | undefined {
  if (!value) return undefined;
  // The usual values name no header: no lists built per request for them.
  if (value.length <= 10 && COMMON_CONNECTION.has(value.toLowerCase())) return undefined;
  const names = value.toLowerCase().split(',').map((n) => n.trim()).filter((n) => n !== 'close' && n !== 'keep-alive' && n !== 'upgrade');
  return names.length > 0 ? new Set(names) : undefined;
}

/**
 * Headers to send to the instance, as a flat [name, value, ...] list in the client's spelling:
 * hop-by-hop ones (and `Expect`, which Node's server has answered) dropped, `X-Forwarded-For`
 * appended to, `X-Forwarded-Proto` and `-Host` set unless given, `X-Request-Id` set.
 */
function forwardHeaders(req: IncomingMessage, secure: boolean, requestId: string): string[] {
  const raw = req.rawHeaders;
  const listed = connectionListed(req.headers.connection);
  const out: string[] = [];
  let forwardedFor: string | undefined;
  let proto = false;
  let fhost = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || lower === 'expect' || listed?.has(lower)) continue;
    if (lower === 'x-forwarded-for') {
      forwardedFor = forwardedFor === undefined ? raw[i + 1]! : `${forwardedFor}, ${raw[i + 1]!}`;
      continue;
    }
    if (lower === 'x-request-id') continue;
    if (lower === 'x-forwarded-proto') proto = true;
    else if (lower === 'x-forwarded-host') fhost = true;
    out.push(name, raw[i + 1]!);
  }
  const ip = clientAddress(req.socket);
  out.push('x-forwarded-for', forwardedFor === undefined ? ip : `${forwardedFor}, ${ip}`);
  if (!proto) out.push('x-forwarded-proto', secure ? 'https' : 'http');
  if (!fhost && req.headers.host) out.push('x-forwarded-host', req.headers.host);
  out.push('x-request-id', requestId);
  return out;
}

/** Headers for an upgrade request to the instance (node:http), hop-by-hop ones dropped but the upgrade kept. */
function upgradeHeaders(req: IncomingMessage, secure: boolean, requestId: string): http.OutgoingHttpHeaders {
  const flat = forwardHeaders(req, secure, requestId);
  const out: http.OutgoingHttpHeaders = {};
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i]!.toLowerCase();
    const prev = out[name];
    out[name] = prev === undefined ? flat[i + 1]! : [...(Array.isArray(prev) ? prev : [String(prev)]), flat[i + 1]!];
  }
  if (req.headers.upgrade) {
    out['connection'] = 'upgrade';
    out['upgrade'] = req.headers.upgrade;
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

/**
 * The response head for the client, as a flat [name, value, ...] list in the instance's
 * spelling (latin1 strings: their bytes as they came): hop-by-hop headers dropped, the router's sticky cookie added when due, and
 * X-Request-Id added unless the instance gave one.
 */
function responseHeaders(raw: readonly string[], backend: Backend, replaced: boolean, requestId: string): string[] {
  let out: string[] = [];
  let listed: Set<string> | undefined;
  let setCookie: string[] | undefined;
  let requestIdGiven = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower)) {
      if (lower === 'connection') listed = connectionListed(value);
      continue;
    }
    if (lower === 'set-cookie') (setCookie ??= []).push(value);
    else if (lower === 'x-request-id') requestIdGiven = true;
    out.push(name, value);
  }
  if (listed) {
    // Rare: names the Connection header made hop-by-hop for this message.
    const kept: string[] = [];
    for (let i = 0; i < out.length; i += 2) if (!listed.has(out[i]!.toLowerCase())) kept.push(out[i]!, out[i + 1]!);
    out = kept;
  }
  const sticky = stickyCookie(backend, setCookie, replaced);
  if (sticky) out.push('set-cookie', sticky);
  if (!requestIdGiven) out.push('x-request-id', requestId);
  return out;
}

/** The request body as undici reads it, counted into the route's bytes in. */
async function* countedBody(req: IncomingMessage, stats: RouteStats): AsyncGenerator<Buffer> {
  for await (const chunk of req as AsyncIterable<Buffer>) {
    stats.bytesIn += chunk.length;
    yield chunk;
  }
}

const CLIENT_GONE = 'the client went away';

/**
 * A request body that broke off or stalled (router.ts fails it on the request stream, see
 * util/http-limits.ts): the exchange answers the client with `status` instead of the 502 of an
 * instance that failed, and the instance's request has ended with it.
 */
export class RouterRequestError extends Error {
  override readonly name = 'RouterRequestError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Picks the sticky instance when the request names one that serves, else the next by weight. */
function choose(route: RoutedPath, req: IncomingMessage, avoid?: string): { backend: Backend | undefined; replaced: boolean } {
  const sticky = avoid === undefined && req.headers.cookie !== undefined ? cookieValue(req.headers.cookie, STICKY_COOKIE) : undefined;
  if (sticky) {
    const b = route.backendOf(sticky);
    if (b) return { backend: b, replaced: false };
  }
  return { backend: route.pick(avoid), replaced: sticky !== undefined };
}

/** Counts an answer of `status` (metrics per route, and per job when an instance was chosen); `started` from performance.now(). */
function countAnswer(o: HttpProxyOptions, stats: RouteStats, started: number, status: number, job: string | undefined): void {
  o.metrics.answered(stats, status);
  const ms = performance.now() - started;
  stats.latency.observe(ms / 1000);
  if (job !== undefined) o.requests.record(job, status, ms);
}

/** An answer of the router itself: plain text, with X-Request-Id. */
function reply(
  o: HttpProxyOptions,
  res: ServerResponse,
  stats: RouteStats,
  started: number,
  requestId: string,
  status: number,
  text: string,
  headers: Record<string, string> = {},
  job?: string,
): void {
  countAnswer(o, stats, started, status, job);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = `${text}\n`;
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId, ...headers });
  res.end(body);
}

/** What a proxied request carries from one attempt to the next. */
interface ExchangeRequest {
  req: IncomingMessage;
  res: ServerResponse;
  route: RoutedPath;
  stats: RouteStats;
  /** performance.now() when it arrived. */
  started: number;
  requestId: string;
  method: Dispatcher.HttpMethod;
  /** Headers for the instance, flat. */
  headers: string[];
  body: AsyncIterable<Buffer> | null;
  /** Idempotent and without a body: tried once more on another instance when the first fails. */
  retriable: boolean;
}

/**
 * One proxied request, and the handler of its answer: InstanceClient's for a request without a
 * body, undici's for one with a body. Of undici, its own callbacks (onConnect, onHeaders with the
 * raw header lines, onData, onComplete, onError) are what its HTTP/1.1 client calls; a handler
 * of the newer style (onRequestStart ...) is wrapped per request in an adapter that also parses
 * the headers into an object, which the router would only turn back into a list. Methods rather
 * than closures: a request allocates this object and little else.
 */
class Exchange implements Dispatcher.DispatchHandler, InstanceResponseHandler {
  /** undici's: ends the request to the instance. */
  #abort: ((err?: Error) => void) | undefined;
  /** undici's: reads the instance's answer again after backpressure. */
  #resume: (() => void) | undefined;
  /** InstanceClient's request in flight. */
  #request: InstanceRequest | undefined;
  #onDrain: (() => void) | undefined;
  #backend: Backend | undefined;
  #replaced = false;
  #answered = false;
  #retried = false;
  readonly #onClose = (): void => {
    this.x.stats.active--;
    // The instance's request in flight ends when the client goes away.
    if (!this.x.res.writableFinished) {
      this.#abort?.(new Error(CLIENT_GONE));
      this.#request?.abort();
    }
  };

  constructor(
    private readonly o: HttpProxyOptions,
    private readonly pool: Agent,
    private readonly client: InstanceClient,
    private readonly x: ExchangeRequest,
  ) {
    x.stats.active++;
    x.res.on('close', this.#onClose);
  }

  /** Sends the request to an instance (the sticky one when it serves), avoiding `avoid`; 503 when none serves. */
  send(avoid?: string): void {
    const { req, res, route, stats, started, requestId } = this.x;
    const { backend, replaced } = choose(route, req, avoid);
    if (!backend) {
      req.resume();
      reply(this.o, res, stats, started, requestId, 503, `503 Service Unavailable: no running instance serves ${route.label}`);
      return;
    }
    this.#backend = backend;
    this.#replaced = replaced;
    this.#abort = undefined;
    if (this.x.body === null) {
      this.#request = this.client.request(backend.origin, backend.host, backend.port, this.x.method, req.url ?? '/', this.x.headers, this);
      return;
    }
    this.pool.dispatch(
      { origin: backend.origin, path: req.url ?? '/', method: this.x.method, headers: this.x.headers, body: this.x.body as Dispatcher.DispatchOptions['body'] },
      this,
    );
  }

  onConnect(abort: (err?: Error) => void): void {
    this.#abort = abort;
  }

  onHeaders(status: number, raw: Buffer[], resume: () => void, statusText: string): boolean {
    if (status < 200) return true; // 1xx informational answers are not passed on
    this.#resume = resume;
    const lines = new Array<string>(raw.length);
    for (let i = 0; i < raw.length; i++) lines[i] = raw[i]!.toString('latin1');
    this.onHead(status, statusText, lines);
    return !this.x.res.destroyed;
  }

  onHead(status: number, statusText: string, headers: string[]): void {
    const { res, stats, started, requestId } = this.x;
    const backend = this.#backend!;
    this.#answered = true;
    countAnswer(this.o, stats, started, status, backend.job);
    if (res.destroyed) {
      this.#abort?.(new Error(CLIENT_GONE));
      this.#request?.abort();
      return;
    }
    res.writeHead(status, statusText || undefined, responseHeaders(headers, backend, this.#replaced, requestId));
  }

  onData(chunk: Buffer): boolean {
    this.x.stats.bytesOut += chunk.length;
    if (this.x.res.write(chunk)) return true;
    // Backpressure: the instance is not read until the client has taken this in.
    this.x.res.once('drain', (this.#onDrain ??= () => this.#drained()));
    return false;
  }

  #drained(): void {
    this.#resume?.();
    this.#request?.resume();
  }

  onComplete(): void {
    this.x.res.end();
  }

  onEnd(): void {
    this.x.res.end();
  }

  onError(err: Error & { code?: string }): void {
    const { res, route, stats, started, requestId } = this.x;
    const backend = this.#backend!;
    if (this.#answered || res.writableEnded || res.destroyed) {
      res.destroy();
      return;
    }
    const refused = bodyFailure(this.x.req);
    if (refused instanceof RouterRequestError) {
      this.o.log.info('request body refused', { route: route.label, status: refused.status, error: refused.message, request_id: requestId });
      reply(this.o, res, stats, started, requestId, refused.status, `${refused.status} ${STATUS_CODES[refused.status]}: ${refused.message}`, { connection: 'close' }, backend.job);
      return;
    }
    const code = err.code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : (err.code ?? err.message);
    if (this.x.retriable && !this.#retried) {
      this.#retried = true;
      this.o.log.debug('instance failed; trying another', { route: route.label, instance: backend.instance, err: code, request_id: requestId });
      this.send(backend.instance);
      return;
    }
    this.o.log.warn('instance failed', { route: route.label, instance: backend.instance, err: code, request_id: requestId });
    reply(
      this.o,
      res,
      stats,
      started,
      requestId,
      502,
      `502 Bad Gateway: the instance serving ${route.label} ${code === 'ECONNREFUSED' ? 'refused the connection' : 'failed'} (${code})`,
      {},
      backend.job,
    );
  }
}

export class HttpProxy {
  /** Keep-alive connections to instances for requests with a body (undici), pooled per instance address. */
  readonly #pool: Agent;
  /** Keep-alive connections to instances for requests without a body. */
  readonly #client: InstanceClient;
  readonly #unmatched: RouteStats;
  /** Upgraded connections: the HTTP server no longer tracks them, so `close` ends them here. */
  readonly #tunnels = new Set<Duplex>();

  constructor(private readonly o: HttpProxyOptions) {
    this.#pool = new Agent({
      keepAliveTimeout: o.idleBackendMs ?? 4_000,
      keepAliveMaxTimeout: o.idleBackendMs ?? 4_000,
      connections: 1024,
      pipelining: 1,
      // Streams may be quiet for long (server-sent events, long polls): no body timeout.
      bodyTimeout: 0,
    });
    this.#client = new InstanceClient(o.idleBackendMs ?? 4_000);
    this.#unmatched = o.metrics.route('');
  }

  /** Where an https_only route sends a plain HTTP request. */
  #httpsLocation(req: IncomingMessage, host: string): string {
    const port = this.o.httpsPort?.();
    return `https://${host}${port && port !== 443 ? `:${port}` : ''}${req.url ?? '/'}`;
  }

  handle(req: IncomingMessage, res: ServerResponse, secure: boolean): void {
    const started = performance.now();
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && given.length > 0 && given.length <= 200 ? given : this.o.requestId();
    const host = requestHost(req.headers.host);
    const route = host ? this.o.routing.matchHttp(host, pathOf(req.url)) : undefined;
    if (!route) {
      req.resume();
      reply(this.o, res, this.#unmatched, started, requestId, 404, `404 Not Found: no route for host "${host}"`);
      return;
    }
    const stats = this.o.metrics.route(route.label);
    if (route.httpsOnly && !secure) {
      req.resume();
      reply(this.o, res, stats, started, requestId, 301, `301 Moved Permanently: ${route.label} is served over https only`, {
        location: this.#httpsLocation(req, host),
      });
      return;
    }
    const method = req.method ?? 'GET';
    const length = req.headers['content-length'];
    const bodyless = (length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined;
    // A body streams to the instance as undici reads it (with backpressure), counted on the way.
    if (bodyless) req.resume();
    new Exchange(this.o, this.#pool, this.#client, {
      req,
      res,
      route,
      stats,
      started,
      requestId,
      method: method as Dispatcher.HttpMethod,
      headers: forwardHeaders(req, secure, requestId),
      body: bodyless ? null : countedBody(req, stats),
      retriable: bodyless && IDEMPOTENT.has(method),
    }).send();
  }

  /** An upgrade (WebSocket): the instance's 101 and then raw bytes both ways. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, secure: boolean): void {
    const started = performance.now();
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && given.length > 0 && given.length <= 200 ? given : this.o.requestId();
    const host = requestHost(req.headers.host);
    const route = host ? this.o.routing.matchHttp(host, pathOf(req.url)) : undefined;
    socket.on('error', () => socket.destroy());
    const rawReply = (stats: RouteStats, status: number, text: string, extra = '', job?: string) => {
      countAnswer(this.o, stats, started, status, job);
      const body = `${text}\n`;
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
          `x-request-id: ${requestId}\r\n${extra}connection: close\r\n\r\n${body}`,
      );
    };
    if (!route) return rawReply(this.#unmatched, 404, `404 Not Found: no route for host "${host}"`);
    const stats = this.o.metrics.route(route.label);
    if (route.httpsOnly && !secure) return rawReply(stats, 301, `301 Moved Permanently: ${route.label} is served over https only`, `location: ${this.#httpsLocation(req, host)}\r\n`);
    const { backend } = choose(route, req);
    if (!backend) return rawReply(stats, 503, `503 Service Unavailable: no running instance serves ${route.label}`);
    const upstream = http.request({
      agent: false,
      host: backend.host,
      port: backend.port,
      method: req.method,
      path: req.url,
      headers: upgradeHeaders(req, secure, requestId),
    });
    upstream.on('upgrade', (up, upSocket, upHead) => {
      countAnswer(this.o, stats, started, 101, backend.job);
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
      countAnswer(this.o, stats, started, up.statusCode ?? 502, backend.job);
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
    void this.#pool.destroy();
    this.#client.close();
  }
}
