/**
 * The resolver the agent gives instances in network namespaces of their own: a UDP listener on
 * the agent bridge's gateway address, port 53, that passes each query to the host's resolvers
 * (the `nameserver` lines of the agent's /etc/resolv.conf, or the agent's --resolver host:port,
 * in turn on failure) and the answer
 * back. The instances' egress rules let them reach it and nothing else of the host; the host's
 * resolvers (often on its loopback, 127.0.0.53) stay out of their reach.
 */
import { createSocket, type Socket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import type { Logger } from '@platform/proto/common';

const QUERY_TIMEOUT_MS = 4000;
/** Queries in flight at once; more are dropped (the client asks again). */
const MAX_IN_FLIGHT = 256;

/** The IPv4 nameservers of a resolv.conf text (none: 127.0.0.1, as the resolver library does). */
export function nameservers(text: string): string[] {
  const found = text
    .split('\n')
    .map((l) => /^\s*nameserver\s+(\S+)/.exec(l)?.[1] ?? '')
    .filter((a) => isIPv4(a));
  return found.length > 0 ? found : ['127.0.0.1'];
}

export class DnsProxy {
  #socket: Socket | undefined;
  #inFlight = 0;

  constructor(
    private readonly log: Logger,
    private readonly upstream: () => string[] = () => nameservers(readResolvConf()),
  ) {}

  /** Listens at `address`:`port` (53 by default); a second call for the same address does nothing. */
  async listen(address: string, port = 53): Promise<void> {
    if (this.#socket) return;
    const socket = createSocket({ type: 'udp4', reuseAddr: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind({ address, port, exclusive: true }, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    socket.on('error', (err) => this.log.warn('dns proxy error', { err: err.message }));
    socket.on('message', (msg, from) => this.#query(socket, msg, from.address, from.port));
    this.#socket = socket;
  }

  get port(): number | undefined {
    return this.#socket?.address().port;
  }

  close(): void {
    this.#socket?.close();
    this.#socket = undefined;
  }

  #query(server: Socket, msg: Buffer, address: string, port: number): void {
    if (this.#inFlight >= MAX_IN_FLIGHT || msg.length < 12) return;
    this.#inFlight++;
    const servers = this.upstream();
    const ask = (i: number): void => {
      const out = createSocket('udp4');
      let done = false;
      const finish = (answer: Buffer | undefined) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        out.close();
        if (answer) {
          this.#inFlight--;
          server.send(answer, port, address);
        } else if (i + 1 < servers.length) {
          ask(i + 1);
        } else {
          this.#inFlight--;
        }
      };
      const timer = setTimeout(() => finish(undefined), QUERY_TIMEOUT_MS);
      out.on('error', () => finish(undefined));
      // The answer must carry the query's id (the first two bytes).
      out.on('message', (answer) => finish(answer.length >= 2 && answer[0] === msg[0] && answer[1] === msg[1] ? answer : undefined));
      const [upstreamHost = '', upstreamPort = '53'] = servers[i]!.split(':');
      out.send(msg, Number(upstreamPort), upstreamHost);
    };
    ask(0);
  }
}

function readResolvConf(): string {
  try {
    return readFileSync('/etc/resolv.conf', 'utf8');
  } catch {
    return '';
  }
}
