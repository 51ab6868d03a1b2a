/**
 * The router's HTTP/1.1 client for requests without a body (GET, HEAD, DELETE ... the bulk of
 * what a router carries): keep-alive connections pooled per instance, the request head written
 * in one piece, and the response read by Node's own HTTP parser, llhttp, the one behind
 * node:http (`HTTPParser` of node:_http_common; its callbacks get a whole header list at once
 * and body bytes already unchunked). It does per request what the proxy needs and nothing more;
 * undici, through which these requests went before, validates every header again, queues, and
 * crosses from its WebAssembly parser to JavaScript per header line: with this client the
 * router's CPU per proxied GET fell by about a fifth (120 -> 95 us, pinned to one core, 4 apps).
 * Requests with a body keep going through undici (HttpProxy), which streams them.
 *
 * `HTTPParser` is reached through node:_http_common, the module node:http itself uses, because
 * Node exports the parser nowhere else; its callbacks' signatures are those of Node 20, 22 and 24
 * (the router's tests run it on each).
 *
 * A connection serves one request at a time. After a complete response it goes back to its
 * instance's pool when the instance keeps it alive, and it closes after `idleMs` unused (or
 * sooner when the instance's Keep-Alive header says it will close first). A connection that the
 * instance closes, resets, or answers with bytes that are not HTTP fails its request (the proxy
 * retries idempotent ones on another instance) and is never reused.
 */
import { createRequire } from 'node:module';
import net from 'node:net';

/** What the proxy hears of one request. */
export interface InstanceResponseHandler {
  /** The response head (1xx informational answers are skipped): the header lines as sent, flat [name, value, ...]. */
  onHead(status: number, statusText: string, headers: string[]): void;
  /** A piece of the body; false: the client cannot take more now (reading stops until `resume`). */
  onData(chunk: Buffer): boolean;
  onEnd(): void;
  /** The request failed: before the head (`answered` false, nothing sent to the client yet) or after. */
  onError(err: Error & { code?: string }, answered: boolean): void;
}

/** One request in flight. */
export interface InstanceRequest {
  /** Reading the body again after onData said stop. */
  resume(): void;
  /** Ends the request (the client went away): the connection closes, onError is not called. */
  abort(): void;
}

interface Parser {
  initialize(type: number, resource: object, maxHeaderSize: number, lenient: number): void;
  execute(data: Buffer): number | Error;
  finish(): number | Error | undefined;
  close(): void;
  [callback: number]: unknown;
}

interface ParserClass {
  new (): Parser;
  RESPONSE: number;
  kOnHeaders: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
}

const { HTTPParser } = createRequire(import.meta.url)('_http_common') as { HTTPParser: ParserClass };

const CONNECT_TIMEOUT_MS = 10_000;

const KEEP_ALIVE_TIMEOUT = /(?:^|[,;\s])timeout=(\d+)/i;

class Connection {
  readonly socket: net.Socket;
  readonly #parser = new HTTPParser();
  #handler: InstanceResponseHandler | undefined;
  #head = false;
  #answered = false;
  /** The message being read is a 1xx informational one (its end is not the request's). */
  #informational = false;
  /** performance.now() when it was last released to the pool. */
  idleSince = 0;
  #keepAlive = false;
  /** How long this connection may stay unused (the instance's Keep-Alive timeout may shorten it). */
  idleMs: number;
  /** Header lines the parser handed over before the head was complete (long heads). */
  #early: string[] | undefined;
  #error: (Error & { code?: string }) | undefined;

  constructor(
    readonly pool: InstancePool,
    host: string,
    port: number,
  ) {
    this.idleMs = pool.idleMs;
    const parser = this.#parser;
    parser.initialize(HTTPParser.RESPONSE, {}, 0, 0);
    parser[HTTPParser.kOnHeaders] = (headers: string[]) => {
      this.#early = this.#early ? this.#early.concat(headers) : headers;
    };
    parser[HTTPParser.kOnHeadersComplete] = (
      _major: number,
      _minor: number,
      headers: string[] | undefined,
      _method: unknown,
      _url: unknown,
      status: number,
      statusText: string,
      _upgrade: boolean,
      keepAlive: boolean,
    ): number => {
      let lines = headers ?? [];
      if (this.#early) {
        lines = this.#early.concat(lines);
        this.#early = undefined;
      }
      if (!this.#handler) {
        this.#fail(new Error('the instance answered a request it was not sent'));
        return 1;
      }
      // 1xx informational: no body, and the real answer follows on the same connection.
      if (status < 200) {
        this.#informational = true;
        return 1;
      }
      this.#keepAlive = keepAlive;
      if (keepAlive) this.#keepAliveHint(lines);
      this.#answered = true;
      this.#handler?.onHead(status, statusText, lines);
      // An answer to HEAD has no body whatever its headers say.
      return this.#head ? 1 : 0;
    };
    parser[HTTPParser.kOnBody] = (chunk: Buffer) => {
      if (this.#handler && !this.#handler.onData(chunk)) this.socket.pause();
    };
    parser[HTTPParser.kOnMessageComplete] = () => {
      if (this.#informational) {
        this.#informational = false;
        return;
      }
      const handler = this.#handler;
      this.#handler = undefined;
      if (this.#keepAlive) this.#release();
      else this.#destroy();
      handler?.onEnd();
    };
    this.socket = net.connect({ host, port, noDelay: true });
    // An instance whose host stopped answering is given up on as undici does it (10 s), so the
    // proxy can try another one; once connected, no timer runs per request.
    this.socket.setTimeout(CONNECT_TIMEOUT_MS, () => {
      this.#fail(Object.assign(new Error(`no connection to the instance within ${CONNECT_TIMEOUT_MS} ms`), { code: 'ETIMEDOUT' }));
    });
    this.socket.once('connect', () => this.socket.setTimeout(0));
    this.socket.on('data', (chunk: Buffer) => {
      const r = this.#parser.execute(chunk);
      if (r instanceof Error) this.#fail(r);
    });
    this.socket.on('end', () => {
      // A response without a length ends with the connection.
      if (this.#handler && this.#answered) {
        const r = this.#parser.finish();
        if (r instanceof Error) this.#fail(r);
      }
      this.#destroy();
    });
    this.socket.on('error', (err: Error & { code?: string }) => {
      this.#error ??= err;
    });
    this.socket.on('close', () => this.#closed());
  }

  /** Sends a request; the connection is this request's until its response ends. */
  send(head: string, isHead: boolean, handler: InstanceResponseHandler): void {
    this.#handler = handler;
    this.#head = isHead;
    this.#answered = false;
    this.#informational = false;
    this.socket.write(head, 'latin1');
  }

  resume(): void {
    if (this.#handler) this.socket.resume();
  }

  abort(handler: InstanceResponseHandler): void {
    if (this.#handler !== handler) return;
    this.#handler = undefined;
    this.#destroy();
  }

  /** The instance's Keep-Alive: timeout=N (seconds): closed here a second before it would close there. */
  #keepAliveHint(lines: string[]): void {
    for (let i = 0; i < lines.length; i += 2) {
      if (lines[i]!.length !== 10 || lines[i]!.toLowerCase() !== 'keep-alive') continue;
      const m = KEEP_ALIVE_TIMEOUT.exec(lines[i + 1]!);
      if (m) {
        const ms = Number(m[1]) * 1000 - 1000;
        if (ms <= 0) this.#keepAlive = false;
        else if (ms < this.idleMs) this.idleMs = ms;
      }
    }
  }

  #release(): void {
    if (this.socket.destroyed) return;
    this.socket.resume();
    this.idleSince = performance.now();
    this.pool.release(this);
  }

  #fail(err: Error & { code?: string }): void {
    this.#error ??= err;
    this.#destroy();
  }

  #destroy(): void {
    this.socket.destroy();
  }

  /** Closes it when unused (the idle sweep). */
  close(): void {
    if (!this.#handler) this.#destroy();
  }

  #closed(): void {
    this.pool.forget(this);
    const handler = this.#handler;
    this.#handler = undefined;
    if (handler) {
      const err = this.#error ?? Object.assign(new Error('the instance closed the connection'), { code: 'ECONNRESET' });
      handler.onError(err, this.#answered);
    }
    // After the parser's callbacks have unwound (as node:http frees its parsers).
    setImmediate(() => this.#parser.close());
  }
}

/** Connections to one instance. */
class InstancePool {
  /** Unused connections, the most recently used last (taken first: warm, and the others may time out). */
  readonly idle: Connection[] = [];
  readonly all = new Set<Connection>();

  constructor(
    readonly host: string,
    readonly port: number,
    readonly idleMs: number,
    private readonly onEmpty: () => void,
  ) {}

  take(): Connection {
    const c = this.idle.pop();
    if (c && !c.socket.destroyed) return c;
    const fresh = new Connection(this, this.host, this.port);
    this.all.add(fresh);
    return fresh;
  }

  release(c: Connection): void {
    this.idle.push(c);
  }

  forget(c: Connection): void {
    this.all.delete(c);
    const i = this.idle.lastIndexOf(c);
    if (i >= 0) this.idle.splice(i, 1);
    if (this.all.size === 0) this.onEmpty();
  }
}

export class InstanceClient {
  readonly #pools = new Map<string, InstancePool>();
  readonly #sweep: NodeJS.Timeout;

  /**
   * `idleMs`: unused connections close after this long at most. One timer sweeps them (every
   * quarter of `idleMs`, at most every second), so a connection closes when it has been unused
   * for between `idleMs` less a sweep interval and `idleMs`; no timer is set per request.
   */
  constructor(private readonly idleMs: number) {
    const every = Math.max(10, Math.min(1000, Math.floor(idleMs / 4)));
    this.#sweep = setInterval(() => {
      const now = performance.now();
      for (const pool of this.#pools.values()) {
        for (const c of [...pool.idle]) if (now - c.idleSince >= c.idleMs - every) c.close();
      }
    }, every);
    this.#sweep.unref();
  }

  /**
   * Sends `method path` with `headers` (flat [name, value, ...], as they go on the wire; Host
   * among them) and no body to the instance at host:port (`key` names its pool).
   */
  request(key: string, host: string, port: number, method: string, path: string, headers: readonly string[], handler: InstanceResponseHandler): InstanceRequest {
    let pool = this.#pools.get(key);
    if (!pool) {
      const created: InstancePool = new InstancePool(host, port, this.idleMs, () => {
        if (this.#pools.get(key) === created) this.#pools.delete(key);
      });
      pool = created;
      this.#pools.set(key, pool);
    }
    let head = `${method} ${path} HTTP/1.1\r\n`;
    for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
    const connection = pool.take();
    connection.send(`${head}\r\n`, method === 'HEAD', handler);
    return { resume: () => connection.resume(), abort: () => connection.abort(handler) };
  }

  /** Closes every connection (requests in flight fail). */
  close(): void {
    clearInterval(this.#sweep);
    for (const pool of this.#pools.values()) for (const c of pool.all) c.socket.destroy();
  }
}
