/** Assembles the Koa application of the REST API from the endpoints of each area. */
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import type { Logger } from '@platform/proto/common';
import type { ControllerMetrics } from '../telemetry/controller-metrics.js';
import type { IdSource } from '../util/ids.js';
import { afterAnswers, closeLingering, failBodyOfLatest } from '../util/http-limits.js';
import { InvalidRequestError, MethodNotAllowedError, NotFoundError, RequestTimeoutError, TooLargeError, type PlatformError } from '../errors.js';
import { toApiError } from './api-error.js';
import type { ClientAddressProof } from './client-address.js';
import { formatMedia } from './media.js';
import { mountEndpoints, type ApiState, type Endpoint } from './endpoint.js';
import { edge, type InFlight } from './middleware.js';
import { dispatchRoutes, indexRoutes } from './route-index.js';
import { LEGACY_NAMES, mountSpecPaths, NOT_SERVED } from './spec-paths.js';

export interface ApiAppOptions {
  log: Logger;
  metrics: ControllerMetrics;
  ids: IdSource;
  endpoints: readonly Endpoint[];
  minimumClientVersion: string;
  inFlight: InFlight;
  /** Runs after the /v1 prefix is removed and before routing: authentication. */
  authenticate: Middleware<ApiState>;
  /** Checks the client's address a standby controller names on what it sends on (client-address.ts); absent on a single controller. */
  clientAddress?: ClientAddressProof | undefined;
  /** Pages served without authentication (the web console's files): not API endpoints. */
  site?: { handles: (path: string) => boolean; serve: Middleware<ApiState> };
}

const ROUTERS = new WeakMap<Koa<ApiState>, Router<ApiState>>();

/**
 * The method and path (router syntax, without `/v1`) of every route an API app serves, read
 * from its router: not the specification's not-served rows nor the 2016 names (spec-paths.ts).
 * For the check that the OpenAPI document lists every served route.
 */
export function servedRoutes(app: Koa<ApiState>): { method: string; path: string }[] {
  const router = ROUTERS.get(app);
  if (!router) return [];
  const special = new Set([...NOT_SERVED, ...LEGACY_NAMES].map((r) => `${r.method} ${r.path}`));
  return router.stack
    .flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) })))
    .filter((r) => !special.has(`${r.method} ${r.path}`));
}

export function createApiApp(o: ApiAppOptions): Koa<ApiState> {
  const app = new Koa<ApiState>();
  app.silent = true; // errors are logged by the `errors` middleware, once, with the request id

  const router = indexRoutes(new Router<ApiState>());
  ROUTERS.set(app, router);
  // First: the specification's paths not served yet and the 2016 names, ahead of the patterns they would fall into.
  mountSpecPaths(router, o.endpoints);
  mountEndpoints(router, o.endpoints);
  router.get('/metrics', async (ctx) => {
    ctx.state.route = '/metrics';
    ctx.type = o.metrics.registry.contentType;
    ctx.body = await o.metrics.registry.metrics();
  });

  app.use(edge(o));
  // The site's paths skip authentication. One frame for both: an API request pays a string
  // comparison, not another level of Koa's chain (see `edge` for what a level costs).
  const { site, authenticate } = o;
  app.use(site ? (ctx, next) => (site.handles(ctx.path) ? site.serve(ctx, next) : authenticate(ctx, next)) : authenticate);
  app.use(dispatchRoutes(router));
  app.use(async (ctx) => {
    if (ctx.state.route !== undefined) return;
    const matched = router.match(ctx.path, ctx.method);
    if (matched.path.length > 0 && !matched.route) {
      const allowed = [...new Set(matched.path.flatMap((layer) => layer.methods))].filter((m) => m !== 'HEAD').sort();
      throw new MethodNotAllowedError(`${ctx.method} is not allowed on ${ctx.path}; allowed: ${allowed.join(', ')}`, allowed);
    }
    throw new NotFoundError(`no endpoint ${ctx.method} ${ctx.path}`);
  });
  return app;
}

/** Longest request head (request line and headers) the API reads: Node's default, kept on purpose. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** What a request that Node's HTTP parser refused is answered with, by the parser's error code. */
function parseError(err: NodeJS.ErrnoException): { status: number; error: PlatformError } {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, error: new TooLargeError(`the request line and headers exceed ${MAX_HEADER_BYTES} bytes`) };
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, error: new RequestTimeoutError('the request did not arrive in time') };
  // llhttp's reason ("Invalid header value char", "Content-Length can't be present with Transfer-Encoding"...)
  // says what was wrong with the request and nothing about the server.
  const { reason } = err as { reason?: unknown };
  return { status: 400, error: new InvalidRequestError(`malformed HTTP request: ${typeof reason === 'string' ? reason : 'not HTTP/1.1'}`) };
}

/**
 * Requests that Node's HTTP parser refuses never reach Koa: a bad request line, a
 * malformed Content-Length, Content-Length with Transfer-Encoding, a head over
 * MAX_HEADER_BYTES. They are answered here, like every other refusal, with an
 * APIError body and a request id (api-error.ts), and the connection is closed. An error in
 * the body of a request being handled goes to that request (util/http-limits.ts
 * failBodyOfLatest: the server must be limited with limitRequests, which follows each
 * connection's latest request).
 */
export function answerClientErrors(server: Server, log: Logger, ids: IdSource): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const { status, error } = parseError(err);
    // The bytes that failed belong to the body of the request being handled (a malformed chunk,
    // a body that took too long): its handler answers, as for any body it cannot read, once
    // its reader sees the failure; the connection closes after that answer. A request answered
    // already gets no second answer: its connection closes. Before the check of a socket that
    // can no longer be written: llhttp reports a malformed chunk again at each later read, also
    // once the answer is out and the connection lingers, and destroying it then resets the
    // connection under the client's upload (the reset that the lingering close avoids).
    const inBody = failBodyOfLatest(socket, error);
    if (inBody === 'failed' && socket.writable) log.info('request body refused', { status, error: error.message, parser: err.code });
    if (inBody) return;
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = ids.requestId();
    const mapped = toApiError(error, requestId);
    const body = JSON.stringify({ ...mapped.body, code: status });
    log.info('request refused', { request_id: requestId, status, error: error.message, parser: err.code });
    const answer = () => {
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      socket.write(
        [
          `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}`,
          `Content-Type: ${formatMedia('apierror', 1)}`,
          `Content-Length: ${Buffer.byteLength(body)}`,
          `X-Request-Id: ${requestId}`,
          'Connection: close',
          '',
          body,
        ].join('\r\n'),
      );
      closeLingering(socket);
    };
    // The bytes that failed to parse may follow a request still being answered on this connection
    // (a body sent without framing is read as the next request): that answer goes first, whole,
    // or the client would take this refusal for it while its request goes on to succeed.
    afterAnswers(socket, answer);
  });
}
