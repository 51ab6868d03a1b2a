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
 * Reads of namespaces' listening ports run at most this many at once. Reading
 * /proc/<pid>/net/tcp walks the kernel's whole TCP hash table, however few sockets the namespace
 * holds: milliseconds per read on a host with much memory (3.5 ms measured on 24 GiB). Many
 * instances starting at once would otherwise fill the thread pool with them, and the packages
 * being unpacked meanwhile (file reads, gunzip) would wait behind.
 */
export const NAMESPACE_READS = 2;
let namespaceReads = 0;
const waitingReads: (() => void)[] = [];

/** The TCP ports that listen in the network namespace of process `pid` (read from its /proc). */
export async function listeningPortsOf(pid: number): Promise<Set<number>> {
  if (namespaceReads >= NAMESPACE_READS) await new Promise<void>((resolve) => waitingReads.push(resolve));
  else namespaceReads++;
  try {
    const set = new Set<number>();
    // The process gone: no namespace to read, an error (tcp6 alone may be missing: no IPv6).
    parseListening(await readFile(`/proc/${pid}/net/tcp`, 'latin1'), set);
    try {
      parseListening(await readFile(`/proc/${pid}/net/tcp6`, 'latin1'), set);
    } catch {
      // no IPv6
    }
    return set;
  } finally {
    // The slot passes to the next waiting read, or is given back.
    const next = waitingReads.shift();
    if (next) next();
    else namespaceReads--;
  }
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
