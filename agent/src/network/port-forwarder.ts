/**
 * Forwarding an instance's ports from the host: an instance on a virtual network listens inside
 * its own network namespace, at its address on the network; the agent listens at the host
 * address it reports (`<address>:<port>`, the same port number) and passes each connection to
 * `<instance address>:<port>`. The router, links and users reach the instance where they always
 * did.
 *
 * Why in the agent rather than nftables DNAT: the reported address is often 127.0.0.1, and
 * locally made connections to it would need route_localnet and source NAT on the host (sysctls
 * and rules that change how the whole host treats loopback traffic); a listener needs nothing
 * of the host, refuses exactly when the instance does not listen (the connection is closed at
 * once), and goes with the instance. The cost is one copy of the bytes through the agent.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { Logger } from '@platform/proto/common';

interface Forward {
  servers: Server[];
  sockets: Set<Socket>;
}

export class PortForwarders {
  readonly #byInstance = new Map<string, Forward>();

  constructor(private readonly log: Logger) {}

  /**
   * Listens at `host:<port>` for each of `ports`, forwarding to `target:<port>` (or to the port at
   * the same place in `targetPorts`). Rejects (and listens on none) when one cannot listen.
   */
  async open(instance: string, host: string, ports: readonly number[], target: string, targetPorts: readonly number[] = ports): Promise<void> {
    this.close(instance);
    const f: Forward = { servers: [], sockets: new Set() };
    this.#byInstance.set(instance, f);
    try {
      for (const [i, port] of ports.entries()) f.servers.push(await this.#listen(f, host, port, target, targetPorts[i] ?? port));
    } catch (err) {
      this.close(instance);
      throw err;
    }
    this.log.info('instance ports forwarded', { instance, host, ports, target });
  }

  close(instance: string): void {
    const f = this.#byInstance.get(instance);
    if (!f) return;
    this.#byInstance.delete(instance);
    for (const s of f.servers) s.close();
    for (const s of f.sockets) s.destroy();
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
