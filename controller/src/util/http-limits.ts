/**
 * How long a client may take to send a request, on every HTTP server of the controller (the
 * API, the embedded router) and of the standalone router, and what happens to a request whose
 * body breaks off:
 *
 *   head   the request line and headers within `headersTimeoutMs` (Node's headersTimeout);
 *   body   while a body is still arriving, no `bodyIdleTimeoutMs` without a byte of it (a
 *          stalled upload, a body that stops mid-way): the body fails with a timeout;
 *   whole  head and body within `requestTimeoutMs` (Node's requestTimeout): long, because an
 *          archive upload of gigabytes is a legitimate slow body; size limits bound the rest
 *          (a JSON body ends at the API's body limit, 413, whatever its framing).
 *
 * A body that fails (a malformed chunk that Node's parser refuses, a stall) is failed on the
 * request stream itself (`failBody`): whoever reads it (the API's body readers, an upload's
 * pipeline, the router's copy to an instance) gets the error as the stream's error, also when
 * it starts reading only later, and answers as for any other unreadable body (400, or 408 for a
 * timeout) with the connection closed. Before, the parser's error went only to the server's
 * `clientError` event while the handler waited for the rest of the body: the client got no
 * answer and the connection, and the handler, stayed until the client gave up.
 */
import type { IncomingMessage, Server } from 'node:http';

export interface HttpLimits {
  /** The request line and headers arrive within this (ms, from the first byte). */
  headersTimeoutMs: number;
  /** A body still arriving gets a byte at least this often (ms); 0: unbounded. */
  bodyIdleTimeoutMs: number;
  /** The whole request arrives within this (ms); 0: unbounded. */
  requestTimeoutMs: number;
}

export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = {
  headersTimeoutMs: 20_000,
  bodyIdleTimeoutMs: 30_000,
  requestTimeoutMs: 60 * 60_000,
};

const FAILURE = Symbol('request body failure');
type Failing = IncomingMessage & { [FAILURE]?: Error };

/**
 * Fails the body of `req` with `err`, without closing the connection (the answer must still go
 * out on it): the stream's 'error' listeners get `err` now, and any added later get it then.
 * Nothing happens when the body has arrived whole, or has failed already.
 */
export function failBody(req: IncomingMessage, err: Error): void {
  const r = req as Failing;
  if (r[FAILURE] !== undefined || req.complete) return;
  r[FAILURE] = err;
  // A reader that starts later (after an await of its handler) learns of it when it listens.
  req.on('newListener', (event: string | symbol, listener: (e: Error) => void) => {
    if (event === 'error') process.nextTick(() => listener.call(req, err));
  });
  if (req.listenerCount('error') > 0) req.emit('error', err);
}

/** Why the body of `req` failed (failBody), if it did. */
export function bodyFailure(req: IncomingMessage): Error | undefined {
  return (req as Failing)[FAILURE];
}

/**
 * The `connectionsCheckingInterval` to create a server with (createServer's option): how often
 * Node looks for requests past headersTimeoutMs or requestTimeoutMs. Its default, 30 s, would
 * let a 20 s head take 50; a quarter of the shorter limit keeps the overshoot small.
 */
export function checkingIntervalMs(limits: HttpLimits): number {
  const bounds = [limits.headersTimeoutMs, limits.requestTimeoutMs].filter((ms) => ms > 0);
  return Math.min(30_000, Math.max(100, Math.floor(Math.min(...bounds) / 4)));
}

/**
 * Applies `limits` to `server` (created with checkingIntervalMs(limits)). `stalled` makes the error of a body that got no byte for
 * bodyIdleTimeoutMs (each server answers in its own form).
 */
export function limitRequests(server: Server, limits: HttpLimits, stalled: (req: IncomingMessage) => Error): void {
  // Node checks both on an interval of its own (connectionsCheckingInterval) and reports an
  // expired one to 'clientError' as ERR_HTTP_REQUEST_TIMEOUT; the servers' handlers fail a
  // body in progress with it (failBody) and answer a request still in its head themselves.
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  if (limits.bodyIdleTimeoutMs > 0) server.prependListener('request', (req: IncomingMessage) => watchBody(req, limits.bodyIdleTimeoutMs, stalled));
}

/**
 * Fails the body of `req` once no byte of it arrived for `idleMs`. The socket's byte count is
 * the measure, whoever reads (Node's parser may read the socket natively); a reader that has
 * not taken what arrived (the stream's buffer full, so the socket is paused) is the server's
 * slowness, not the client's, and does not count.
 */
function watchBody(req: IncomingMessage, idleMs: number, stalled: (req: IncomingMessage) => Error): void {
  if (req.complete) return;
  const socket = req.socket;
  lingerWhileIncomplete(req);
  let seen = socket.bytesRead;
  const timer = setTimeout(() => {
    if (req.complete || req.destroyed) return;
    const now = socket.bytesRead;
    if (now !== seen || req.readableLength >= req.readableHighWaterMark) {
      seen = now;
      timer.refresh();
      return;
    }
    failBody(req, stalled(req));
  }, idleMs);
  timer.unref();
  const stop = () => clearTimeout(timer);
  req.once('end', stop);
  req.once('close', stop);
}

/** How long a connection closed after an answer to an unfinished body reads on and discards. */
export const LINGER_MS = 5_000;

/**
 * A refusal of a request whose body is still arriving (a 413, a 403 before the upload is read,
 * a 408) closes the connection after its answer. Closed at once, the client's next bytes reach
 * a closed socket, whose reset can make the client's system drop the answer before the client
 * reads it: the client sees "connection reset" instead of why. So, as servers do (nginx's
 * lingering close), Node's close after such an answer becomes a half-close: the answer and a
 * FIN go out, what still arrives is read and discarded, and the connection ends when the client
 * closes its side or after LINGER_MS. Node's server closes a connection through the socket's
 * `destroySoon` once the last answer on it is written; it is replaced on this socket while this
 * request's body is unfinished.
 */
function lingerWhileIncomplete(req: IncomingMessage): void {
  const socket = req.socket as IncomingMessage['socket'] & { destroySoon?: () => void };
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', () => socket.destroy());
    // Whatever still arrives goes nowhere: a refusing reader may have paused the body.
    req.resume();
  };
  req.once('end', () => Reflect.deleteProperty(socket, 'destroySoon'));
}

/** The environment variables of each limit, for both binaries (platform-controller, platform-router). */
export const HTTP_LIMIT_VARIABLES: Readonly<Record<keyof HttpLimits, string>> = {
  headersTimeoutMs: 'PLATFORM_HTTP_HEADERS_TIMEOUT_MS',
  bodyIdleTimeoutMs: 'PLATFORM_HTTP_BODY_IDLE_TIMEOUT_MS',
  requestTimeoutMs: 'PLATFORM_HTTP_REQUEST_TIMEOUT_MS',
};

/** The limits set in `env`; throws naming the variable when one is not a whole number of ms. */
export function httpLimitsFromEnv(env: NodeJS.ProcessEnv): Partial<HttpLimits> {
  const limits: Partial<HttpLimits> = {};
  for (const [key, name] of Object.entries(HTTP_LIMIT_VARIABLES) as [keyof HttpLimits, string][]) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    if (!/^\d{1,10}$/.test(v)) throw new Error(`${name}="${v}" is not a whole number of milliseconds`);
    limits[key] = Number(v);
  }
  if (limits.headersTimeoutMs === 0) throw new Error(`${HTTP_LIMIT_VARIABLES.headersTimeoutMs} must be above 0`);
  return limits;
}
