/**
 * Forwarding an instance's ports from the host: an instance on a virtual network listens inside
 * its own network namespace, at its address on the network; the agent listens at the host
 * address it reports (`<address>:<port>`, the same port number) and passes each connection to
 * `<instance address>:<port>`. The router, links and users reach the instance where they always
 * did.
 *
 * For members of virtual networks this listener is the only way in: the reported address is
 * often 127.0.0.1, and locally made connections to it would need route_localnet and source NAT
 * on the host; a listener needs nothing of the host, refuses exactly when the instance does not
 * listen, and goes with the instance. For instances on networks of their own the agent also
 * passes TCP and UDP on in the kernel (host-networks.ts egressRules: route_localnet on its own
 * bridge only), so that they are reached while it restarts; the listeners then hold the host
 * ports (and serve what the kernel does not pass on: from other hosts where the host does not
 * forward). The cost of a listener is one copy of the bytes through the agent. UDP datagrams to
 * the same ports are relayed the same way (a socket per client, forgotten after a minute of
 * silence), for routes of type udp.
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { Logger } from '@platform/proto/common';

interface Forward {
  servers: Server[];
  sockets: Set<Socket>;
  /** The UDP listeners and, per client address, the socket that speaks to the instance for it. */
  udp: UdpSocket[];
  peers: Map<string, { socket: UdpSocket; timer?: NodeJS.Timeout }>;
}

/** A UDP client silent this long is forgotten (its socket to the instance closed). */
const UDP_IDLE_MS = 60_000;
/** Clients remembered at once per instance; the oldest goes first. */
const UDP_MAX_PEERS = 1024;

export class PortForwarders {
  readonly #byInstance = new Map<string, Forward>();

  constructor(private readonly log: Logger) {}

  /**
   * Listens at `host:<port>` for each of `ports`, forwarding to `target:<port>` (or to the port at
   * the same place in `targetPorts`). Rejects (and listens on none) when one cannot listen.
   */
  async open(instance: string, host: string, ports: readonly number[], target: string, targetPorts: readonly number[] = ports): Promise<void> {
    this.close(instance);
    const f: Forward = { servers: [], sockets: new Set(), udp: [], peers: new Map() };
    this.#byInstance.set(instance, f);
    try {
      for (const [i, port] of ports.entries()) f.servers.push(await this.#listen(f, host, port, target, targetPorts[i] ?? port));
    } catch (err) {
      this.close(instance);
      throw err;
    }
    // UDP at the same ports, for the routes of type udp (a port taken for UDP by another program
    // leaves that port's UDP unforwarded, said in the log: TCP is what the instance is checked on).
    const udpFailed: number[] = [];
    for (const [i, port] of ports.entries()) {
      try {
        f.udp.push(await this.#listenUdp(f, host, port, target, targetPorts[i] ?? port));
      } catch {
        udpFailed.push(port);
      }
    }
    if (!this.#byInstance.has(instance)) for (const u of f.udp) u.close(); // closed meanwhile
    this.log.info('instance ports forwarded', { instance, host, ports, target, ...(udpFailed.length > 0 ? { udp_not_forwarded: udpFailed } : {}) });
  }

  close(instance: string): void {
    const f = this.#byInstance.get(instance);
    if (!f) return;
    this.#byInstance.delete(instance);
    for (const s of f.servers) s.close();
    for (const s of f.sockets) s.destroy();
    for (const u of f.udp) u.close();
    for (const p of f.peers.values()) {
      clearTimeout(p.timer);
      p.socket.close();
    }
    f.peers.clear();
  }

  /** Every listener (the agent stops; a restarted agent listens again for the instances it re-attaches). */
  closeAll(): void {
    for (const instance of [...this.#byInstance.keys()]) this.close(instance);
  }

  #listen(f: Forward, host: string, port: number, target: string, targetPort: number): Promise<Server> {
    const server = createServer((socket) => this.#forward(f, socket, target, targetPort));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, exclusive: true }, () => {
        server.off('error', reject);
        server.on('error', (err) => this.log.warn('port forwarder error', { host, port, err: err.message }));
        resolve(server);
      });
    });
  }

  /** Datagrams to `host:port` go to `target:targetPort` from a socket per client, and the answers back. */
  #listenUdp(f: Forward, host: string, port: number, target: string, targetPort: number): Promise<UdpSocket> {
    const server = createSocket('udp4');
    const forget = (key: string) => {
      const p = f.peers.get(key);
      if (!p) return;
      clearTimeout(p.timer);
      p.socket.close();
      f.peers.delete(key);
    };
    server.on('message', (msg, from) => {
      const key = `${port}/${from.address}:${from.port}`;
      let p = f.peers.get(key);
      if (p) {
        clearTimeout(p.timer);
        f.peers.delete(key); // re-inserted: the map stays in order of use
      } else {
        if (f.peers.size >= UDP_MAX_PEERS) forget(f.peers.keys().next().value as string);
        const socket = createSocket('udp4');
        socket.on('message', (answer) => server.send(answer, from.port, from.address));
        socket.on('error', () => forget(key));
        p = { socket };
      }
      p.timer = setTimeout(() => forget(key), UDP_IDLE_MS);
      p.timer.unref();
      f.peers.set(key, p);
      p.socket.send(msg, targetPort, target);
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.bind({ address: host, port, exclusive: true }, () => {
        server.off('error', reject);
        server.on('error', (err) => this.log.warn('udp port forwarder error', { host, port, err: err.message }));
        resolve(server);
      });
    });
  }

  #forward(f: Forward, socket: Socket, host: string, port: number): void {
    f.sockets.add(socket);
    socket.on('close', () => f.sockets.delete(socket));
    socket.on('error', () => {});
    socket.pause();
    const upstream = createConnection({ host, port });
    f.sockets.add(upstream);
    upstream.on('close', () => {
      f.sockets.delete(upstream);
      socket.destroy();
    });
    upstream.on('error', () => socket.destroy());
    socket.once('close', () => upstream.destroy());
    upstream.once('connect', () => {
      socket.pipe(upstream);
      upstream.pipe(socket);
      socket.resume();
    });
  }
}
