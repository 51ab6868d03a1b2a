/**
 * The router's view of the route table: entries compiled for matching and balancing, kept in
 * step with a feed of table updates (a snapshot, then changes).
 *
 * HTTP: by host (lower case, without port), then the longest path prefix on segment
 * boundaries. Within a path, jobs get the share of traffic that their weights say (behaviour
 * notes: weights are normalised to 100% across the jobs on the route; weight 0 jobs share what
 * is left equally), chosen by smooth weighted round robin so that any run of requests follows
 * the shares closely; within a job, instances take turns. A job without running instances
 * gives its share to the others.
 */
import { pathWithin } from '../route.js';
import { entryKey, type TableBackend, type TableEntry, type TableJob, type TableUpdate } from '../route-table.js';

export interface Backend extends TableBackend {
  job: string;
  host: string;
  port: number;
  /** `http://address`, the key of the connection pool to the instance. */
  origin: string;
  /** The job's sticky cookie names. */
  stickyCookies: readonly string[];
}

interface JobSlot {
  job: TableJob;
  backends: Backend[];
  share: number;
  /** Smooth weighted round robin state. */
  current: number;
  /** The next instance's turn. */
  next: number;
}

/** One routed path of a host, with its balancing state. */
export class RoutedPath {
  readonly label: string;
  readonly #jobs: JobSlot[];
  readonly #total: number;
  readonly #byInstance = new Map<string, Backend>();
  readonly size: number;

  constructor(
    readonly type: TableEntry['type'],
    readonly endpoint: string,
    readonly path: string,
    readonly httpsOnly: boolean,
    jobs: TableJob[],
  ) {
    this.label = path === '/' ? endpoint : `${endpoint}${path}`;
    const withBackends = jobs.filter((j) => j.backends.length > 0);
    const shares = sharesOf(withBackends.map((j) => j.weight));
    this.#jobs = withBackends.map((job, i) => ({
      job,
      share: shares[i]!,
      current: 0,
      next: 0,
      backends: job.backends.map((b) => {
        const colon = b.address.lastIndexOf(':');
        const backend: Backend = {
          ...b,
          job: job.job,
          host: b.address.slice(0, colon).replace(/^\[|\]$/g, ''),
          port: Number(b.address.slice(colon + 1)),
          origin: `http://${b.address}`,
          stickyCookies: job.sticky_cookies,
        };
        this.#byInstance.set(b.instance, backend);
        return backend;
      }),
    }));
    this.#total = this.#jobs.reduce((sum, j) => sum + j.share, 0);
    this.size = this.#byInstance.size;
  }

  /** The backend of `instance` when it serves this path. */
  backendOf(instance: string): Backend | undefined {
    return this.#byInstance.get(instance);
  }

  /**
   * The next backend by weight and turn; undefined when none runs. `avoid` (an instance that
   * just failed) is skipped when another backend exists.
   */
  pick(avoid?: string): Backend | undefined {
    if (this.size === 0) return undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      // Smooth weighted round robin (as nginx does it): exact shares over any long run.
      let best: JobSlot | undefined;
      for (const j of this.#jobs) {
        j.current += j.share;
        if (!best || j.current > best.current) best = j;
      }
      best!.current -= this.#total;
      const backend = best!.backends[best!.next++ % best!.backends.length]!;
      if (backend.instance !== avoid || this.size === 1) return backend;
    }
    for (const b of this.#byInstance.values()) if (b.instance !== avoid) return b;
    return undefined;
  }
}

/**
 * The shares of jobs with these weights: weights as they are, and what is left of 100 shared
 * equally by the jobs of weight 0 (all at 0: equal parts; nothing left: they get none).
 */
export function sharesOf(weights: readonly number[]): number[] {
  const fixed = weights.reduce((sum, w) => sum + (w > 0 ? w : 0), 0);
  const auto = weights.filter((w) => !(w > 0)).length;
  if (auto === 0) return weights.map((w) => w);
  const left = 100 - fixed;
  if (left <= 0) return weights.map((w) => (w > 0 ? w : 0));
  return weights.map((w) => (w > 0 ? w : left / auto));
}

interface CompiledEntry {
  entry: TableEntry;
  /** Longest path first. */
  paths: RoutedPath[];
}

export class RoutingTable {
  readonly #entries = new Map<string, CompiledEntry>();
  #epoch = '';
  #version = 0;
  /** Told after every update, with the version it brought. */
  onUpdate: ((version: number) => void) | undefined;

  get version(): number {
    return this.#version;
  }

  get epoch(): string {
    return this.#epoch;
  }

  apply(update: TableUpdate): void {
    if (update.kind === 'snapshot') {
      this.#entries.clear();
      for (const e of update.entries) this.#put(e);
    } else {
      for (const key of update.removes) this.#entries.delete(key);
      for (const e of update.upserts) this.#put(e);
    }
    this.#epoch = update.epoch;
    this.#version = update.version;
    this.onUpdate?.(update.version);
  }

  #put(entry: TableEntry): void {
    const paths = entry.paths
      .map((p) => new RoutedPath(entry.type, entry.endpoint, p.path, p.https_only, p.jobs))
      .sort((a, b) => b.path.length - a.path.length);
    this.#entries.set(entryKey(entry), { entry, paths });
  }

  /** The routed path for an HTTP request: undefined when the host has no route (404). */
  matchHttp(host: string, path: string): RoutedPath | undefined {
    const compiled = this.#entries.get(`http ${host}`);
    if (!compiled) return undefined;
    return compiled.paths.find((p) => pathWithin(path, p.path));
  }

  /** Every entry of a type (TCP and UDP listeners follow these). */
  entriesOf(type: TableEntry['type']): RoutedPath[] {
    return [...this.#entries.values()].filter((c) => c.entry.type === type).flatMap((c) => c.paths);
  }
}
