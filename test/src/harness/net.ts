import { connect, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { Transform } from 'node:stream';

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

/** `count` distinct free loopback TCP ports, each held until all are picked (one closed at once may be picked again). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  try {
    for (const server of servers) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
    }
    return servers.map((server) => (server.address() as AddressInfo).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()))));
  }
}

/**
 * A TCP relay on a loopback port to `target` (host:port), whose connections a test can cut
 * at once: a dropped connection, as a proxy or a network would drop it. It can also let
 * requests through and lose the answers (`dropAnswers`): the server does what it was asked,
 * the client never hears of it.
 */
export class TcpRelay {
  readonly #sockets = new Set<Socket>();
  #dropping = false;
  /** Bytes that, once a client sends them, start dropAnswers(). */
  #trigger: Buffer | undefined;
  /** Bytes from the target thrown away since dropAnswers(). */
  dropped = 0;
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
      const answers = new Transform({
        transform: (chunk: Buffer, _encoding, done) => {
          if (!this.#dropping) return done(null, chunk);
          this.dropped += chunk.length;
          done();
        },
      });
      const requests = new Transform({
        transform: (chunk: Buffer, _encoding, done) => {
          if (this.#trigger && chunk.includes(this.#trigger)) {
            this.#trigger = undefined;
            this.dropAnswers();
          }
          done(null, chunk);
        },
      });
      client.pipe(requests).pipe(upstream).pipe(answers).pipe(client);
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

  /** From now on what the target sends is thrown away; what clients send still reaches it. */
  dropAnswers(): void {
    this.#dropping = true;
    this.dropped = 0;
  }

  /** dropAnswers() once a client sends `marker` (that request still reaches the target). */
  dropAnswersAfter(marker: string): void {
    this.#trigger = Buffer.from(marker, 'utf8');
  }

  /**
   * Answers are relayed again, on new connections: those that lost bytes are cut (their
   * streams cannot go on), as a network that recovers after dropping a connection's packets.
   */
  heal(): number {
    this.#dropping = false;
    this.#trigger = undefined;
    return this.cutAll();
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
