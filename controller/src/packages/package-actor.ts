/**
 * PackageActor: the one owner of a package. Changes are messages through its
 * mailbox, persisted before they settle. An archive upload streams outside the
 * mailbox (so that reads and other messages are not stuck behind a slow client)
 * between two messages: `beginUpload` claims the resource, `completeUpload`
 * records it once the blob store has verified it.
 */
import { Actor } from '../actors/actor.js';
import { diffPatches } from '../audit/patches.js';
import type { ChangeContext, Deps } from '../context.js';
import { formatDigest, parseDigest, type Digest } from '../model/digest.js';
import { ConflictError, InvalidRequestError, NotFoundError } from '../errors.js';
import { keys } from '../store/keys.js';
import type { BatchOp } from '../store/store.js';
import { formatTimestampNs } from '../util/clock.js';
import { jsonEqual, sortedRecord } from '../util/json.js';
import { checkVersion } from '../model/version.js';
import { PACKAGE_MACHINE, provisionsOf, resourceView, type Package, type PackageMeta, type PackageRecord, type PackageResource, type PackageState, type PackageTemplate, type ParsedPackageInput, type Requirement } from '../model/package.js';

/** What a staging pipeline produced: the new archive and metadata. */
export interface StagedResult {
  /** The archive now in the blob store (its digest is `sha256:<hex>` or any algorithm). */
  archive: { length: number; digest: string };
  dependencies: Requirement[];
  provides: Requirement[];
  environment: Record<string, string>;
  templates: PackageTemplate[];
}

export interface UploadClaim {
  resource: PackageResource;
  digest: Digest;
  /** Ends the claim; call it whatever the outcome. */
  release: () => void;
}

/**
 * Index entries of what a package provides (dependency resolution reads them):
 * entries of `before` that `after` no longer has are deleted, new ones put.
 * `undefined` stands for "no package".
 */
export function providesIndexOps(before: Package | undefined, after: Package | undefined): BatchOp[] {
  const keyOf = (p: Package, r: Requirement) => keys.provides(r.type, r.name, p.uuid);
  const was = new Set(before ? provisionsOf(before).map((r) => keyOf(before, r)) : []);
  const now = new Set(after ? provisionsOf(after).map((r) => keyOf(after, r)) : []);
  const ops: BatchOp[] = [];
  for (const key of was) if (!now.has(key)) ops.push({ type: 'del', key });
  for (const key of now) if (!was.has(key)) ops.push({ type: 'put', key, value: '' });
  return ops;
}

function metaOf(p: Package): PackageMeta {
  return {
    dependencies: p.dependencies,
    provides: p.provides,
    environment: p.environment,
    templates: p.templates,
    tags: p.tags,
  };
}

export class PackageActor extends Actor {
  #record: PackageRecord;
  #deleted = false;
  readonly #uploading = new Set<string>();

  constructor(
    record: PackageRecord,
    private readonly deps: Deps,
  ) {
    super(record.package.uuid, deps.clock.nowMs());
    this.#record = record;
  }

  get record(): PackageRecord {
    return this.#record;
  }

  /** Persists a new package with its index entries. The caller holds the FQN lock. */
  static async create(record: PackageRecord, ctx: ChangeContext, deps: Deps): Promise<PackageActor> {
    const actor = new PackageActor(record, deps);
    const p = record.package;
    await actor.mailbox.post(() =>
      deps.store.batch([
        { type: 'put', key: keys.package(p.uuid), value: JSON.stringify(record) },
        { type: 'put', key: keys.packageByFqn(p.fqn), value: p.uuid },
        ...p.resources.map((r) => ({ type: 'put' as const, key: keys.packageByResource(r.uuid), value: p.uuid })),
        ...providesIndexOps(undefined, p),
        deps.audit.entry(ctx, 'pkg.create', p.fqn),
      ]),
    );
    return actor;
  }

  /** The fields that change with every version of `current`, changed now by `ctx`'s principal. */
  #nextVersion(current: Package, ctx: ChangeContext): Pick<Package, 'version_id' | 'updated_at' | 'updated_by'> {
    return { version_id: current.version_id + 1, updated_at: formatTimestampNs(this.deps.clock.nowNs()), updated_by: ctx.principal };
  }

  /** The one setter of the package's state: refuses what PACKAGE_MACHINE does not allow, logs the change. */
  #state(current: Package, to: PackageState): PackageState {
    return PACKAGE_MACHINE.transition(current.state, to, this.deps.log, { package: current.fqn });
  }

  #assertLive(): void {
    if (this.#deleted) throw new NotFoundError(`package ${this.id} not found`);
  }

  /** Persists `next` with its pkg.update record (and `extra` operations) in one batch. */
  async #persist(next: Package, uploaded: string[], ctx: ChangeContext, extra: BatchOp[] = []) {
    const record: PackageRecord = { ...this.#record, package: next, uploaded };
    await this.deps.store.batch([
      { type: 'put', key: keys.package(next.uuid), value: JSON.stringify(record) },
      ...providesIndexOps(this.#record.package, next),
      ...extra,
      this.deps.audit.entry(ctx, 'pkg.update', next.fqn, { patches: diffPatches('package', this.#record.package, next) }),
    ]);
    this.#record = record;
  }

  /**
   * Applies a PUT (or a PATCH merged onto the package): metadata may change; FQN, archives
   * and pipeline may not. `expected`: the versions it applies to (If-Match), else 412.
   */
  update(parsed: ParsedPackageInput, ctx: ChangeContext, expected?: readonly number[]): Promise<{ package: Package; changed: boolean }> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const current = this.#record.package;
      checkVersion(`package ${current.fqn}`, current.version_id, expected);
      if (parsed.fqn !== current.fqn) {
        throw new InvalidRequestError(`fqn: a package's fqn cannot be changed (this package is ${current.fqn})`);
      }
      if (parsed.resources.length > 0) {
        const declared = parsed.resources.map((r) => ({ length: r.length, digest: formatDigest(r.digest) }));
        const stored = current.resources.map((r) => ({ length: r.length, digest: r.digest }));
        if (!jsonEqual(declared, stored)) {
          throw new ConflictError(
            `this request would change the package's archives (${stored.map((r) => `${r.digest}, ${r.length} bytes`).join('; ') || 'none'} -> ${declared.map((r) => `${r.digest}, ${r.length} bytes`).join('; ')}); a package's archives cannot be changed: create a new package for new content, or leave resource and resources out (or as read) to change only the metadata`,
          );
        }
      }
      if (parsed.pipelineUuid && parsed.pipelineUuid !== current.staging_pipeline?.uuid) {
        throw new ConflictError(
          `this request would change the package's staging pipeline to ${parsed.pipelineUuid} (it is ${current.staging_pipeline?.uuid ?? 'none'}); a package's staging pipeline cannot be changed: leave staging_pipeline out (or as read) to change only the metadata`,
        );
      }
      if (parsed.pipelineFqn && parsed.pipelineFqn !== current.staging_pipeline_fqn) {
        throw new ConflictError(
          `this request would change the package's staging_pipeline_fqn to ${parsed.pipelineFqn} (it is ${current.staging_pipeline_fqn || 'none'}); a package's staging pipeline cannot be changed: leave staging_pipeline_fqn out (or as read) to change only the metadata`,
        );
      }
      if (jsonEqual(parsed.meta, metaOf(current))) return { package: current, changed: false };
      const next: Package = {
        ...current,
        ...parsed.meta,
        ...this.#nextVersion(current, ctx),
      };
      await this.#persist(next, this.#record.uploaded, ctx);
      return { package: next, changed: true };
    });
  }

  /**
   * Claims resource `resourceId` for an upload. Refused unless the package is
   * `uploading`, the resource is one of its own, not stored yet and not being
   * uploaded by another request.
   */
  beginUpload(resourceId: string): Promise<UploadClaim> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const p = this.#record.package;
      const resource = p.resources.find((r) => r.uuid === resourceId);
      if (!resource) throw new NotFoundError(`package ${p.uuid} has no resource ${resourceId}`);
      if (p.state !== 'uploading') {
        throw new ConflictError(`package ${p.fqn} is ${p.state}; archives are accepted only while it is uploading`);
      }
      if (this.#record.uploaded.includes(resourceId)) {
        throw new ConflictError(`the archive of resource ${resourceId} has been uploaded already`);
      }
      if (this.#uploading.has(resourceId)) {
        throw new ConflictError(`the archive of resource ${resourceId} is being uploaded by another request`);
      }
      this.#uploading.add(resourceId);
      const releaseHold = this.hold();
      let released = false;
      return {
        resource,
        digest: parseDigest(resource.digest, 'digest'),
        release: () => {
          if (released) return;
          released = true;
          this.#uploading.delete(resourceId);
          releaseHold();
        },
      };
    });
  }

  /**
   * Records that the archive of `resourceId` is stored. When every archive is
   * in, the package moves to `staging` (it has a pipeline) or `ready`.
   */
  completeUpload(resourceId: string, ctx: ChangeContext): Promise<Package> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const current = this.#record.package;
      const resource = current.resources.find((r) => r.uuid === resourceId)!;
      const uploaded = [...this.#record.uploaded, resourceId];
      const complete = current.resources.every((r) => uploaded.includes(r.uuid));
      const next: Package = {
        ...current,
        state: this.#state(current, complete ? (current.staging_pipeline ? 'staging' : 'ready') : 'uploading'),
        ...this.#nextVersion(current, ctx),
      };
      await this.#persist(next, uploaded, ctx, [{ type: 'put', key: keys.blobRef(resource.digest, current.uuid), value: '' }]);
      return next;
    });
  }

  /**
   * Deletes the package, refusing while jobs use it or an upload is under way.
   * Resolves with the digests whose blob this package referred to.
   */
  delete(ctx: ChangeContext): Promise<string[]> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const p = this.#record.package;
      if (this.#uploading.size > 0) throw new ConflictError(`package ${p.fqn} is being uploaded; try again when it is done`);
      const users: string[] = [];
      const prefix = keys.jobsByPackagePrefix(p.uuid);
      for await (const [key] of this.deps.store.iterate({ prefix, limit: 10 })) users.push(key.slice(prefix.length));
      if (users.length > 0) {
        throw new ConflictError(`package ${p.fqn} is used by job ${users.join(', ')}; remove it from those jobs first`, {
          details: { jobs: users },
        });
      }
      const digests = p.resources.filter((r) => this.#record.uploaded.includes(r.uuid)).map((r) => r.digest);
      await this.deps.store.batch([
        { type: 'del', key: keys.package(p.uuid) },
        { type: 'del', key: keys.packageByFqn(p.fqn) },
        ...p.resources.map((r) => ({ type: 'del' as const, key: keys.packageByResource(r.uuid) })),
        ...digests.map((d) => ({ type: 'del' as const, key: keys.blobRef(d, p.uuid) })),
        ...providesIndexOps(p, undefined),
        this.deps.audit.entry(ctx, 'pkg.delete', p.fqn),
      ]);
      this.#deleted = true;
      return digests;
    });
  }

  /**
   * Ends staging successfully: the package is `ready` with the staged archive
   * (replacing its one archive; the resource keeps its uuid) and metadata.
   * Refused unless the package is `staging`. Resolves with the package and
   * the digest it no longer refers to, if the archive changed.
   */
  finishStaging(result: StagedResult, ctx: ChangeContext): Promise<{ package: Package; replacedDigest?: string }> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const current = this.#record.package;
      if (current.state !== 'staging') throw new ConflictError(`package ${current.fqn} is ${current.state}, not staging`);
      const old = current.resources[0]!;
      const digest = parseDigest(result.archive.digest, 'digest');
      const resource = resourceView(old.uuid, result.archive.length, digest);
      const next: Package = {
        ...current,
        state: this.#state(current, 'ready'),
        resources: [resource],
        dependencies: result.dependencies,
        provides: result.provides,
        environment: sortedRecord(result.environment),
        templates: result.templates,
        error_message: '',
        ...this.#nextVersion(current, ctx),
      };
      const changed = resource.digest !== old.digest;
      await this.#persist(next, [resource.uuid], ctx, [
        { type: 'put', key: keys.blobRef(resource.digest, current.uuid), value: '' },
        ...(changed ? [{ type: 'del' as const, key: keys.blobRef(old.digest, current.uuid) }] : []),
      ]);
      return changed ? { package: next, replacedDigest: old.digest } : { package: next };
    });
  }

  /**
   * Ends an instance snapshot: the package gets the archive (now in the blob store, referenced
   * by this package) as its one resource and is `ready`. Refused unless it is a snapshot
   * package still `uploading`.
   */
  finishSnapshot(archive: { length: number; digest: string }, resourceUuid: string, ctx: ChangeContext): Promise<Package> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const current = this.#record.package;
      if (!this.#record.snapshot || current.state !== 'uploading') throw new ConflictError(`package ${current.fqn} is ${current.state}, not a snapshot being taken`);
      const resource = resourceView(resourceUuid, archive.length, parseDigest(archive.digest, 'digest'));
      const next: Package = { ...current, state: this.#state(current, 'ready'), resources: [resource], error_message: '', ...this.#nextVersion(current, ctx) };
      const record: PackageRecord = { package: next, uploaded: [resource.uuid] };
      await this.deps.store.batch([
        { type: 'put', key: keys.package(next.uuid), value: JSON.stringify(record) },
        { type: 'put', key: keys.packageByResource(resource.uuid), value: next.uuid },
        { type: 'put', key: keys.blobRef(resource.digest, next.uuid), value: '' },
        this.deps.audit.entry(ctx, 'pkg.update', next.fqn, { patches: diffPatches('package', current, next) }),
      ]);
      this.#record = record;
      return next;
    });
  }

  /** Ends an instance snapshot with a failure: `failed` with `message`. No-op unless a snapshot being taken. */
  failSnapshot(message: string, ctx: ChangeContext): Promise<Package> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const current = this.#record.package;
      if (!this.#record.snapshot || current.state !== 'uploading') return current;
      const next: Package = { ...current, state: this.#state(current, 'failed'), error_message: message, ...this.#nextVersion(current, ctx) };
      const record: PackageRecord = { package: next, uploaded: [] };
      await this.deps.store.batch([
        { type: 'put', key: keys.package(next.uuid), value: JSON.stringify(record) },
        this.deps.audit.entry(ctx, 'pkg.update', next.fqn, { patches: diffPatches('package', current, next) }),
      ]);
      this.#record = record;
      return next;
    });
  }

  /** Ends staging with a failure: the package is `failed` with `message`. No-op unless `staging`. */
  failStaging(message: string, ctx: ChangeContext): Promise<Package> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const current = this.#record.package;
      if (current.state !== 'staging') return current;
      const next: Package = {
        ...current,
        state: this.#state(current, 'failed'),
        error_message: message,
        ...this.#nextVersion(current, ctx),
      };
      await this.#persist(next, this.#record.uploaded, ctx);
      return next;
    });
  }

  /**
   * Brings a built-in package (no archive, host paths) to `spec`'s host paths,
   * provides, dependencies and environment. True when something changed.
   */
  refreshBuiltin(spec: Pick<Package, 'host_paths' | 'provides' | 'dependencies' | 'environment'>, ctx: ChangeContext): Promise<boolean> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const current = this.#record.package;
      const wanted = { host_paths: spec.host_paths ?? [], provides: spec.provides, dependencies: spec.dependencies, environment: sortedRecord(spec.environment) };
      const have = { host_paths: current.host_paths ?? [], provides: current.provides, dependencies: current.dependencies, environment: current.environment };
      if (jsonEqual(wanted, have)) return false;
      const next: Package = {
        ...current,
        ...wanted,
        ...this.#nextVersion(current, ctx),
      };
      await this.#persist(next, this.#record.uploaded, ctx);
      return true;
    });
  }
}
