import { connect, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

/** A loopback port that was free a moment ago (for addresses that must survive a restart, or a child that needs one). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A TCP relay on a loopback port to `target` (host:port), whose connections a test can cut
 * at once: a dropped connection, as a proxy or a network would drop it.
 */
export class TcpRelay {
  readonly #sockets = new Set<Socket>();
  readonly #server: Server;
  #address = '';

  private constructor(target: string) {
    const colon = target.lastIndexOf(':');
    const host = target.slice(0, colon);
    const port = Number(target.slice(colon + 1));
    this.#server = createServer((client) => {
      const upstream = connect(port, host);
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  static async start(target: string): Promise<TcpRelay> {
    const relay = new TcpRelay(target);
    await new Promise<void>((resolve, reject) => {
      relay.#server.once('error', reject);
      relay.#server.listen(0, '127.0.0.1', () => resolve());
    });
    relay.#address = `127.0.0.1:${(relay.#server.address() as AddressInfo).port}`;
    return relay;
  }

  /** host:port to connect to instead of the target. */
  get address(): string {
    return this.#address;
  }

  /** Destroys every connection through the relay (new ones are still relayed); answers how many sockets it closed. */
  cutAll(): number {
    const n = this.#sockets.size;
    for (const s of this.#sockets) s.destroy();
    return n;
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
