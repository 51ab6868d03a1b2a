/**
 * TCP and UDP routes: one listener per routed port, opened and closed as the table changes.
 *
 * TCP: each connection goes to the next RUNNING instance (round robin over the jobs' instances;
 * weights are for HTTP only) and bytes are piped both ways; an instance that refuses the
 * connection is replaced by another once. A removed route's listener closes; connections
 * already open go on until either side ends them.
 *
 * UDP: datagrams from one client address (ip:port) form a flow, kept on one instance until the
 * flow has been quiet for `flowTimeoutMs`; answers from the instance go back to that client
 * from the routed port.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import type { Logger } from '@platform/proto/common';
import type { RouterMetrics } from './router-metrics.js';
import type { Backend, RoutedPath, RoutingTable } from './routing.js';

export interface StreamProxyOptions {
  routing: RoutingTable;
  metrics: RouterMetrics;
  log: Logger;
  /** The address TCP and UDP listeners bind. */
  host: string;
  /** A UDP flow without datagrams for this long ends. Default 30 s. */
  flowTimeoutMs?: number;
}

interface TcpListener {
  server: net.Server;
  route: RoutedPath;
  sockets: Set<net.Socket>;
}

interface Flow {
  socket: dgram.Socket;
  timer: NodeJS.Timeout;
}

interface UdpListener {
  socket: dgram.Socket;
  route: RoutedPath;
  flows: Map<string, Flow>;
}

function portOf(endpoint: string): number {
  return Number(endpoint.slice(endpoint.lastIndexOf(':') + 1));
}

export class StreamProxy {
  readonly #tcp = new Map<number, TcpListener>();
  readonly #udp = new Map<number, UdpListener>();
  #closed = false;

  constructor(private readonly o: StreamProxyOptions) {}

  /** Opens listeners for the table's TCP and UDP routes and closes those it no longer has. */
  sync(): void {
    if (this.#closed) return;
    const tcp = new Map(this.o.routing.entriesOf('tcp').map((r) => [portOf(r.endpoint), r]));
    for (const [port, l] of this.#tcp) {
      if (!tcp.has(port)) {
        l.server.close();
        this.#tcp.delete(port);
      }
    }
    for (const [port, route] of tcp) {
      const existing = this.#tcp.get(port);
      if (existing) existing.route = route;
      else this.#openTcp(port, route);
    }
    const udp = new Map(this.o.routing.entriesOf('udp').map((r) => [portOf(r.endpoint), r]));
    for (const [port, l] of this.#udp) {
      if (!udp.has(port)) {
        this.#closeUdp(l);
        this.#udp.delete(port);
      }
    }
    for (const [port, route] of udp) {
      const existing = this.#udp.get(port);
      if (existing) existing.route = route;
      else this.#openUdp(port, route);
    }
  }

  #openTcp(port: number, route: RoutedPath): void {
    const listener: TcpListener = { server: net.createServer(), route, sockets: new Set() };
    listener.server.on('connection', (client) => this.#connect(listener, client));
    listener.server.on('error', (err: NodeJS.ErrnoException) => {
      this.o.log.error('tcp route cannot listen', { route: route.endpoint, port, err: err.code ?? err.message });
      if (this.#tcp.get(port) === listener) this.#tcp.delete(port);
    });
    listener.server.listen(port, this.o.host, () => this.o.log.info('tcp route listening', { route: route.endpoint, address: `${this.o.host}:${port}` }));
    this.#tcp.set(port, listener);
  }

  #connect(listener: TcpListener, client: net.Socket): void {
    const route = listener.route;
    const stats = this.o.metrics.route(route.label);
    listener.sockets.add(client);
    client.pause();
    client.on('error', () => client.destroy());
    client.on('close', () => listener.sockets.delete(client));
    const attempt = (n: number, avoid?: string) => {
      const backend: Backend | undefined = listener.route.pick(avoid);
      if (!backend) {
        this.o.metrics.answered(stats, 503);
        client.destroy();
        return;
      }
      const upstream = net.connect({ host: backend.host, port: backend.port });
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        this.o.metrics.answered(stats, 200);
        stats.active++;
        upstream.on('data', (c: Buffer) => (stats.bytesOut += c.length));
        client.on('data', (c: Buffer) => (stats.bytesIn += c.length));
        client.pipe(upstream).pipe(client);
        client.resume();
        let done = false;
        const end = () => {
          if (done) return;
          done = true;
          stats.active--;
          upstream.destroy();
          client.destroy();
        };
        upstream.on('close', end);
        client.on('close', end);
      });
      upstream.once('error', (err: NodeJS.ErrnoException) => {
        if (!connected) {
          if (n === 0 && !client.destroyed) return attempt(1, backend.instance);
          this.o.metrics.answered(stats, 502);
          this.o.log.warn('tcp route: instance failed', { route: route.endpoint, instance: backend.instance, err: err.code ?? err.message });
        }
        client.destroy();
      });
    };
    attempt(0);
  }

  #openUdp(port: number, route: RoutedPath): void {
    const socket = dgram.createSocket(net.isIPv6(this.o.host) ? 'udp6' : 'udp4');
    const listener: UdpListener = { socket, route, flows: new Map() };
    socket.on('error', (err: NodeJS.ErrnoException) => {
      this.o.log.error('udp route cannot listen', { route: route.endpoint, port, err: err.code ?? err.message });
      if (this.#udp.get(port) === listener) {
        this.#closeUdp(listener);
        this.#udp.delete(port);
      }
    });
    socket.on('message', (msg, rinfo) => this.#datagram(listener, msg, rinfo));
    socket.bind(port, this.o.host, () => this.o.log.info('udp route listening', { route: route.endpoint, address: `${this.o.host}:${port}` }));
    this.#udp.set(port, listener);
  }

  #datagram(listener: UdpListener, msg: Buffer, rinfo: dgram.RemoteInfo): void {
    const key = `${rinfo.address}:${rinfo.port}`;
    const stats = this.o.metrics.route(listener.route.label);
    const timeout = this.o.flowTimeoutMs ?? 30_000;
    stats.bytesIn += msg.length;
    const flow = listener.flows.get(key);
    if (!flow) {
      const backend = listener.route.pick();
      if (!backend) {
        this.o.metrics.answered(stats, 503);
        return;
      }
      const socket = dgram.createSocket(net.isIPv6(backend.host) ? 'udp6' : 'udp4');
      const f: Flow = { socket, timer: setTimeout(() => end(), timeout) };
      f.timer.unref();
      const end = () => {
        clearTimeout(f.timer);
        socket.close();
        if (listener.flows.get(key) === f) listener.flows.delete(key);
        stats.active--;
      };
      socket.on('message', (answer) => {
        stats.bytesOut += answer.length;
        f.timer.refresh();
        listener.socket.send(answer, rinfo.port, rinfo.address);
      });
      socket.on('error', () => end());
      socket.connect(backend.port, backend.host);
      this.o.metrics.answered(stats, 200);
      stats.active++;
      listener.flows.set(key, f);
      const first = msg;
      socket.once('connect', () => socket.send(first));
      return;
    }
    flow.timer.refresh();
    flow.socket.send(msg);
  }

  #closeUdp(l: UdpListener): void {
    for (const f of l.flows.values()) {
      clearTimeout(f.timer);
      f.socket.close();
    }
    l.flows.clear();
    try {
      l.socket.close();
    } catch {
      // already closed
    }
  }

  close(): void {
    this.#closed = true;
    for (const l of this.#tcp.values()) {
      l.server.close();
      for (const s of l.sockets) s.destroy();
    }
    this.#tcp.clear();
    for (const l of this.#udp.values()) this.#closeUdp(l);
    this.#udp.clear();
  }
}
