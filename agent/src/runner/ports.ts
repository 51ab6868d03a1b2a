/**
 * Ports: choosing a free port for a job's port 0, and seeing which ports listen.
 *
 * Instances share the host's network namespace, so a port is free when the agent can bind it
 * on the host. Ports handed out are remembered while their instance lives, so two instances
 * starting at the same moment never get the same one. Listening is read from /proc/net/tcp and
 * tcp6 (sockets in LISTEN state, any address) rather than by connecting, which would be seen
 * by the application as a client.
 */
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export class PortAllocator {
  readonly #reserved = new Set<number>();

  /** A port that is free now and not handed out to another live instance. */
  async allocate(host = '127.0.0.1'): Promise<number> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = await freePort(host);
      if (!this.#reserved.has(port)) {
        this.#reserved.add(port);
        return port;
      }
    }
    throw new Error('no free port found');
  }

  /** Marks `port` as in use (an instance re-attached after a restart). */
  reserve(port: number): void {
    this.#reserved.add(port);
  }

  release(port: number): void {
    this.#reserved.delete(port);
  }
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen({ host, port: 0, exclusive: true }, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error('no port'))));
    });
  });
}

/** Parses /proc/net/tcp{,6} text: the local ports of sockets in LISTEN state (0A). */
export function parseListening(text: string, into = new Set<number>()): Set<number> {
  for (const line of text.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 4 || cols[3] !== '0A') continue;
    const local = cols[1] ?? '';
    const port = parseInt(local.slice(local.lastIndexOf(':') + 1), 16);
    if (Number.isFinite(port)) into.add(port);
  }
  return into;
}

let recent: { at: number; ports: Promise<Set<number>> } | undefined;

/**
 * The TCP ports that listen on this host now (any address). Many instances starting together
 * share one read: a result is reused for 20 ms.
 */
export function listeningPorts(): Promise<Set<number>> {
  const now = Date.now();
  if (recent && now - recent.at < 20) return recent.ports;
  recent = { at: now, ports: readListening() };
  return recent.ports;
}

/**
 * The TCP ports that listen in the network namespace of process `pid` (read from its /proc).
 * Read synchronously: a namespace of its own holds few sockets (a read takes microseconds), and
 * many instances starting at once poll theirs often; asynchronous reads would each take several
 * turns of the thread pool (open, stat, read, close) that the packages being extracted meanwhile
 * (file reads, gunzip) wait behind.
 */
export function listeningPortsOf(pid: number): Promise<Set<number>> {
  const set = new Set<number>();
  for (const f of [`/proc/${pid}/net/tcp`, `/proc/${pid}/net/tcp6`]) {
    try {
      parseListening(readFileSync(f, 'latin1'), set);
    } catch (err) {
      // The process is gone: no namespace to read (tcp6 alone may be missing: no IPv6).
      if (f.endsWith('/tcp')) return Promise.reject(err as Error);
    }
  }
  return Promise.resolve(set);
}

async function readListening(dir = '/proc/net'): Promise<Set<number>> {
  const set = new Set<number>();
  for (const f of [`${dir}/tcp`, `${dir}/tcp6`]) {
    try {
      parseListening(await readFile(f, 'latin1'), set);
    } catch {
      // no IPv6, or not Linux
    }
  }
  return set;
}
