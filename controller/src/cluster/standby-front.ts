/**
 * What a standby controller serves on its API and agents' addresses while another one is active:
 *
 * - Every HTTP request (WebSocket upgrades included) is sent on to the active controller as it
 *   came: method, path, headers (X-Request-Id, Authorization, Host) and body; its answer comes
 *   back unchanged, errors included. The standby adds the headers `X-Platform-Forwarded-By`
 *   (itself), X-Request-Id when the client sent none the API keeps (one of its own), and
 *   `X-Platform-Client-Address`: the client's address with a proof keyed with the cluster's
 *   shared key (api/client-address.ts), which the active controller takes as the request's
 *   address, so that what is counted and recorded per client is not lumped together as the
 *   standby's. A client's own header of that name is not sent on. One still in flight when that controller stops being the
 *   active one (dead, or paused past its lease: it may never answer) is cut: 503 if nothing was
 *   answered yet, else the connection is closed. A request that already went through a standby (the header
 *   `X-Platform-Forwarded-By`) is not sent on again: the election is changing hands, and the
 *   client is told to try again (503, `retry`), as it is when no controller leads.
 * - Every call of an agent or a standalone router is refused with UNAVAILABLE, with the active
 *   controller's agents' address in the trailer `platform-active-controller`: they dial it next.
 *   While no controller is active (one is being elected, or this one leads and is loading its
 *   state) the call is held, up to `holdMs`, until one is: refused at once, each agent backed
 *   off further with each try (up to 5 s), and after a takeover at full size the last ones came
 *   back 10 s after the controller served. A call held when the front closes (this controller's
 *   own agents' endpoint takes the port) ends then, and the agent dials again at once.
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ACTIVE_CONTROLLER_METADATA, agentServiceDefinition, grpc, routeTableServiceDefinition } from '@platform/proto';
import type { HostPort, Logger } from '@platform/proto/common';
import { toApiError } from '../api/api-error.js';
import { CLIENT_ADDRESS_HEADER, type ClientAddressProof } from '../api/client-address.js';
import { formatMedia } from '../api/media.js';
import { validRequestId } from '../api/middleware.js';
import { UnavailableError } from '../errors.js';
import type { IdSource } from '../util/ids.js';
import { SharedListener } from '../util/shared-listener.js';

/** The header a standby adds to what it sends on, naming itself. */
export const FORWARDED_BY = 'x-platform-forwarded-by';

/** How often who is active is asked again while exchanges sent on are in flight (ms). */
const WATCH_MS = 1_000;
/** How long an agent's or a router's call is held while no controller is active (ms); below the agents' wait for a Welcome (15 s). */
const HOLD_MS = 10_000;
/** How often who is active is asked while calls are held (ms). */
const HOLD_POLL_MS = 250;

/** Where the active controller is (its API's base URL, its agents' host:port). */
export interface ActiveAddress {
  api: string;
  grpc: string;
}

export interface StandbyFrontOptions {
  /** This controller's id, for FORWARDED_BY. */
  id: string;
  listen: HostPort;
  grpcListen: HostPort;
  /** The active controller now, undefined when none leads; `fresh` skips a cached answer. */
  active: (fresh?: boolean) => Promise<ActiveAddress | undefined>;
  log: Logger;
  ids: IdSource;
  /** Proves the client's address to the active controller (the key the controllers share through etcd). */
  clientAddress: ClientAddressProof;
  /** How long an agent's or a router's call is held while no controller is active. Default HOLD_MS. */
  holdMs?: number;
}

/** Hop-by-hop headers (RFC 9110, 7.6.1): they belong to one connection, not to the request. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

/** The client's headers an upgrade sent on does not carry as they came (the standby sets them). */
const REPLACED_ON_UPGRADE = new Set(['x-request-id', FORWARDED_BY, CLIENT_ADDRESS_HEADER]);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

export class StandbyFront {
  /** The front's HTTP server, handed the connections of the API address while nothing else serves it. */
  readonly #api: Server;
  /** The API address, bound at the first open and kept until shutdown(): it never refuses connections. */
  readonly #listener: SharedListener;
  #open = false;
  #bound = false;
  #grpc: grpc.Server | undefined;
  /** The ports bound at the first open, kept for the next ones (port 0 picks one once). */
  #apiPort: number;
  #grpcPort: number;
  readonly #sockets = new Set<Duplex>();
  /** Exchanges sent on and not over, by the active controller's API they went to. */
  readonly #inFlight = new Map<string, Set<(why: string) => void>>();
  #watch: NodeJS.Timeout | undefined;
  /** Calls held while no controller is active, each told when one is (or undefined: refused now). */
  readonly #held = new Set<(active: ActiveAddress | undefined) => void>();
  #holdPoll: NodeJS.Timeout | undefined;

  constructor(private readonly o: StandbyFrontOptions) {
    this.#apiPort = o.listen.port;
    this.#grpcPort = o.grpcListen.port;
    const api = createServer((req, res) => {
      // Closed (this controller's own API is starting or stopping): the client's next request
      // takes a new connection, which reaches that API once it is attached.
      if (!this.#open) res.shouldKeepAlive = false;
      void this.#forward(req, res);
    });
    api.on('upgrade', (req, socket, head) => void this.#forwardUpgrade(req, socket, head));
    api.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
    this.#api = api;
    this.#listener = new SharedListener(api);
  }

  /**
   * The API address, for the active controller's API while this controller leads (attach); the
   * front answers its connections before and after (503 with retry while no other controller
   * leads, sent on to the one that does).
   */
  get apiListener(): SharedListener {
    return this.#listener;
  }

  /** Agents' and routers' calls held now, waiting for a controller to be active. */
  get heldCalls(): number {
    return this.#held.size;
  }

  get apiPort(): number {
    return this.#apiPort;
  }

  get grpcPort(): number {
    return this.#grpcPort;
  }

  /** Binds the API and agents' addresses (the ports of the first open from then on). */
  async open(): Promise<void> {
    if (this.#open) return;
    if (!this.#bound) {
      await this.#listener.listen(this.o.listen.host, this.#apiPort);
      this.#apiPort = this.#listener.address.port;
      this.#bound = true;
    }
    this.#open = true;
    const server = new grpc.Server();
    server.addService(agentServiceDefinition, this.#refuseAll(agentServiceDefinition));
    server.addService(routeTableServiceDefinition, this.#refuseAll(routeTableServiceDefinition));
    const host = this.o.grpcListen.host;
    try {
      this.#grpcPort = await new Promise<number>((resolve, reject) =>
        server.bindAsync(`${host.includes(':') ? `[${host}]` : host}:${this.#grpcPort}`, grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))),
      );
    } catch (err) {
      await this.close();
      throw err;
    }
    this.#grpc = server;
  }

  /**
   * Tracks an exchange sent on to `api` until `done`; `cut` ends it if `api` stops being the active
   * controller's (it died, or was paused past its lease: it may never answer). While any is in
   * flight, who is active is asked every WATCH_MS.
   */
  #track(api: string, cut: (why: string) => void): () => void {
    let set = this.#inFlight.get(api);
    if (!set) this.#inFlight.set(api, (set = new Set()));
    set.add(cut);
    this.#watch ??= setInterval(() => void this.#check(), WATCH_MS);
    return () => {
      set.delete(cut);
      if (set.size === 0) this.#inFlight.delete(api);
      if (this.#inFlight.size === 0 && this.#watch) {
        clearInterval(this.#watch);
        this.#watch = undefined;
      }
    };
  }

  async #check(): Promise<void> {
    const active = await this.o.active(true).catch(() => undefined);
    for (const [api, cuts] of this.#inFlight) {
      if (active?.api === api) continue;
      for (const cut of [...cuts]) cut(`the controller it was sent to (${api}) is no longer the active one`);
    }
  }

  /**
   * Unbinds the agents' address (for the active controller's parts to bind it) and ends the
   * API's connections to the front, so that their clients' next ones reach the active
   * controller's API (attached to `apiListener`). The API address stays bound.
   */
  async close(): Promise<void> {
    if (this.#watch) clearInterval(this.#watch);
    this.#watch = undefined;
    this.#inFlight.clear();
    this.#open = false;
    for (const done of [...this.#held]) done(undefined);
    const server = this.#grpc;
    this.#grpc = undefined;
    server?.forceShutdown();
    for (const socket of this.#sockets) socket.destroy();
  }

  /** Closes the front for good: the API address too. */
  async shutdown(): Promise<void> {
    await this.close();
    await this.#listener.close();
    await new Promise<void>((resolve) => this.#api.close(() => resolve()));
  }

  #refuse(res: ServerResponse, requestId: string, message: string): void {
    const mapped = toApiError(new UnavailableError(message, 1000), requestId);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(mapped.status, { ...mapped.headers, 'content-type': formatMedia('apierror', 1), 'x-request-id': requestId });
    res.end(JSON.stringify(mapped.body));
  }

  /**
   * The headers a standby adds to a request it sends on: itself, the request id (the client's,
   * or one of its own that the proof is bound to) and the client's address with its proof.
   */
  #added(req: IncomingMessage, requestId: string): Record<string, string> {
    const client = req.socket.remoteAddress;
    return {
      'x-request-id': requestId,
      [FORWARDED_BY]: this.o.id,
      ...(client ? { [CLIENT_ADDRESS_HEADER]: this.o.clientAddress.sign(client, requestId) } : {}),
    };
  }

  async #forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = validRequestId(req.headers['x-request-id']) ?? this.o.ids.requestId();
    if (req.headers[FORWARDED_BY]) {
      req.resume();
      return this.#refuse(res, requestId, 'the controllers are changing which one is active; try again');
    }
    const active = await this.o.active().catch(() => undefined);
    if (!active) {
      req.resume();
      return this.#refuse(res, requestId, 'no controller is active right now (one takes over within the lease); try again');
    }
    const target = new URL(active.api);
    const headers = endToEnd(req.headers);
    // A client's own claim of an address is never sent on: the proof below is the standby's.
    delete headers[CLIENT_ADDRESS_HEADER];
    const out = request(
      {
        host: target.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...headers, ...this.#added(req, requestId) },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    const untrack = this.#track(active.api, (why) => out.destroy(new Error(why)));
    out.on('close', untrack);
    out.on('error', (err) => {
      // The active controller is gone (a takeover under way): the next request asks etcd again.
      void this.o.active(true).catch(() => undefined);
      this.o.log.debug('a request sent on to the active controller failed', { err: err.message, active: active.api });
      this.#refuse(res, requestId, 'the active controller did not answer (a takeover may be under way); try again');
    });
    res.on('close', () => {
      untrack();
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  }

  async #forwardUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const active = req.headers[FORWARDED_BY] ? undefined : await this.o.active().catch(() => undefined);
    if (!active) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const target = new URL(active.api);
    const upstream: Socket = connect(Number(target.port), target.hostname.replace(/^\[(.*)\]$/, '$1'));
    const fail = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.once('error', fail);
    socket.once('error', fail);
    // One side gone, the other goes too: a stream sent on lives as long as both ends do.
    upstream.once('close', () => socket.destroy());
    socket.once('close', () => upstream.destroy());
    const untrack = this.#track(active.api, () => fail());
    upstream.once('close', untrack);
    const requestId = validRequestId(req.headers['x-request-id']) ?? this.o.ids.requestId();
    upstream.once('connect', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i]!;
        // Sent below: the request id (the proof is bound to it), the client's address with its proof.
        if (REPLACED_ON_UPGRADE.has(name.toLowerCase())) continue;
        lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
      }
      for (const [name, value] of Object.entries(this.#added(req, requestId))) lines.push(`${name}: ${value}`);
      lines.push('', '');
      upstream.write(lines.join('\r\n'));
      if (head.length > 0) upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
  }

  /** Resolves once a controller is active (undefined after holdMs, or when the front closes). */
  #awaitActive(): Promise<ActiveAddress | undefined> {
    return new Promise((resolve) => {
      const done = (active: ActiveAddress | undefined) => {
        clearTimeout(timer);
        this.#held.delete(done);
        resolve(active);
      };
      const timer = setTimeout(() => done(undefined), this.o.holdMs ?? HOLD_MS);
      this.#held.add(done);
      this.#pollActive();
    });
  }

  /** While calls are held: who is active, asked once for all of them every HOLD_POLL_MS. */
  #pollActive(): void {
    if (this.#holdPoll) return;
    let asking = false;
    this.#holdPoll = setInterval(() => {
      if (this.#held.size === 0) {
        clearInterval(this.#holdPoll);
        this.#holdPoll = undefined;
        return;
      }
      if (asking) return;
      asking = true;
      void this.o
        .active(true)
        .catch(() => undefined)
        .then((active) => {
          asking = false;
          if (active) for (const done of [...this.#held]) done(active);
        });
    }, HOLD_POLL_MS);
    this.#holdPoll.unref();
  }

  /** Every method of `definition` answered with UNAVAILABLE and the active controller's address. */
  #refuseAll(definition: grpc.ServiceDefinition): grpc.UntypedServiceImplementation {
    const refusal = async (): Promise<Partial<grpc.StatusObject> & Error> => {
      const active = (await this.o.active().catch(() => undefined)) ?? (this.#open ? await this.#awaitActive() : undefined);
      const metadata = new grpc.Metadata();
      if (active) metadata.set(ACTIVE_CONTROLLER_METADATA, active.grpc);
      const details = active ? `this controller is a standby; the active one is at ${active.grpc}` : 'this controller is a standby and no controller is active right now; try again';
      return Object.assign(new Error(details), { code: grpc.status.UNAVAILABLE, details, metadata });
    };
    const implementation: grpc.UntypedServiceImplementation = {};
    for (const [name, method] of Object.entries(definition)) {
      implementation[name] = ((call: { emit(event: string, err: Error): boolean }, callback?: (err: Error) => void) => {
        void refusal().then((err) => {
          if (!method.responseStream && callback) callback(err);
          else call.emit('error', err);
        });
      }) as grpc.UntypedHandleCall;
    }
    return implementation;
  }
}
