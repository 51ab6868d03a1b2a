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
 *          (a JSON body ends at the API's body limit, 413, whatever its framing);
 *   idle   a keep-alive connection without a request closes after `keepAliveTimeoutMs`;
 *   after  an answer given while its request's body still arrives (a handler that did not
 *          need the body, a refusal) closes the connection, lingering: the rest of a body
 *          nobody reads is not taken in for as long as the client likes.
 *
 * A body that fails (a malformed chunk that Node's parser refuses, a stall) is failed on the
 * request stream itself (`failBody`): whoever reads it (the API's body readers, an upload's
 * pipeline, the router's copy to an instance) gets the error as the stream's error, also when
 * it starts reading only later, and answers as for any other unreadable body (400, or 408 for a
 * timeout) with the connection closed. Before, the parser's error went only to the server's
 * `clientError` event while the handler waited for the rest of the body: the client got no
 * answer and the connection, and the handler, stayed until the client gave up.
 *
 * The servers' `clientError` handlers start with `failBodyOfLatest`: an error in the body of the
 * connection's latest request goes to that request (or, once it was answered, ends the
 * connection: one request gets one answer); other errors (bytes that are no request) are
 * answered after the answers still being written on the connection (`afterAnswers`).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export interface HttpLimits {
  /** The request line and headers arrive within this (ms, from the first byte). */
  headersTimeoutMs: number;
  /** A body still arriving gets a byte at least this often (ms); 0: unbounded. */
  bodyIdleTimeoutMs: number;
  /** The whole request arrives within this (ms); 0: unbounded. */
  requestTimeoutMs: number;
  /**
   * A keep-alive connection without a request in progress closes after this (ms). 65 s by
   * default: longer than the 60 s idle timeout of common load balancers, so that they close first.
   */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = {
  headersTimeoutMs: 20_000,
  bodyIdleTimeoutMs: 30_000,
  requestTimeoutMs: 60 * 60_000,
  keepAliveTimeoutMs: 65_000,
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
  // The head is part of the request: its bound is at most the request's. (Node also requires it:
  // with a headersTimeout above the requestTimeout, its check never ends a request for its time,
  // and a body that trickles in would be read for ever. Node's own constructor refuses such a
  // pair; set as properties, it is taken silently.)
  server.headersTimeout = limits.requestTimeoutMs > 0 ? Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) : limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    LATEST.set(socket, { req, res });
    if (req.complete) return;
    lingerWhileIncomplete(req);
    // Answered while its body still arrives: Node would keep the connection and read the rest of
    // the body, for up to requestTimeoutMs, for nobody. (Node's own listener, added before this
    // one, has run: a `Connection: close` answer is closing already.)
    res.once('finish', () => {
      if (!req.complete && !req.destroyed) closeLingering(socket, req);
    });
    if (limits.bodyIdleTimeoutMs > 0) watchBody(req, limits.bodyIdleTimeoutMs, stalled);
  });
}

/** The latest request of each connection of a limited server, and its answer. */
const LATEST = new WeakMap<Duplex, { req: IncomingMessage; res: ServerResponse }>();

/**
 * For a server's 'clientError' handler: when `socket`'s latest request has not arrived whole,
 * the error (a malformed chunk, the client's FIN mid-body, the request timeout) is in its body.
 * Not answered yet: its body fails with `err` (failBody: its reader answers, and the answer
 * closes the connection) — 'failed'. Answered already (without reading the whole body): it gets
 * no second answer, the connection closes — 'closed'. Otherwise (the error is in bytes after
 * the last request: no request at all) undefined, and the handler answers it (afterAnswers).
 * llhttp reports its error again at each later read of the connection: calls after the first
 * change nothing.
 */
export function failBodyOfLatest(socket: Duplex, err: Error): 'failed' | 'closed' | undefined {
  const latest = LATEST.get(socket);
  if (!latest || latest.req.complete) return undefined;
  const { req, res } = latest;
  if (!res.writableFinished) {
    res.shouldKeepAlive = false;
    failBody(req, err);
    return 'failed';
  }
  closeLingering(socket, req);
  return 'closed';
}

/**
 * Runs `then` once the answers being written on `socket` are out (the bytes that failed to
 * parse may follow a request still being answered: that answer goes first, whole, or the client
 * would take the refusal for it), at once when there are none; destroys the socket instead when
 * the pending answer is cut off.
 */
export function afterAnswers(socket: Duplex, then: () => void): void {
  const pending = LATEST.get(socket)?.res;
  if (!pending || pending.writableFinished) {
    then();
    return;
  }
  pending.once('finish', then);
  pending.once('close', () => {
    if (!pending.writableFinished) socket.destroy();
  });
}

/**
 * Fails the body of `req` once no byte of it arrived for `idleMs`. The socket's byte count is
 * the measure, whoever reads (Node's parser may read the socket natively); a reader that has
 * not taken what arrived (the stream's buffer full, so the socket is paused) is the server's
 * slowness, not the client's, and does not count.
 */
function watchBody(req: IncomingMessage, idleMs: number, stalled: (req: IncomingMessage) => Error): void {
  const socket = req.socket;
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
  const socket = req.socket;
  socket.destroySoon = () => closeLingering(socket, req);
  req.once('end', () => Reflect.deleteProperty(socket, 'destroySoon'));
}

const LINGERING = new WeakSet<Duplex>();

/**
 * Ends our side of `socket` (after what is written) and reads and drops what still arrives,
 * until the client closes its side or for LINGER_MS; then the socket goes. `req`: the request
 * whose body may still arrive (resumed: a refusing reader may have paused it, and a paused
 * body stops the socket's reads). Once per socket.
 */
export function closeLingering(socket: Duplex, req?: IncomingMessage): void {
  if (socket.destroyed || LINGERING.has(socket)) return;
  LINGERING.add(socket);
  if (socket.writable) socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  req?.resume();
}

/** The environment variables of each limit, for both binaries (platform-controller, platform-router). */
export const HTTP_LIMIT_VARIABLES: Readonly<Record<keyof HttpLimits, string>> = {
  headersTimeoutMs: 'PLATFORM_HTTP_HEADERS_TIMEOUT_MS',
  bodyIdleTimeoutMs: 'PLATFORM_HTTP_BODY_IDLE_TIMEOUT_MS',
  requestTimeoutMs: 'PLATFORM_HTTP_REQUEST_TIMEOUT_MS',
  keepAliveTimeoutMs: 'PLATFORM_HTTP_KEEP_ALIVE_TIMEOUT_MS',
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
  // Node's 0 would keep idle connections for ever.
  if (limits.keepAliveTimeoutMs === 0) throw new Error(`${HTTP_LIMIT_VARIABLES.keepAliveTimeoutMs} must be above 0`);
  return limits;
}
