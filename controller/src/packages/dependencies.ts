/**
 * Dependency resolution: which packages satisfy a package's `dependencies`.
 *
 * A requirement `{type, name}` is satisfied by a `ready` package that provides
 * the same type and
 *   - the same name (exact), or
 *   - a more specific name: `runtime.node` is satisfied by `runtime.node-20.20.2`
 *     (the provided name continues with `-` or `.` after the required one).
 * Every package also provides `package.<its name>` and `package.<its fqn>`.
 * Runtime packages list every level (`runtime.node`, `runtime.node-20`, ...),
 * so general requirements usually match exactly too.
 *
 * Choice among candidates is deterministic: an exact name first, then the
 * package in the requester's namespace (or the closest enclosing one), then
 * the highest version named after the required name, then the newest
 * version_id, then the FQN in byte order.
 *
 * Resolution is transitive and installs dependencies before what needs them:
 * `resolveInstallOrder([app])` is `[os, runtime, app]`. A requirement that a
 * package already chosen satisfies is not satisfied again.
 */
import { InvalidRequestError } from '../errors.js';
import { keys } from '../store/keys.js';
import type { Store } from '../store/store.js';
import { provisionsOf, type PackageRecord, type Requirement } from '../model/package.js';

/** Thrown (as the closed set's InvalidRequestError, 400) when nothing satisfies a requirement; the message is the behaviour notes'. */
function unsatisfiedError(r: Requirement): InvalidRequestError {
  const dependency = `${r.type}.${r.name}`;
  return new InvalidRequestError(`Failed to update package dependencies: Failed to resolve packages: no packages satisfy dependency "${dependency}"`, {
    details: { dependency },
  });
}

/** True when a provided name satisfies a required one (same type assumed). */
export function nameSatisfies(provided: string, required: string): boolean {
  if (provided === required) return true;
  if (!provided.startsWith(required)) return false;
  const next = provided[required.length];
  return next === '-' || next === '.';
}

function satisfies(record: PackageRecord, r: Requirement): boolean {
  return provisionsOf(record.package).some((p) => p.type === r.type && nameSatisfies(p.name, r.name));
}

/** Numeric version parts after the required name: `node-20.20.2` after `node` -> [20, 20, 2]. */
function versionAfter(provided: string, required: string): number[] {
  return provided
    .slice(required.length)
    .split(/[-.]/)
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : -1));
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

function namespaceOf(fqn: string): string {
  return fqn.split('::')[1] ?? '';
}

/** How close `ns` is to `target`: the length of the shared enclosing namespace, -1 when unrelated. */
function closeness(ns: string, target: string | undefined): number {
  if (!target) return 0;
  if (ns === target) return Number.MAX_SAFE_INTEGER;
  return target.startsWith(ns === '/' ? '/' : `${ns}/`) ? ns.length : -1;
}

export interface ResolveOptions {
  /** Namespace of the requester; packages in it (or enclosing it) are preferred. */
  namespace?: string;
  /** Skip requirements that nothing satisfies instead of throwing. */
  bestEffort?: boolean;
  /** Only packages this accepts may satisfy a requirement (the caller's read permission). */
  visible?: (fqn: string) => boolean;
  /**
   * Names what `visible` accepts (whose rights, under which policy), so that an install order
   * can be cached for it; without it, an install order resolved with `visible` is not cached.
   */
  visibleKey?: string;
}

export class DependencyResolver {
  /** Install orders by request, valid while the packages' generation is `#cachedAt`. */
  readonly #cache = new Map<string, PackageRecord[]>();
  #cachedAt = -1;

  /**
   * `generation` changes whenever any package is written (PackageService.generation):
   * install orders are cached until then, so that rendering jobs does not resolve again.
   */
  constructor(
    private readonly store: Store,
    private readonly findMany: (ids: readonly string[]) => Promise<PackageRecord[]>,
    private readonly generation: () => number = () => -1,
  ) {}

  /** Ready packages that satisfy `r`, best first. */
  async candidates(r: Requirement, namespace?: string, visible?: (fqn: string) => boolean): Promise<PackageRecord[]> {
    const prefix = keys.providesNamePrefix(r.type, r.name);
    // Per package: whether it provides the name exactly, and the highest version it names after it.
    const found = new Map<string, { exact: boolean; version: number[] }>();
    for await (const [key] of this.store.iterate({ prefix })) {
      const uuid = key.slice(-36);
      const provided = key.slice(keys.providesNamePrefix(r.type, '').length, -37);
      if (!nameSatisfies(provided, r.name)) continue;
      const had = found.get(uuid) ?? { exact: false, version: [] };
      const version = versionAfter(provided, r.name);
      found.set(uuid, {
        exact: had.exact || provided === r.name,
        version: compareVersions(version, had.version) > 0 ? version : had.version,
      });
    }
    const records = (await this.findMany([...found.keys()])).filter(
      (rec) => rec.package.state === 'ready' && (visible === undefined || visible(rec.package.fqn)),
    );
    const rank = (rec: PackageRecord) => {
      const f = found.get(rec.package.uuid)!;
      return { exact: f.exact ? 1 : 0, near: closeness(namespaceOf(rec.package.fqn), namespace), version: f.version };
    };
    return records
      .map((rec) => ({ rec, rank: rank(rec) }))
      .sort(
        (a, b) =>
          b.rank.exact - a.rank.exact ||
          b.rank.near - a.rank.near ||
          compareVersions(b.rank.version, a.rank.version) ||
          b.rec.package.version_id - a.rec.package.version_id ||
          (a.rec.package.fqn < b.rec.package.fqn ? -1 : a.rec.package.fqn > b.rec.package.fqn ? 1 : 0),
      )
      .map((x) => x.rec);
  }

  /**
   * `roots` and everything they need, dependencies first and roots in the order
   * given. Throws the notes' InvalidRequestError when a requirement cannot be
   * satisfied (unless `bestEffort`); that is the only InvalidRequestError it throws.
   */
  async resolve(roots: readonly PackageRecord[], options: ResolveOptions = {}): Promise<PackageRecord[]> {
    const chosen = new Map<string, PackageRecord>(roots.map((r) => [r.package.uuid, r]));
    const order: PackageRecord[] = [];
    const placed = new Set<string>();
    const visiting = new Set<string>();
    const visit = async (record: PackageRecord): Promise<void> => {
      const id = record.package.uuid;
      if (placed.has(id) || visiting.has(id)) return; // a cycle ends at the package already on the path
      visiting.add(id);
      for (const dep of record.package.dependencies) {
        let target = [...chosen.values()].find((c) => satisfies(c, dep));
        if (!target) {
          target = (await this.candidates(dep, options.namespace ?? namespaceOf(record.package.fqn), options.visible))[0];
          if (!target) {
            if (options.bestEffort) continue;
            throw unsatisfiedError(dep);
          }
          chosen.set(target.package.uuid, target);
        }
        await visit(target);
      }
      visiting.delete(id);
      placed.add(id);
      order.push(record);
    };
    for (const root of roots) await visit(root);
    return order;
  }

  /** What `requirements` need installed, dependencies first (POST /packages/dependencies). */
  async resolveRequirements(
    requirements: readonly Requirement[],
    namespace?: string,
    visible?: (fqn: string) => boolean,
  ): Promise<PackageRecord[]> {
    const virtual: PackageRecord = {
      package: {
        uuid: '00000000-0000-0000-0000-000000000000',
        fqn: `package::${namespace ?? '/'}::(request)`,
        name: '(request)',
        state: 'ready',
        resources: [],
        dependencies: [...requirements],
        provides: [],
        environment: {},
        templates: [],
        tags: {},
        staging_pipeline_fqn: '',
        stager_job_fqns: [],
        error_message: '',
        version_id: 0,
        created_at: '',
        updated_at: '',
        created_by: '',
        updated_by: '',
      },
      uploaded: [],
    };
    const order = await this.resolve([virtual], {
      ...(namespace === undefined ? {} : { namespace }),
      ...(visible ? { visible } : {}),
    });
    return order.filter((r) => r !== virtual);
  }

  /**
   * The packages an instance of a job with `packageUuids` installs: their
   * dependencies first, the job's packages last. Unknown uuids are skipped;
   * an unsatisfiable requirement throws.
   */
  async resolveInstallOrder(packageUuids: readonly string[], options: ResolveOptions = {}): Promise<PackageRecord[]> {
    const generation = this.generation();
    if (generation < 0) return this.resolve(await this.findMany(packageUuids), options);
    if (generation !== this.#cachedAt) {
      this.#cache.clear();
      this.#cachedAt = generation;
    }
    if (options.visible && options.visibleKey === undefined) return this.resolve(await this.findMany(packageUuids), options);
    const key = `${options.bestEffort ? 1 : 0}|${options.namespace ?? ''}|${options.visibleKey ?? ''}|${packageUuids.join(',')}`;
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const order = await this.resolve(await this.findMany(packageUuids), options);
    // Only when nothing was written meanwhile; the cache stays small (one entry per package set in use).
    if (this.generation() === generation && this.#cache.size < 10_000) this.#cache.set(key, order);
    return order;
  }
}
