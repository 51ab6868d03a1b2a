/**
 * What an instance installs: the PackageSpecs (proto) of its job's packages and, with a
 * resolver, their dependencies, dependencies first and the application last. The reconciler
 * sends them with every assignment; the agent fetches each archive by digest.
 */
import type { PackageSpec } from '@platform/proto';
import { dependencyPrincipal, type Job } from '../model/job.js';
import { parseDigest } from '../model/digest.js';
import type { PackageRecord } from '../model/package.js';
import { keys } from '../store/keys.js';
import type { Store } from '../store/store.js';

/**
 * The packages to install for these package uuids, dependencies first (packages/dependencies.ts),
 * the dependencies chosen among the packages `principal` may use (policy/references.ts).
 */
export type InstallOrder = (packageUuids: readonly string[], principal: string) => Promise<PackageRecord[]>;

export class InstancePackages {
  constructor(
    private readonly store: Store,
    private readonly installOrder?: InstallOrder,
  ) {}

  /** The packages an instance of `job` installs, with `extra` package uuids (a stager run's) after the job's own. */
  packagesFor(job: Job, extra: readonly string[] = []): Promise<PackageSpec[]> {
    const user = job.packages.filter((p) => p.source !== 'system');
    return this.#install([...user.map((p) => p.uuid), ...extra], new Map(user.map((p) => [p.uuid, p.install_path ?? ''])), dependencyPrincipal(job));
  }

  /**
   * The PackageSpecs of `uuids` and, with a resolver, their dependencies (first), at their own
   * paths; dependencies chosen among the packages `principal` may use.
   */
  packagesOf(uuids: readonly string[], principal: string): Promise<PackageSpec[]> {
    return this.#install([...uuids], new Map(), principal);
  }

  /** PackageSpecs of `uuids` and, with a resolver, their dependencies (first). */
  async #install(uuids: string[], installPath: Map<string, string>, principal: string): Promise<PackageSpec[]> {
    let records: PackageRecord[];
    if (this.installOrder) records = await this.installOrder(uuids, principal);
    else {
      const raw = await this.store.getMany(uuids.map((id) => keys.package(id)));
      records = raw.filter((r): r is string => r !== undefined).map((r) => JSON.parse(r) as PackageRecord);
    }
    return records.flatMap((r) => packageSpecs(r, installPath.get(r.package.uuid) ?? '', r.package.host_paths ?? []));
  }
}

/** The PackageSpecs of a package record: one per archive, in order. */
export function packageSpecs(record: PackageRecord, installPath: string, hostPaths: string[] = []): PackageSpec[] {
  const p = record.package;
  const common = {
    uuid: p.uuid,
    fqn: p.fqn,
    installPath,
    environment: p.environment,
    templates: p.templates.map((t) => ({ path: t.path, leftDelimiter: t.left_delimiter, rightDelimiter: t.right_delimiter })),
    hostPaths,
    // A package made from a container image is the instance's whole root (the agent binds no
    // host system directory over it).
    rootFilesystem: !!p.docker_image_id,
  };
  if (p.resources.length === 0) return [{ ...common, digest: '', length: 0 }];
  return p.resources.map((r) => ({ ...common, digest: normalizedDigest(r.digest), length: r.length }));
}

function normalizedDigest(text: string): string {
  const d = parseDigest(text, 'digest', true);
  return `${d.algorithm}:${d.hex}`;
}
