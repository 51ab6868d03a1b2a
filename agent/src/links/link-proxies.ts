/**
 * Links between jobs, on the agent's side (cluster-api.md, Binding: target_job_*; the manifest's
 * `links`). An instance whose job links to another job gets `<NAME>_URI` and `<UUID>_URI` =
 * `tcp://<ip>:<port>`, an address on this host where the agent listens; each connection made there
 * is passed to one of the target job's RUNNING instances, in turn. The controller sends the
 * target's addresses with the instance (LinkSpec.addresses) and again whenever they change
 * (LinkTargets), so connections follow the target's scaling while the instance keeps running.
 *
 * Listeners are shared: one per listen address. A link with target_job_bound_ip and
 * target_job_bound_port listens there; without, on 127.0.0.1 at a port the system picks, shared by
 * every instance on this agent linking to the same target port. A listener closes when its last
 * instance is released. What is open is written to `<data>/links.json`, so that an agent that
 * restarts listens again at the same addresses for the instances it re-attaches (their
 * environment cannot change).
 *
 * Instances share the host's network (no network namespace), so 127.0.0.1 here is 127.0.0.1 there.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { LinkSpec, LinkTargets } from '@platform/proto';
import type { Logger } from '@platform/proto/common';

const targetKey = (job: string, port: number) => `${job}:${port}`;

interface Listener {
  /** `ip:port` as listened on. */
  address: string;
  server: Server;
  target: string;
  /** Instances using it. */
  users: Set<string>;
  /** Round robin position. */
  next: number;
  sockets: Set<Socket>;
}

/** What is written to links.json: per instance, its links' listen addresses and targets. */
type Saved = Record<string, { address: string; target: string; bound: boolean }[]>;

export class LinkProxies {
  /** By listen address. */
  readonly #listeners = new Map<string, Listener>();
  /** Automatic (unbound) listeners by target. */
  readonly #auto = new Map<string, Listener>();
  /** The addresses of each target (`job:port`). */
  readonly #targets = new Map<string, string[]>();
  readonly #byInstance = new Map<string, { address: string; target: string; bound: boolean }[]>();

  constructor(
    private readonly file: string,
    private readonly log: Logger,
    private readonly host = '127.0.0.1',
  ) {}

  /**
   * Opens (or shares) the listeners of `spec`'s links and answers the environment they give the
   * instance. Rejects when a bound address cannot be listened on.
   */
  async open(instance: string, links: readonly LinkSpec[]): Promise<Record<string, string>> {
    const env: Record<string, string> = {};
    const used: { address: string; target: string; bound: boolean }[] = [];
    try {
      for (const link of links) {
        const target = targetKey(link.targetJobUuid ?? '', link.targetPort ?? 0);
        this.#targets.set(target, [...(link.addresses ?? [])]);
        const bound = !!link.boundIp && !!link.boundPort;
        const l = bound ? await this.#listen(`${link.boundIp}:${link.boundPort}`, target) : await this.#autoListener(target);
        l.users.add(instance);
        used.push({ address: l.address, target, bound });
        for (const name of link.envVars ?? []) env[name] = `tcp://${l.address}`;
      }
    } catch (err) {
      this.#byInstance.set(instance, used);
      this.release(instance);
      throw err;
    }
    this.#byInstance.set(instance, used);
    this.#save();
    return env;
  }

  /** The targets' addresses now (LinkTargets from the controller). */
  update(m: LinkTargets): void {
    const key = targetKey(m.targetJobUuid ?? '', m.targetPort ?? 0);
    this.#targets.set(key, [...(m.addresses ?? [])]);
    this.log.debug('link targets', { target: key, addresses: m.addresses ?? [] });
  }

  /** The instance is gone: listeners nobody uses any more close (their connections end). */
  release(instance: string): void {
    const used = this.#byInstance.get(instance);
    if (!used) return;
    this.#byInstance.delete(instance);
    for (const u of used) {
      const l = this.#listeners.get(u.address);
      if (!l) continue;
      l.users.delete(instance);
      if (l.users.size > 0) continue;
      this.#listeners.delete(l.address);
      if (this.#auto.get(l.target) === l) this.#auto.delete(l.target);
      l.server.close();
      for (const s of l.sockets) s.destroy();
    }
    this.#save();
  }

  /** Listens again for the instances still here after an agent restart (`alive`: their uuids). */
  async restore(alive: ReadonlySet<string>): Promise<void> {
    let saved: Saved;
    try {
      saved = JSON.parse(readFileSync(this.file, 'utf8')) as Saved;
    } catch {
      return;
    }
    for (const [instance, used] of Object.entries(saved)) {
      if (!alive.has(instance)) continue;
      const kept: typeof used = [];
      for (const u of used) {
        try {
          const l = await this.#listen(u.address, u.target);
          if (!u.bound) this.#auto.set(u.target, l);
          l.users.add(instance);
          kept.push(u);
        } catch (err) {
          this.log.error('a link listener could not be opened again', { instance, address: u.address, err: (err as Error).message });
        }
      }
      this.#byInstance.set(instance, kept);
    }
    this.#save();
  }

  /** Closes every listener (the agent stops; instances keep running and get them back on restart). */
  close(): void {
    for (const l of this.#listeners.values()) {
      l.server.close();
      for (const s of l.sockets) s.destroy();
    }
    this.#listeners.clear();
    this.#auto.clear();
  }

  async #autoListener(target: string): Promise<Listener> {
    const existing = this.#auto.get(target);
    if (existing) return existing;
    const l = await this.#listen(`${this.host}:0`, target);
    this.#auto.set(target, l);
    return l;
  }

  /** A listener at `address` (`ip:port`, port 0: any) for `target`; shared when one is open there for it. */
  async #listen(address: string, target: string): Promise<Listener> {
    const existing = this.#listeners.get(address);
    if (existing) {
      if (existing.target !== target) throw new Error(`link address ${address} is used by a link to another job port (${existing.target})`);
      return existing;
    }
    const colon = address.lastIndexOf(':');
    const ip = address.slice(0, colon);
    const port = Number(address.slice(colon + 1));
    const server = createServer();
    const listener: Listener = { address, server, target, users: new Set(), next: 0, sockets: new Set() };
    server.on('connection', (socket) => this.#forward(listener, socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, ip, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (err) => this.log.warn('link listener error', { address, err: err.message }));
    const bound = server.address();
    if (bound && typeof bound === 'object') listener.address = `${ip}:${bound.port}`;
    this.#listeners.set(listener.address, listener);
    this.log.info('link listening', { address: listener.address, target });
    return listener;
  }

  /** Passes `socket` to the next address of the target, trying the others when one refuses. */
  #forward(l: Listener, socket: Socket): void {
    l.sockets.add(socket);
    socket.on('close', () => l.sockets.delete(socket));
    socket.on('error', () => {});
    socket.pause();
    const addresses = this.#targets.get(l.target) ?? [];
    const attempt = (tries: number): void => {
      if (tries >= addresses.length) {
        socket.destroy();
        return;
      }
      const address = addresses[l.next++ % addresses.length]!;
      const colon = address.lastIndexOf(':');
      const upstream = createConnection({ host: address.slice(0, colon), port: Number(address.slice(colon + 1)) });
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        l.sockets.add(upstream);
        upstream.on('close', () => l.sockets.delete(upstream));
        socket.pipe(upstream);
        upstream.pipe(socket);
        socket.resume();
        socket.once('close', () => upstream.destroy());
        upstream.once('close', () => socket.destroy());
      });
      upstream.on('error', () => {
        if (!connected) attempt(tries + 1);
        else socket.destroy();
      });
    };
    attempt(0);
  }

  #save(): void {
    const saved: Saved = Object.fromEntries(this.#byInstance);
    try {
      writeFileSync(`${this.file}.tmp`, JSON.stringify(saved));
      renameSync(`${this.file}.tmp`, this.file);
    } catch (err) {
      this.log.warn('links.json not written', { err: (err as Error).message });
    }
  }
}
