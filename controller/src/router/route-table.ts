/**
 * The route table: every endpoint that a job routes to, with the RUNNING instances that serve
 * it. The controller keeps one, fed by job changes and instance records; routers (embedded or
 * standalone) follow it through `subscribe`: a full snapshot, then changes, each with the table
 * version it produces. Versions only grow within one table; a new table (a controller restart)
 * starts a new `epoch`, which tells a follower that catching up means a new snapshot.
 *
 * An instance is in the table while it is RUNNING (the agent reports RUNNING once every required
 * port listens), has the routed port's address, and has not been asked to stop: a stop is
 * persisted, and so leaves the table, before its agent is told, so routers drain it first.
 *
 * Single-threaded: every method runs to completion on the event loop, and listeners are called
 * synchronously in version order.
 */
import { randomUUID } from 'node:crypto';
import { parseFqn } from '../model/fqn.js';
import { parseHttpEndpoint, routesOf, type RoutedJob, type RouteType } from './route.js';

/** What the table reads of an instance record (structurally a subset of the scheduler's). */
export interface RoutableInstance {
  uuid: string;
  job_uuid: string;
  state: string;
  /** Job port number (as a string) -> "host:port". */
  ports: Record<string, string>;
  stop?: string | undefined;
  run?: unknown;
}

export interface TableBackend {
  instance: string;
  /** host:port of the instance's port. */
  address: string;
}

export interface TableJob {
  job: string;
  /** The route's weight (or the job's when the route has none); 0 = share what is left. */
  weight: number;
  sticky_cookies: string[];
  backends: TableBackend[];
}

export interface TablePath {
  /** `/` or a path without a trailing slash; HTTP only (`/` for TCP and UDP). */
  path: string;
  https_only: boolean;
  jobs: TableJob[];
}

/** One endpoint: an HTTP host (its paths inside), or a TCP or UDP address. */
export interface TableEntry {
  type: RouteType;
  endpoint: string;
  paths: TablePath[];
}

export interface TableSnapshot {
  epoch: string;
  version: number;
  entries: TableEntry[];
}

/** Entries replaced (or added) and removed, by `entryKey`. */
export interface TableChange {
  epoch: string;
  version: number;
  upserts: TableEntry[];
  removes: string[];
}

export type TableUpdate = ({ kind: 'snapshot' } & TableSnapshot) | ({ kind: 'change' } & TableChange);

export function entryKey(e: Pick<TableEntry, 'type' | 'endpoint'>): string {
  return `${e.type} ${e.endpoint}`;
}

const RUNNING = new Set(['RUNNING', 'FIRST_RUNNING']);

interface JobRoutes {
  job: RoutedJob;
  namespace: string;
  /** Entry keys this job contributes to. */
  keys: Set<string>;
}

export class RouteTable {
  readonly epoch = randomUUID();
  #version = 0;
  readonly #jobs = new Map<string, JobRoutes>();
  /** Entry key -> jobs routed there. */
  readonly #jobsAt = new Map<string, Set<string>>();
  readonly #instances = new Map<string, RoutableInstance>();
  readonly #instancesOf = new Map<string, Set<string>>();
  readonly #entries = new Map<string, TableEntry>();
  readonly #entryJson = new Map<string, string>();
  /** Instance uuid -> number of table paths it serves. */
  readonly #announced = new Map<string, number>();
  readonly #listeners = new Set<(update: TableUpdate) => void>();

  get version(): number {
    return this.#version;
  }

  /** The job as now persisted (undefined: deleted). */
  setJob(uuid: string, job: RoutedJob | undefined): void {
    const before = this.#jobs.get(uuid);
    const touched = new Set(before?.keys ?? []);
    for (const key of before?.keys ?? []) this.#jobsAt.get(key)?.delete(uuid);
    if (job && routesOf(job).length > 0) {
      const keys = new Set(routesOf(job).map(({ route }) => entryKey({ type: route.type, endpoint: hostOf(route.type, route.endpoint) })));
      this.#jobs.set(uuid, { job, namespace: parseFqn(job.fqn, { type: 'job' }).namespace, keys });
      for (const key of keys) {
        touched.add(key);
        let set = this.#jobsAt.get(key);
        if (!set) this.#jobsAt.set(key, (set = new Set()));
        set.add(uuid);
      }
    } else {
      this.#jobs.delete(uuid);
    }
    this.#recompute(touched);
  }

  /** An instance record as now persisted. */
  setInstance(record: RoutableInstance): void {
    const old = this.#instances.get(record.uuid);
    if (old && old.job_uuid !== record.job_uuid) this.#instancesOf.get(old.job_uuid)?.delete(record.uuid);
    this.#instances.set(record.uuid, record);
    let set = this.#instancesOf.get(record.job_uuid);
    if (!set) this.#instancesOf.set(record.job_uuid, (set = new Set()));
    set.add(record.uuid);
    // Only a change of routability or address can change the table; the diff in #recompute skips the rest.
    if (old && !routable(old) && !routable(record)) return;
    this.#recompute(this.#jobs.get(record.job_uuid)?.keys ?? new Set());
  }

  deleteInstance(uuid: string): void {
    const old = this.#instances.get(uuid);
    if (!old) return;
    this.#instances.delete(uuid);
    this.#instancesOf.get(old.job_uuid)?.delete(uuid);
    if (routable(old)) this.#recompute(this.#jobs.get(old.job_uuid)?.keys ?? new Set());
  }

  /** True while the instance serves at least one route (the Instance's `announced_routes`). */
  announced(instance: string): boolean {
    return (this.#announced.get(instance) ?? 0) > 0;
  }

  /** Entry key -> jobs routed there. */
  jobsByEntry(): IterableIterator<[string, Set<string>]> {
    return this.#jobsAt.entries();
  }

  /** The namespace whose jobs route at this entry key, if any job does (other than `except`). */
  ownerOf(key: string, except?: string): string | undefined {
    for (const uuid of this.#jobsAt.get(key) ?? []) {
      if (uuid !== except) return this.#jobs.get(uuid)?.namespace;
    }
    return undefined;
  }

  /** Every route endpoint (as jobs name them, paths included) -> jobs routed there, with their FQNs. */
  routeMap(): Map<string, { uuid: string; fqn: string }[]> {
    const map = new Map<string, { uuid: string; fqn: string }[]>();
    for (const { job } of this.#jobs.values()) {
      for (const { route } of routesOf(job)) {
        let list = map.get(route.endpoint);
        if (!list) map.set(route.endpoint, (list = []));
        if (!list.some((j) => j.uuid === job.uuid)) list.push({ uuid: job.uuid, fqn: job.fqn });
      }
    }
    return map;
  }

  snapshot(): TableSnapshot {
    return { epoch: this.epoch, version: this.#version, entries: [...this.#entries.values()] };
  }

  entry(key: string): TableEntry | undefined {
    return this.#entries.get(key);
  }

  /**
   * Calls `listener` at once with a snapshot, then with every change in version order, until
   * the returned function is called. A listener must not throw.
   */
  subscribe(listener: (update: TableUpdate) => void): () => void {
    listener({ kind: 'snapshot', ...this.snapshot() });
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #recompute(keys: Iterable<string>): void {
    const upserts: TableEntry[] = [];
    const removes: string[] = [];
    for (const key of keys) {
      const next = this.#build(key);
      const json = next ? JSON.stringify(next) : undefined;
      if (json === this.#entryJson.get(key)) continue;
      const old = this.#entries.get(key);
      if (old) this.#count(old, -1);
      if (next && json) {
        this.#entries.set(key, next);
        this.#entryJson.set(key, json);
        this.#count(next, 1);
        upserts.push(next);
      } else {
        this.#entries.delete(key);
        this.#entryJson.delete(key);
        removes.push(key);
      }
    }
    if (upserts.length + removes.length === 0) return;
    this.#version++;
    const change: TableUpdate = { kind: 'change', epoch: this.epoch, version: this.#version, upserts, removes };
    for (const listener of this.#listeners) listener(change);
  }

  #count(entry: TableEntry, delta: number): void {
    for (const p of entry.paths) {
      for (const j of p.jobs) {
        for (const b of j.backends) {
          const n = (this.#announced.get(b.instance) ?? 0) + delta;
          if (n > 0) this.#announced.set(b.instance, n);
          else this.#announced.delete(b.instance);
        }
      }
    }
  }

  #build(key: string): TableEntry | undefined {
    const jobs = [...(this.#jobsAt.get(key) ?? [])].sort();
    if (jobs.length === 0) return undefined;
    const [type, endpoint] = splitKey(key);
    const paths = new Map<string, TablePath>();
    for (const uuid of jobs) {
      const { job } = this.#jobs.get(uuid)!;
      for (const { port, route } of routesOf(job)) {
        if (route.type !== type || hostOf(route.type, route.endpoint) !== endpoint) continue;
        const path = route.type === 'http' ? parseHttpEndpoint(route.endpoint).path : '/';
        let p = paths.get(path);
        if (!p) paths.set(path, (p = { path, https_only: false, jobs: [] }));
        if (route.https_only) p.https_only = true;
        const backends: TableBackend[] = [];
        for (const id of [...(this.#instancesOf.get(uuid) ?? [])].sort()) {
          const i = this.#instances.get(id)!;
          const address = i.ports[String(port)];
          if (routable(i) && address) backends.push({ instance: i.uuid, address });
        }
        p.jobs.push({ job: uuid, weight: route.weight ?? job.weight, sticky_cookies: job.sticky_session_cookies, backends });
      }
    }
    return { type, endpoint, paths: [...paths.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
  }
}

function routable(i: RoutableInstance): boolean {
  return RUNNING.has(i.state) && i.stop === undefined && i.run === undefined;
}

/** The entry an endpoint belongs to: an HTTP endpoint's host, or the TCP/UDP endpoint itself. */
export function hostOf(type: RouteType, endpoint: string): string {
  return type === 'http' ? parseHttpEndpoint(endpoint).host : endpoint;
}

function splitKey(key: string): [RouteType, string] {
  const space = key.indexOf(' ');
  return [key.slice(0, space) as RouteType, key.slice(space + 1)];
}
