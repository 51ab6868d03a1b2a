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
import { KeyedLock } from '../util/keyed-lock.js';
import {
  defaultRouteHost,
  formatHttpEndpoint,
  parseHttpEndpoint,
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
  /** The 6 random characters of a default route; injected for tests. */
  randomSuffix?: () => string;
}

export class RouteService {
  readonly table = new RouteTable();
  readonly #locks = new KeyedLock();

  constructor(private readonly options: RouteServiceOptions) {}

  /** Fills the table from the stored jobs; instances come from `instances`. */
  async load(store: Store, instances: Iterable<RoutableInstance>): Promise<void> {
    for await (const [, value] of store.iterate({ prefix: keys.jobPrefix })) {
      const job = JSON.parse(value) as RoutedJob;
      if (routesOf(job).length > 0) this.table.setJob(job.uuid, job);
    }
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
        if (seen.has(dup)) throw new InvalidRequestError(`${field}: the job routes ${normalized.endpoint} twice; one port per endpoint`);
        seen.add(dup);
        return normalized;
      }),
    }));
    const before = new Map((current ? routesOf(current) : []).map(({ port, route }) => [routeKey(port, route), route]));
    const after = new Map(routesOf({ ports: out }).map(({ port, route }) => [routeKey(port, route), route]));
    return {
      ports: out,
      keys: [...new Set([...after.values()].map((r) => entryKey({ type: r.type, endpoint: hostOf(r.type, r.endpoint) })))].sort(),
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
    if (route.type !== 'http') {
      throw new InvalidRequestError(`${field}.type: ${route.type} routes are not served by this router yet; only http`);
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
        for (const key of prepared.keys) {
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

  /** The policy realm whose `permit map` adding `route` needs. */
  realmOf(route: RouteInput): string {
    return routeRealm(hostOf(route.type, route.endpoint));
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

/** `base` with the optional fields of `route` that are set. */
function withOptional(base: RouteInput, route: RouteInput): RouteInput {
  return {
    ...base,
    ...(route.weight !== undefined ? { weight: route.weight } : {}),
    ...(route.https_only !== undefined ? { https_only: route.https_only } : {}),
    ...(route.auto_provision !== undefined ? { auto_provision: route.auto_provision } : {}),
  };
}
