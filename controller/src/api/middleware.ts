/** The middleware every request passes first (`edge`), and the count of requests in flight. */
import type { Middleware } from 'koa';
import type { Series } from '../telemetry/aggregating-histogram.js';
import type { ControllerMetrics, RequestCount } from '../telemetry/controller-metrics.js';
import type { Logger } from '@platform/proto/common';
import type { IdSource } from '../util/ids.js';
import { toApiError } from './api-error.js';
import { CLIENT_ADDRESS_HEADER, PROOF_WINDOW_MS, type ClientAddressProof } from './client-address.js';
import type { ApiState } from './endpoint.js';
import { API_ERROR_MEDIA, negotiateMedia, varyOnAccept } from './media.js';

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

/** A request id as a client sent it, when it is one the API keeps (else the API makes its own). */
export function validRequestId(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' && REQUEST_ID_RE.test(header) ? header : undefined;
}

/** At most one warning of stale client address proofs per this long (ms): each is a request, and they come in runs. */
const STALE_WARNING_MS = 60_000;

/** Counts requests whose handlers are still running, so that a stop can wait for them. */
export class InFlight {
  #count = 0;
  #waiters: (() => void)[] = [];

  get count(): number {
    return this.#count;
  }

  enter(): void {
    this.#count++;
  }

  leave(): void {
    this.#count--;
    if (this.#count === 0) for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Resolves when no handler runs, or after `timeoutMs`; true when idle. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.#count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/**
 * What every request passes before authentication, in one middleware (one frame of Koa's
 * chain instead of four: measured, each level of the chain cost about a microsecond of the
 * ~70 of a GET at 64 connections):
 *
 *   request context  request id (header X-Request-Id, in and out), per-request logger,
 *                    Minimum-Client-Version header
 *   client address   on a request a standby sent on, the client's address it names with a
 *                    valid proof (client-address.ts) becomes the request's `ctx.ip`, for
 *                    everything after; the header is removed, proven or not
 *   version prefix   `/v1/...` and `/...` reach the same handlers
 *   errors           any error becomes an APIError body (api-error.ts)
 *   observe          request count and latency by route pattern; one log line per request
 *                    (after the error became the answer, so with its status)
 */
export function edge(o: {
  log: Logger;
  ids: IdSource;
  minimumClientVersion: string;
  inFlight: InFlight;
  metrics: ControllerMetrics;
  /** Checks the client's address a standby names (controllers on etcd); absent: never taken. */
  clientAddress?: ClientAddressProof | undefined;
}): Middleware<ApiState> {
  const { log, ids, minimumClientVersion, inFlight, metrics, clientAddress } = o;
  const series = new Map<string, Map<string, { histogram: Series; counts: Map<number, RequestCount> }>>();
  let staleWarnedMs = -Infinity;
  return async (ctx, next) => {
    inFlight.enter();
    const start = process.hrtime.bigint();
    const incoming = ctx.req.headers['x-request-id'];
    const requestId = validRequestId(incoming) ?? ids.requestId();
    ctx.state.requestId = requestId;
    const claimed = ctx.req.headers[CLIENT_ADDRESS_HEADER];
    if (claimed !== undefined) takeClientAddress(ctx, claimed, incoming);
    // Read now, while the request has its socket: Koa's ctx.ip reads ctx.req.socket, which a
    // request whose body broke off no longer has when it is logged (the read would throw there).
    const client = ctx.ip;
    ctx.state.log = log;
    // Authentication sets the token's principal; requests without one (the token endpoint) are anonymous.
    ctx.state.principal = 'anonymous';
    ctx.res.setHeader('X-Request-Id', requestId);
    ctx.res.setHeader('Minimum-Client-Version', minimumClientVersion);
    try {
      const path = ctx.path;
      if (path === '/v1' || path.startsWith('/v1/')) ctx.path = path.slice(3) || '/';
      await next();
      const json = ctx.state.json;
      if (json !== undefined && ctx.body === undefined) writeJson(ctx, json);
    } catch (err) {
      answerError(ctx, err);
    } finally {
      try {
        record(ctx, client, Number(process.hrtime.bigint() - start) / 1e9);
      } finally {
        inFlight.leave();
      }
    }
  };

  /**
   * Makes the address a standby names the request's `ctx.ip` when its proof holds for the
   * request id the standby sent (`incoming`); ignores it otherwise. Removes the header either way.
   */
  function takeClientAddress(ctx: Parameters<Middleware<ApiState>>[0], claimed: string | string[], incoming: string | string[] | undefined): void {
    delete ctx.req.headers[CLIENT_ADDRESS_HEADER];
    const peer = ctx.req.socket.remoteAddress;
    const checked = clientAddress && typeof claimed === 'string' && typeof incoming === 'string' ? clientAddress.check(claimed, incoming) : { refused: 'malformed' as const };
    if ('address' in checked) {
      ctx.request.ip = checked.address;
      return;
    }
    // Forged or malformed: anyone may send the header, so only at debug. Replayed: only a
    // controller makes a valid proof, so one was read on its way and sent again: warn each.
    // Stale: the controllers' clocks are apart (or an old one is replayed): warn, in runs.
    if (checked.refused === 'replayed') {
      log.warn('a request named its client with a proof of the client address that a request before it had already used: someone sends on proofs read between the controllers; the TCP peer is taken for it', { request_id: ctx.state.requestId, peer });
    } else if (checked.refused === 'stale' && Date.now() - staleWarnedMs >= STALE_WARNING_MS) {
      staleWarnedMs = Date.now();
      log.warn(`a request sent on by a standby named its client with a proof made more than ${PROOF_WINDOW_MS / 1000} s away from this controller's clock: the standby's address is taken for it; are the controllers' clocks apart?`, { request_id: ctx.state.requestId, peer });
    } else {
      log.debug('client address header ignored', { request_id: ctx.state.requestId, peer, why: clientAddress ? checked.refused : 'no shared key (a single controller)' });
    }
  }

  function record(ctx: Parameters<Middleware<ApiState>>[0], client: string, seconds: number): void {
    const route = ctx.state.route ?? 'unmatched';
    const method = ctx.method;
    const status = ctx.status;
    // Found by the route pattern (a constant of its endpoint), the method (from Node's parser's
    // table) and the status: no key is built per request.
    let byMethod = series.get(route);
    if (!byMethod) series.set(route, (byMethod = new Map()));
    let slot = byMethod.get(method);
    if (!slot) byMethod.set(method, (slot = { histogram: metrics.httpDuration.series({ method, route }), counts: new Map() }));
    let count = slot.counts.get(status);
    if (!count) slot.counts.set(status, (count = metrics.httpRequests.count(method, route, status)));
    count.n++;
    slot.histogram.observe(seconds);
    if (status >= 400 || log.isLevelEnabled('debug')) {
      const fields = {
        request_id: ctx.state.requestId,
        method,
        path: ctx.originalUrl,
        route,
        status,
        client,
        ms: Math.round(seconds * 1e6) / 1e3,
        ...(ctx.state.error ? { error: ctx.state.error } : {}),
      };
      if (status >= 500) log.error('request failed', fields);
      else if (status >= 400) log.info('request refused', fields);
      else log.debug('request', fields);
    }
  }
}

/**
 * Writes a JSON answer of sendJsonText (its status and headers set) in place of Koa: what Koa
 * does for a string body, Content-Length and the text (Node leaves out the body of a HEAD).
 */
function writeJson(ctx: Parameters<Middleware<ApiState>>[0], json: string): void {
  ctx.respond = false;
  const res = ctx.res;
  if (res.headersSent || !ctx.writable) return;
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

/** Makes `err` the answer: an APIError body with its status and headers. */
function answerError(ctx: Parameters<Middleware<ApiState>>[0], err: unknown): void {
  const mapped = toApiError(err, ctx.state.requestId);
  ctx.state.error = mapped.body.message;
  ctx.state.json = undefined; // an answer the handler made before it failed
  if (mapped.internal) {
    ctx.state.log.error('unexpected error', { request_id: ctx.state.requestId, path: ctx.originalUrl, err });
  }
  ctx.status = mapped.status;
  for (const [k, v] of Object.entries(mapped.headers)) ctx.set(k, v);
  // A refused body may still be arriving; do not read it to keep the connection.
  if (!ctx.req.complete) ctx.set('Connection', 'close');
  ctx.set('Content-Type', negotiateMedia(API_ERROR_MEDIA, ctx.req.headers.accept));
  varyOnAccept(ctx);
  ctx.body = JSON.stringify(mapped.body);
}
