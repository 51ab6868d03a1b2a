/**
 * One listening TCP address served in turn by several HTTP servers: a controller on etcd hands
 * its API address from its standby front to the active controller's API and back, and the
 * address must not refuse connections meanwhile (clients and load balancers would take it for
 * a dead controller). The listener stays bound for the whole process; each connection it
 * accepts goes to the server attached now, or to the fallback (the standby front, which answers
 * 503 with retry while nothing leads here, or sends requests on to the active controller).
 *
 * An attached server is not itself listening: it is handed connections (Node's
 * `server.emit('connection', socket)`), and told it listens, so that it checks its connections'
 * header and request timeouts as a listening one does.
 */
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import type { Server } from 'node:http';

/** What attach() gives back: detaches the server, then ends its connections (idle ones at once, the others after `graceMs`). */
export type Detach = (graceMs: number) => Promise<void>;

export class SharedListener {
  readonly #tcp: TcpServer;
  #attached: { server: Server; sockets: Set<Socket> } | undefined;
  #address: AddressInfo | undefined;

  constructor(private readonly fallback: Server) {
    this.#tcp = createTcpServer({ pauseOnConnect: false }, (socket) => {
      const target = this.#attached;
      if (target) {
        target.sockets.add(socket);
        socket.once('close', () => target.sockets.delete(socket));
        target.server.emit('connection', socket);
      } else {
        this.fallback.emit('connection', socket);
      }
    });
    fallback.emit('listening');
  }

  /** Binds `host:port` (port 0: one is picked). */
  async listen(host: string, port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#tcp.once('error', reject);
      this.#tcp.listen(port, host, () => {
        this.#tcp.off('error', reject);
        resolve();
      });
    });
    this.#address = this.#tcp.address() as AddressInfo;
  }

  /** The bound address. */
  get address(): AddressInfo {
    if (!this.#address) throw new Error('the shared listener is not bound');
    return this.#address;
  }

  /** New connections go to `server` until the detach it gives back (one server at a time). */
  attach(server: Server): Detach {
    if (this.#attached) throw new Error('a server is attached to the shared listener already');
    const attached = { server, sockets: new Set<Socket>() };
    this.#attached = attached;
    server.emit('listening');
    // The fallback's idle connections end, so that their clients' next requests reach `server`.
    this.fallback.closeIdleConnections();
    return async (graceMs) => {
      if (this.#attached === attached) this.#attached = undefined;
      // Its connections end: idle ones now, busy ones once answered or after the grace period.
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = Date.now() + graceMs;
      while (attached.sockets.size > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        server.closeIdleConnections();
      }
      server.closeAllConnections();
    };
  }

  /** Unbinds the address; the servers' own connections are theirs to end. */
  async close(): Promise<void> {
    this.#attached = undefined;
    if (!this.#tcp.listening) return;
    await new Promise<void>((resolve) => this.#tcp.close(() => resolve()));
  }
}
