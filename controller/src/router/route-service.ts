/**
 * The controller's side of routes: checks the routes of a job before it is saved (syntax,
 * default routes, ownership by namespace), keeps the route table in step with jobs and
 * instances, and answers the route listings of the API.
 *
 * Ownership: every job routed at one HTTP host (or TCP/UDP endpoint) lives in one namespace.
 * The check and the save run under a lock per endpoint (`claim`), so two namespaces racing for
 * one host cannot both win; the table is updated before the lock is released.
 */
import { ConflictError, InvalidRequestError } from '../errors.js';
import { parseFqn } from '../model/fqn.js';
import type { Store } from '../store/store.js';
import { keys } from '../store/keys.js';
import { mayHaveMember } from '../store/stored-json.js';
import { KeyedLock } from '../util/keyed-lock.js';
import {
  defaultRouteHost,
  formatHttpEndpoint,
  formatStreamEndpoint,
  parseHttpEndpoint,
  parseStreamEndpoint,
  routeKey,
  routeRealm,
  routesOf,
  type RoutedJob,
  type RouteInput,
} from './route.js';
import { entryKey, hostOf, RouteTable, type RoutableInstance } from './route-table.js';

export interface RoutePort {
  number: number;
  optional: boolean;
  routes: RouteInput[];
}

/** The routes of a job about to be saved, checked and completed. */
export interface PreparedRoutes {
  /** The ports to store: endpoints in canonical form, default routes filled in. */
  ports: RoutePort[];
  /** Table entry keys the job will route at (what `claim` locks and checks). */
  keys: string[];
  /** Routes that the job did not have before (each needs `permit map` on its realm). */
  added: RouteInput[];
  removed: RouteInput[];
}

export interface RouteServiceOptions {
  /** The domain of default routes (`<name>-<random>.<domain>`). */
  domain: string;
  /** Where `tcp://auto` takes its port. Default 30000-30999. */
  tcpPorts?: { from: number; to: number };
  /** The address named in the endpoints that `tcp://auto` makes (the routers'). Default 127.0.0.1. */
  streamAddress?: string;
  /** The 6 random characters of a default route; injected for tests. */
  randomSuffix?: () => string;
}

export class RouteService {
  readonly table = new RouteTable();
  readonly #locks = new KeyedLock();

  constructor(private readonly options: RouteServiceOptions) {}

  /** Fills the table from the stored jobs; instances come from `instances`. */
  async load(store: Store, instances: Iterable<RoutableInstance>): Promise<void> {
    await this.loadJobs(store);
    this.addInstances(instances);
  }

  /** The stored jobs' routes (the first half of load(): it may run while the instances are read). */
  async loadJobs(store: Store): Promise<void> {
    for await (const [, value] of store.iterate({ prefix: keys.jobPrefix })) this.takeStoredJob(value);
  }

  /** One stored job's routes, from its record as stored (a term's start reads the jobs once for all who need them). */
  takeStoredJob(value: string): void {
    // A job without a route (most) is not parsed: store/stored-json.ts.
    if (!mayHaveMember(value, 'routes', '[{')) return;
    const job = JSON.parse(value) as RoutedJob;
    if (routesOf(job).length > 0) this.table.setJob(job.uuid, job);
  }

  /** The instances behind the routes (the second half of load()). */
  addInstances(instances: Iterable<RoutableInstance>): void {
    for (const i of instances) this.table.setInstance(i);
  }

  /**
   * Checks and completes the routes of `ports` for a job (400 on a bad route). `current` is the
   * job as stored, for an update: its default routes are kept, and what it had is not "added".
   */
  prepare(target: { fqn: string; name: string; tags: Record<string, string> }, ports: RoutePort[], current?: { ports: RoutePort[] }): PreparedRoutes {
    const seen = new Set<string>();
    const out: RoutePort[] = ports.map((port, pi) => ({
      ...port,
      routes: port.routes.map((route, ri) => {
        const field = `ports.${pi}.routes.${ri}`;
        const normalized = this.#normalize(route, field, target, port.number, current);
        const dup = `${normalized.type} ${normalized.endpoint}`;
        // Each tcp://auto gets a port of its own later (claim), so two are not the same endpoint.
        if (normalized.endpoint !== TCP_AUTO && seen.has(dup)) throw new InvalidRequestError(`${field}: the job routes ${normalized.endpoint} twice; one port per endpoint`);
        seen.add(dup);
        return normalized;
      }),
    }));
    const before = new Map((current ? routesOf(current) : []).map(({ port, route }) => [routeKey(port, route), route]));
    const after = new Map(routesOf({ ports: out }).map(({ port, route }) => [routeKey(port, route), route]));
    return {
      ports: out,
      // TCP and UDP ports are one space per router: one lock for all of them.
      keys: [...new Set([...after.values()].map((r) => (r.type === 'http' ? entryKey({ type: r.type, endpoint: hostOf(r.type, r.endpoint) }) : STREAM_LOCK)))]
        .sort(),
      added: [...after].filter(([k]) => !before.has(k)).map(([, r]) => r),
      removed: [...before].filter(([k]) => !after.has(k)).map(([, r]) => r),
    };
  }

  #normalize(
    route: RouteInput,
    field: string,
    target: { name: string; tags: Record<string, string> },
    port: number,
    current: { ports: RoutePort[] } | undefined,
  ): RouteInput {
    if (route.type === 'tcp' || route.type === 'udp') {
      if (route.https_only) throw new InvalidRequestError(`${field}.https_only: only http routes can be https_only`);
      const e = parseStreamEndpoint(route.type, route.endpoint.trim(), `${field}.endpoint`);
      if (e.ip !== undefined) return withOptional({ type: route.type, endpoint: formatStreamEndpoint(route.type, { ip: e.ip, port: e.port }) }, route);
      // tcp://auto: a PUT that still asks for it keeps the port the job has; a new one is taken in claim().
      const kept = current?.ports.find((p) => p.number === port)?.routes.find((r) => r.type === 'tcp' && r.auto_provision === true);
      return withOptional({ type: 'tcp', endpoint: kept ? kept.endpoint : TCP_AUTO, auto_provision: true }, route);
    }
    const endpoint = route.endpoint.trim();
    if (endpoint === '' || endpoint === 'auto') {
      if (!route.auto_provision) throw new InvalidRequestError(`${field}.endpoint: a host name is required (or auto_provision: true for an app's default route)`);
      if (!Object.hasOwn(target.tags, 'app')) {
        throw new InvalidRequestError(`${field}.auto_provision: a default route is made for app jobs only (tag "app"); name an endpoint instead`);
      }
      // A PUT that still asks for the default route keeps the one the job has.
      const kept = current?.ports
        .find((p) => p.number === port)
        ?.routes.find((r) => r.type === 'http' && r.auto_provision === true);
      const host = kept ? kept.endpoint : defaultRouteHost(target.name, this.options.domain, this.options.randomSuffix);
      return withOptional({ type: 'http', endpoint: host, auto_provision: true }, route);
    }
    return withOptional({ type: 'http', endpoint: formatHttpEndpoint(parseHttpEndpoint(endpoint, `${field}.endpoint`)) }, route);
  }

  /**
   * Runs `save` holding `prepared.keys`: no other job can claim them meanwhile. Refuses (409,
   * before `save`) an endpoint that jobs of another namespace route at.
   */
  claim<T>(jobUuid: string | undefined, fqn: string, prepared: PreparedRoutes, save: () => Promise<T>): Promise<T> {
    const namespace = parseFqn(fqn, { type: 'job' }).namespace;
    const run = (i: number): Promise<T> => {
      if (i === prepared.keys.length) {
        this.#claimStreams(jobUuid, prepared);
        for (const key of prepared.keys) {
          if (key === STREAM_LOCK) continue;
          const owner = this.table.ownerOf(key, jobUuid);
          if (owner !== undefined && owner !== namespace) {
            const endpoint = key.slice(key.indexOf(' ') + 1);
            throw new ConflictError(`route ${endpoint} belongs to jobs of namespace ${owner}; a job of ${namespace} cannot route there`, {
              details: { endpoint, owner_namespace: owner },
            });
          }
        }
        return save();
      }
      return this.#locks.run(prepared.keys[i]!, () => run(i + 1));
    };
    return run(0);
  }

  /**
   * Under the stream lock: gives each `tcp://auto` route the lowest free port of the range, and
   * refuses (409) a TCP or UDP port that another job routes at (ports are per router, whatever
   * the address).
   */
  #claimStreams(jobUuid: string | undefined, prepared: PreparedRoutes): void {
    const used = new Map<string, string>();
    for (const [key, jobs] of this.table.jobsByEntry()) {
      const [type, endpoint] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
      if (type === 'http') continue;
      const port = endpoint.slice(endpoint.lastIndexOf(':') + 1);
      for (const j of jobs) if (j !== jobUuid) used.set(`${type} ${port}`, j);
    }
    const mine = new Set<string>();
    for (const p of prepared.ports) {
      for (const r of p.routes) {
        if (r.type === 'http' || r.endpoint === TCP_AUTO) continue;
        const port = r.endpoint.slice(r.endpoint.lastIndexOf(':') + 1);
        const other = used.get(`${r.type} ${port}`);
        if (other) {
          // The job is not named: the caller may have no right to know of it (GET /jobs/routes shows it to those who may).
          throw new ConflictError(`${r.type} port ${port} is taken by another job: ${r.endpoint} cannot be routed`, { details: { endpoint: r.endpoint } });
        }
        mine.add(`${r.type} ${port}`);
      }
    }
    const { from, to } = this.options.tcpPorts ?? { from: 30000, to: 30999 };
    for (const p of prepared.ports) {
      p.routes = p.routes.map((r) => {
        if (r.endpoint !== TCP_AUTO) return r;
        for (let port = from; port <= to; port++) {
          if (used.has(`tcp ${port}`) || mine.has(`tcp ${port}`)) continue;
          mine.add(`tcp ${port}`);
          return { ...r, endpoint: formatStreamEndpoint('tcp', { ip: this.options.streamAddress ?? '127.0.0.1', port }) };
        }
        throw new ConflictError(`tcp://auto: every port of the router range ${from}-${to} is taken`);
      });
    }
  }

  /** The policy realm whose `permit map` adding `route` needs (`route::/tcp`, `route::/udp` for those). */
  realmOf(route: RouteInput): string {
    return route.type === 'http' ? routeRealm(hostOf(route.type, route.endpoint)) : `route::/${route.type}`;
  }

  /** The job as now persisted (undefined: deleted). */
  jobChanged(uuid: string, job: RoutedJob | undefined): void {
    this.table.setJob(uuid, job);
  }

  instanceChanged(record: RoutableInstance | undefined, uuid: string): void {
    if (record) this.table.setInstance(record);
    else this.table.deleteInstance(uuid);
  }
}

/** What `tcp://auto` is until claim() gives it a port. */
const TCP_AUTO = 'tcp://auto';
/** The lock every TCP and UDP route change holds. */
const STREAM_LOCK = 'stream *';

/** `base` with the optional fields of `route` that are set. */
function withOptional(base: RouteInput, route: RouteInput): RouteInput {
  return {
    ...base,
    ...(route.weight !== undefined ? { weight: route.weight } : {}),
    ...(route.https_only !== undefined ? { https_only: route.https_only } : {}),
    ...(route.auto_provision !== undefined ? { auto_provision: route.auto_provision } : {}),
  };
}
