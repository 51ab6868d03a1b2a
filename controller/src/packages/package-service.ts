/**
 * The package operations behind the API, including the streaming archive
 * upload and download. Reads never activate an actor; changes go through the
 * package's actor.
 */
import type { Readable } from 'node:stream';
import type { ActorRegistry } from '../actors/actor-registry.js';
import { EntityDirectory } from '../actors/entity-directory.js';
import type { ChangeContext, Deps } from '../context.js';
import type { BlobStore } from '../blobs/blob-store.js';
import { formatDigest, parseDigest, type Digest } from '../model/digest.js';
import { DuplicateError, InvalidRequestError, NotFoundError, UnavailableError } from '../errors.js';
import { fqnMatcher, parseFqn, type Fqn } from '../model/fqn.js';
import type { StagingPipeline } from '../model/pipeline.js';
import type { ReferenceCheck, ReferenceLookup } from '../policy/references.js';
import { readIndexPage } from '../store/index-page.js';
import { keys } from '../store/keys.js';
import { getJson, type BatchOp } from '../store/store.js';
import { formatTimestampNs } from '../util/clock.js';
import { KeyedLock } from '../util/keyed-lock.js';
import { sortedRecord } from '../util/json.js';
import { PackageActor, providesIndexOps, type StagedResult } from './package-actor.js';
import { packageView, parsePackageInput, resourceView, type Package, type PackageRecord, type Requirement } from '../model/package.js';

/** A package that the controller registers itself: no archive, content from host directories. */
export interface BuiltinPackageSpec {
  fqn: string;
  provides: Requirement[];
  dependencies: Requirement[];
  environment: Record<string, string>;
  hostPaths: string[];
  tags?: Record<string, string>;
}

export interface PackageQuery {
  fqn?: Fqn;
  matchPartialFqn: boolean;
  name?: string;
  ids?: string[];
  tags?: string[];
  excludedTags?: string[];
  providesType?: string;
  providesName?: string;
  /** Page size; all when absent. */
  count?: number;
  /** 1-based page number. */
  page?: number;
  /** Policy: only packages whose FQN this accepts are listed, before paging. */
  visible?: (fqn: string) => boolean;
}

export interface PackageServiceOptions {
  actorIdleMs: number;
  /** Packages kept in the read cache. */
  cacheSize: number;
  maxPackageBytes: number;
  onActivate?: () => void;
  onPassivate?: () => void;
  onUploadBytes?: (n: number) => void;
  /**
   * Set when other controllers hold the same records (etcd): an archive this controller's blob
   * directory lacks may be in another's (when they do not share one, as they should), so it is
   * answered as unavailable (503), naming the setting, never as missing (404).
   */
  blobsElsewhere?: { setting: string; dir: string };
}

export interface Download {
  stream: Readable;
  size: number;
  digest: string;
}

/** Finds staging pipelines by FQN (staging/pipeline.ts's PipelineService); packages/ does not depend on staging/. */
export interface PipelineLookup {
  findByFqn(fqn: string): Promise<StagingPipeline | undefined>;
  /** The FQNs of the pipeline's stager jobs, in order. */
  stagerJobFqns(pipeline: StagingPipeline): Promise<string[]>;
}

export class PackageService {
  readonly #packages: EntityDirectory<PackageRecord, PackageActor>;
  readonly #fqnLocks = new KeyedLock();
  readonly #patchLocks = new KeyedLock();
  /** Serializes storing a blob and dropping it, per digest (see `#releaseBlobs`). */
  readonly #digestLocks = new KeyedLock();
  #onStaging: ((uuid: string) => void) | undefined;
  #generation = 0;

  constructor(
    private readonly deps: Deps,
    private readonly blobs: BlobStore,
    private readonly pipelines: PipelineLookup,
    private readonly options: PackageServiceOptions,
  ) {
    this.#packages = new EntityDirectory<PackageRecord, PackageActor>(deps, {
      kind: 'package',
      key: keys.package,
      makeActor: (record) => new PackageActor(record, deps),
      recordOf: (actor) => actor.record,
      actorIdleMs: options.actorIdleMs,
      cacheSize: options.cacheSize,
      ...(options.onActivate ? { onActivate: options.onActivate } : {}),
      ...(options.onPassivate ? { onPassivate: options.onPassivate } : {}),
    });
  }

  get actors(): ActorRegistry<PackageActor> {
    return this.#packages.actors;
  }

  /** Changes whenever a package is created, changed or deleted (dependency resolution caches by it). */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Who is told when a package reaches `staging` (the staging coordinator).
   * Called after the state is persisted; at most one listener.
   */
  setStagingListener(listener: (uuid: string) => void): void {
    this.#onStaging = listener;
  }

  /**
   * Activates packages with work to do (staging), and drops blobs that no package
   * refers to. `staging` lists the packages whose pipeline must run (again).
   */
  async restore(): Promise<{ restored: number; orphanBlobs: number; staging: string[] }> {
    let restored = 0;
    const staging: string[] = [];
    const interrupted: string[] = [];
    // The provides index arrived after the first data directories: build it once.
    const indexed = (await this.deps.store.get(keys.meta('provides-index'))) !== undefined;
    let indexOps: BatchOp[] = [];
    for await (const [, value] of this.deps.store.iterate({ prefix: keys.packagePrefix })) {
      const record = JSON.parse(value) as PackageRecord;
      if (!indexed) indexOps.push(...providesIndexOps(undefined, record.package));
      if (indexOps.length > 10_000) {
        await this.deps.store.batch(indexOps);
        indexOps = [];
      }
      if (record.snapshot && record.package.state === 'uploading') interrupted.push(record.package.uuid);
      if (record.package.state === 'staging') {
        await this.actors.get(record.package.uuid);
        staging.push(record.package.uuid);
        restored++;
      }
    }
    if (!indexed) await this.deps.store.batch([...indexOps, { type: 'put', key: keys.meta('provides-index'), value: '1' }]);
    for (const uuid of interrupted) {
      await this.failSnapshot(uuid, 'the controller restarted while the snapshot was taken; take it again', { principal: 'snapshot@platform.local', requestId: 'restore' });
    }
    let orphanBlobs = 0;
    for await (const digest of this.blobs.list()) {
      if (await this.#releaseBlob(digest)) orphanBlobs++;
    }
    this.actors.start();
    return { restored, orphanBlobs, staging };
  }

  /** The pipeline a create names by uuid or FQN, once the caller may `use` it (policy/references.ts). */
  async #resolvePipeline(uuid: string | undefined, fqn: string | undefined, refs: ReferenceCheck): Promise<StagingPipeline | undefined> {
    if (uuid === undefined && fqn === undefined) return undefined;
    const field = uuid !== undefined ? 'staging_pipeline' : 'staging_pipeline_fqn';
    const [found] = await refs.resolve([{ type: 'stagpipe', ...(uuid === undefined ? {} : { uuid }), ...(fqn === undefined ? {} : { fqn }), permission: 'use', field }]);
    const pipeline = await getJson<StagingPipeline>(this.deps.store, keys.pipeline(found!.uuid));
    // Deleted since it was resolved: the same answer as one that never existed.
    if (!pipeline) throw new InvalidRequestError(`${field}: no staging pipeline ${uuid !== undefined ? `with uuid ${uuid}` : fqn}`);
    return pipeline;
  }

  /** `refs` checks the staging pipeline the body names for the caller. */
  async create(body: unknown, ctx: ChangeContext, refs: ReferenceCheck): Promise<Package> {
    const parsed = parsePackageInput(body, this.options.maxPackageBytes);
    if (parsed.resources.length === 0) {
      throw new InvalidRequestError('resources: a package needs its archive declared as [{"length": <bytes>, "digest": "sha256:<hex>"}]');
    }
    const pipeline = await this.#resolvePipeline(parsed.pipelineUuid, parsed.pipelineFqn, refs);
    const stagerJobFqns = pipeline ? await this.pipelines.stagerJobFqns(pipeline) : [];
    return this.#fqnLocks.run(parsed.fqn, async () => {
      const existing = await this.deps.store.get(keys.packageByFqn(parsed.fqn));
      if (existing !== undefined) throw new DuplicateError(`package ${parsed.fqn} exists already (uuid ${existing})`);
      const pkg: Package = {
        uuid: this.deps.ids.uuid(),
        fqn: parsed.fqn,
        name: parsed.localName,
        state: 'uploading',
        resources: parsed.resources.map((r) => resourceView(this.deps.ids.uuid(), r.length, r.digest)),
        ...parsed.meta,
        ...(pipeline ? { staging_pipeline: { uuid: pipeline.uuid } } : {}),
        staging_pipeline_fqn: pipeline?.fqn ?? '',
        stager_job_fqns: stagerJobFqns,
        error_message: '',
        ...this.#firstVersion(ctx),
      };
      await this.#insert(pkg, ctx);
      this.deps.log.info('package created', { package: pkg.uuid, fqn: pkg.fqn, request_id: ctx.requestId });
      return packageView(pkg);
    });
  }

  /**
   * A new package in `uploading` without an archive, for the snapshot of an instance
   * (POST /jobs/{uuid}/instances/{instance}/snapshot); `finishSnapshot` or `failSnapshot` ends it.
   */
  async createSnapshot(fqnText: string, of: { job_uuid: string; instance_uuid: string }, ctx: ChangeContext): Promise<Package> {
    const fqn = parseFqn(fqnText, { type: 'package', field: 'pkgFQN' });
    if (fqn.localName === undefined) throw new InvalidRequestError(`query pkgFQN: "${fqnText}" names no package (package::<namespace>::<name>)`);
    return this.#fqnLocks.run(fqnText, async () => {
      const existing = await this.deps.store.get(keys.packageByFqn(fqnText));
      if (existing !== undefined) throw new DuplicateError(`package ${fqnText} exists already (uuid ${existing})`);
      const pkg: Package = {
        uuid: this.deps.ids.uuid(),
        fqn: fqnText,
        name: fqn.localName!,
        state: 'uploading',
        resources: [],
        dependencies: [],
        provides: [],
        environment: {},
        templates: [],
        tags: {},
        staging_pipeline_fqn: '',
        stager_job_fqns: [],
        error_message: '',
        ...this.#firstVersion(ctx),
      };
      const actor = await PackageActor.create({ package: pkg, uploaded: [], snapshot: of }, ctx, this.deps);
      this.actors.add(actor);
      this.#changed();
      this.#packages.remember(pkg.uuid, actor.record);
      this.deps.log.info('snapshot package created', { package: pkg.uuid, fqn: pkg.fqn, ...of, request_id: ctx.requestId });
      return packageView(pkg);
    });
  }

  /** Gives a snapshot package its archive (stored with `ingestStagedArchive` first) and makes it `ready`. */
  async finishSnapshot(uuid: string, archive: { length: number; digest: string }, ctx: ChangeContext): Promise<Package> {
    const done = await this.actors.with(uuid, async (actor) => ({ package: await actor.finishSnapshot(archive, this.deps.ids.uuid(), ctx), record: actor.record }));
    if (!done) throw new NotFoundError(`package ${uuid} not found`);
    this.#changed();
    this.#packages.remember(uuid, done.record);
    return packageView(done.package);
  }

  /** Moves a snapshot package being taken to `failed` with `message`. */
  async failSnapshot(uuid: string, message: string, ctx: ChangeContext): Promise<void> {
    const done = await this.actors.with(uuid, async (actor) => ({ package: await actor.failSnapshot(message, ctx), record: actor.record }));
    if (!done) return;
    this.#changed();
    this.#packages.remember(uuid, done.record);
  }

  /**
   * A new package `ready` with `archive` (a gzip tar file, `length` bytes, `digest`, on the
   * blob store's file system) as its one resource: a package made from a container image
   * (images/). The file is moved into the blob store first and referenced by the new
   * package's uuid; a failure after that releases it, so nothing is left.
   */
  async createFromArchive(
    input: { fqn: string; environment: Record<string, string>; tags?: Record<string, string>; docker_image_id?: string; docker_origin?: string },
    archive: { file: string; length: number; digest: string },
    ctx: ChangeContext,
  ): Promise<Package> {
    const fqn = parseFqn(input.fqn, { type: 'package', field: 'package_fqn' });
    if (fqn.localName === undefined) throw new InvalidRequestError(`package_fqn: "${input.fqn}" names no package (package::<namespace>::<name>)`);
    const digest = parseDigest(archive.digest, 'digest');
    return this.#fqnLocks.run(input.fqn, async () => {
      const existing = await this.deps.store.get(keys.packageByFqn(input.fqn));
      if (existing !== undefined) throw new DuplicateError(`package ${input.fqn} exists already (uuid ${existing})`);
      const uuid = this.deps.ids.uuid();
      if (archive.length > this.options.maxPackageBytes) {
        throw new InvalidRequestError(`${archive.length} bytes is over this cluster's package limit of ${this.options.maxPackageBytes} bytes`);
      }
      // The file is the controller's own (made and hashed by it): moved into the store, not copied.
      await this.#digestLocks.run(archive.digest, async () => {
        await this.blobs.adopt(archive.file, { length: archive.length, digest });
        await this.deps.store.batch([{ type: 'put', key: keys.blobRef(archive.digest, uuid), value: '' }]);
      });
      try {
        const resource = resourceView(this.deps.ids.uuid(), archive.length, digest);
        const pkg: Package = {
          uuid,
          fqn: input.fqn,
          name: fqn.localName!,
          state: 'ready',
          resources: [resource],
          dependencies: [],
          provides: [],
          environment: input.environment,
          templates: [],
          tags: input.tags ?? {},
          staging_pipeline_fqn: '',
          stager_job_fqns: [],
          error_message: '',
          ...(input.docker_image_id ? { docker_image_id: input.docker_image_id } : {}),
          ...(input.docker_origin ? { docker_origin: input.docker_origin } : {}),
          ...this.#firstVersion(ctx),
        };
        const actor = await PackageActor.create({ package: pkg, uploaded: [resource.uuid] }, ctx, this.deps);
        this.actors.add(actor);
        this.#changed();
        this.#packages.remember(pkg.uuid, actor.record);
        this.deps.log.info('package created from an archive', { package: pkg.uuid, fqn: pkg.fqn, origin: input.docker_origin, request_id: ctx.requestId });
        return packageView(pkg);
      } catch (err) {
        await this.releaseStagingBlobs(uuid, [archive.digest]).catch(() => undefined);
        throw err;
      }
    });
  }

  /** Whether a package has the FQN `fqn`. */
  async fqnTaken(fqn: string): Promise<boolean> {
    return (await this.deps.store.get(keys.packageByFqn(fqn))) !== undefined;
  }

  /** The fields of a package's first version, created now by `ctx`'s principal. */
  #firstVersion(ctx: ChangeContext): Pick<Package, 'version_id' | 'created_at' | 'updated_at' | 'created_by' | 'updated_by'> {
    const now = formatTimestampNs(this.deps.clock.nowNs());
    return { version_id: 1, created_at: now, updated_at: now, created_by: ctx.principal, updated_by: ctx.principal };
  }

  /** Persists new package `pkg` and makes it known. The caller holds the FQN lock. */
  async #insert(pkg: Package, ctx: ChangeContext): Promise<void> {
    const actor = await PackageActor.create({ package: pkg, uploaded: [] }, ctx, this.deps);
    this.actors.add(actor);
    this.#changed();
    this.#packages.remember(pkg.uuid, actor.record);
  }

  #changed(): void {
    this.#generation++;
  }

  /** How bodies refer to packages (policy/references.ts): by uuid or FQN. */
  referenceLookup(): ReferenceLookup {
    return {
      byUuid: async (uuids) => new Map((await this.findMany(uuids)).map((r) => [r.package.uuid, r.package.fqn])),
      byFqn: async (fqns) => {
        const ids = await this.deps.store.getMany(fqns.map((f) => keys.packageByFqn(f)));
        return new Map(fqns.flatMap((f, i) => (ids[i] === undefined ? [] : [[f, ids[i]]])));
      },
    };
  }

  /** The stored record of a package, or undefined. */
  find(uuid: string): Promise<PackageRecord | undefined> {
    return this.#packages.find(uuid);
  }

  /** The records of `ids` that exist, in the order given. */
  findMany(ids: readonly string[]): Promise<PackageRecord[]> {
    return this.#packages.findMany(ids);
  }

  /**
   * Registers a built-in package, ready at once, or brings an existing one up to
   * date (host paths move when the host changes). Idempotent.
   */
  async registerBuiltin(spec: BuiltinPackageSpec, ctx: ChangeContext): Promise<Package> {
    const fqn = parseFqn(spec.fqn, { type: 'package' });
    return this.#fqnLocks.run(spec.fqn, async () => {
      const existing = await this.deps.store.get(keys.packageByFqn(spec.fqn));
      if (existing !== undefined) {
        const result = await this.actors.with(existing, async (actor) => {
          await actor.refreshBuiltin({ host_paths: spec.hostPaths, provides: spec.provides, dependencies: spec.dependencies, environment: spec.environment }, ctx);
          return actor.record;
        });
        if (!result) throw new NotFoundError(`package ${spec.fqn} vanished while it was registered`);
        this.#changed();
        this.#packages.remember(existing, result);
        return packageView(result.package);
      }
      const pkg: Package = {
        uuid: this.deps.ids.uuid(),
        fqn: spec.fqn,
        name: fqn.localName!,
        state: 'ready',
        resources: [],
        dependencies: spec.dependencies,
        provides: spec.provides,
        environment: sortedRecord(spec.environment),
        templates: [],
        tags: sortedRecord(spec.tags),
        staging_pipeline_fqn: '',
        stager_job_fqns: [],
        error_message: '',
        host_paths: spec.hostPaths,
        ...this.#firstVersion(ctx),
      };
      await this.#insert(pkg, ctx);
      return packageView(pkg);
    });
  }

  /**
   * Stores an archive that a stager uploaded for package `packageId`. The blob
   * is referenced by the package at once, so that no concurrent release drops
   * it; `releaseStagingBlobs` drops the references staging no longer needs.
   */
  async ingestStagedArchive(packageId: string, source: Readable, length: number, digest: Digest): Promise<void> {
    if (length > this.options.maxPackageBytes) {
      throw new InvalidRequestError(`${length} bytes is over this cluster's package limit of ${this.options.maxPackageBytes} bytes`);
    }
    const text = formatDigest(digest);
    await this.#digestLocks.run(text, async () => {
      await this.blobs.ingest(source, { length, digest }, this.options.onUploadBytes);
      await this.deps.store.batch([{ type: 'put', key: keys.blobRef(text, packageId), value: '' }]);
    });
  }

  /** Drops the package's references to `digests` (those it does not use as its archive) and unused blobs. */
  async releaseStagingBlobs(packageId: string, digests: readonly string[]): Promise<void> {
    const record = await this.find(packageId);
    const keep = new Set(record ? record.package.resources.map((r) => r.digest) : []);
    for (const d of new Set(digests)) {
      if (keep.has(d)) continue;
      await this.deps.store.batch([{ type: 'del', key: keys.blobRef(d, packageId) }]);
      await this.#releaseBlob(parseDigest(d, 'digest'));
    }
  }

  /** A stream of the blob `digest`, or undefined when it is missing. */
  openBlob(digest: string): ReturnType<BlobStore['open']> {
    return this.blobs.open(parseDigest(digest, 'digest'));
  }

  /** Moves a staging package to `ready` with what its pipeline produced. */
  async finishStaging(uuid: string, result: StagedResult, ctx: ChangeContext): Promise<Package> {
    const done = await this.actors.with(uuid, async (actor) => ({ ...(await actor.finishStaging(result, ctx)), record: actor.record }));
    if (!done) throw new NotFoundError(`package ${uuid} not found`);
    this.#changed();
    this.#packages.remember(uuid, done.record);
    if (done.replacedDigest) await this.#releaseBlob(parseDigest(done.replacedDigest, 'digest'));
    return packageView(done.package);
  }

  /** Moves a staging package to `failed` with `message`. */
  async failStaging(uuid: string, message: string, ctx: ChangeContext): Promise<Package> {
    const done = await this.actors.with(uuid, async (actor) => ({ package: await actor.failStaging(message, ctx), record: actor.record }));
    if (!done) throw new NotFoundError(`package ${uuid} not found`);
    this.#changed();
    this.#packages.remember(uuid, done.record);
    return packageView(done.package);
  }

  /** The state of each package named; `deleted` for those that no longer exist. */
  async states(ids: readonly string[]): Promise<Map<string, string>> {
    const found = new Map((await this.#packages.findMany(ids)).map((r) => [r.package.uuid, r.package.state]));
    return new Map(ids.map((id) => [id, found.get(id) ?? 'deleted']));
  }

  async get(uuid: string): Promise<Package> {
    const record = await this.find(uuid);
    if (!record) throw new NotFoundError(`package ${uuid} not found`);
    return packageView(record.package);
  }

  /** Runs `fn` (a PATCH: read, merge, update) after the PATCHes of package `uuid` before it. */
  serialized<T>(uuid: string, fn: () => Promise<T>): Promise<T> {
    return this.#patchLocks.run(uuid, fn);
  }

  /** A PUT's body, or a PATCH merged onto the package; `ifMatch`: the versions it applies to (412 otherwise). */
  async update(uuid: string, body: unknown, ctx: ChangeContext, ifMatch?: readonly number[]): Promise<Package> {
    const parsed = parsePackageInput(body, this.options.maxPackageBytes);
    const result = await this.actors.with(uuid, (actor) => actor.update(parsed, ctx, ifMatch).then((r) => ({ ...r, record: actor.record })));
    if (!result) throw new NotFoundError(`package ${uuid} not found`);
    this.#changed();
    this.#packages.remember(uuid, result.record);
    if (result.changed) {
      this.deps.log.info('package updated', { package: uuid, version_id: result.package.version_id, request_id: ctx.requestId });
    }
    return packageView(result.package);
  }

  async delete(uuid: string, ctx: ChangeContext): Promise<void> {
    const record = await this.find(uuid);
    if (!record) throw new NotFoundError(`package ${uuid} not found`);
    const digests = await this.#fqnLocks.run(record.package.fqn, async () => {
      const released = await this.actors.with(uuid, (actor) => actor.delete(ctx));
      if (!released) throw new NotFoundError(`package ${uuid} not found`);
      this.#changed();
      this.#packages.forget(uuid);
      return released;
    });
    for (const d of digests) await this.#releaseBlob(parseDigest(d, 'digest'));
    this.deps.log.info('package deleted', { package: uuid, fqn: record.package.fqn, request_id: ctx.requestId });
  }

  /** Removes the blob of `digest` when no package refers to it. True when removed. */
  #releaseBlob(digest: Digest): Promise<boolean> {
    const text = formatDigest(digest);
    return this.#digestLocks.run(text, async () => {
      for await (const _ of this.deps.store.iterate({ prefix: keys.blobRefPrefix(text), limit: 1 })) return false;
      await this.blobs.remove(digest);
      return true;
    });
  }

  /**
   * Streams an archive into the package. `resourceId` may be omitted when the
   * package has exactly one archive. `contentLength` is the request's
   * Content-Length when it sent one.
   */
  async upload(
    packageId: string,
    resourceId: string | undefined,
    source: Readable,
    contentLength: number | undefined,
    ctx: ChangeContext,
  ): Promise<Package> {
    const actor = await this.actors.get(packageId);
    if (!actor) throw new NotFoundError(`package ${packageId} not found`);
    const resources = actor.record.package.resources;
    if (resourceId === undefined) {
      if (resources.length !== 1) {
        throw new InvalidRequestError(
          `package ${packageId} has ${resources.length} archives; upload each to /packages/${packageId}/resources/<resource uuid>`,
        );
      }
      resourceId = resources[0]!.uuid;
    }
    const claim = await actor.beginUpload(resourceId);
    try {
      if (contentLength !== undefined && contentLength !== claim.resource.length) {
        throw new InvalidRequestError(
          `Content-Length ${contentLength} differs from the ${claim.resource.length} bytes declared for resource ${resourceId}`,
        );
      }
      const started = this.deps.clock.nowMs();
      const pkg = await this.#digestLocks.run(claim.resource.digest, async () => {
        await this.blobs.ingest(source, { length: claim.resource.length, digest: claim.digest }, this.options.onUploadBytes);
        const done = await actor.completeUpload(claim.resource.uuid, ctx);
        this.#changed();
        this.#packages.remember(packageId, actor.record);
        return done;
      });
      if (pkg.state === 'staging') this.#onStaging?.(pkg.uuid);
      this.deps.log.info('package archive stored', {
        package: packageId,
        resource: resourceId,
        bytes: claim.resource.length,
        ms: this.deps.clock.nowMs() - started,
        state: pkg.state,
        request_id: ctx.requestId,
      });
      return packageView(pkg);
    } finally {
      claim.release();
    }
  }

  /** The FQN of the package named by a package uuid or one of its resource uuids; undefined when none. */
  async fqnOf(id: string): Promise<string | undefined> {
    const record = (await this.find(id)) ?? (await this.#findByResource(id));
    return record?.package.fqn;
  }

  async #findByResource(resourceId: string): Promise<PackageRecord | undefined> {
    const owner = await this.deps.store.get(keys.packageByResource(resourceId));
    return owner === undefined ? undefined : this.find(owner);
  }

  /** The archive named by a package uuid (single-archive packages) or a resource uuid. */
  async download(id: string, resourceId: string | undefined, ctx: ChangeContext): Promise<Download> {
    let record = await this.find(id);
    if (!record && resourceId === undefined) {
      record = await this.#findByResource(id);
      if (record) resourceId = id;
    }
    if (!record) throw new NotFoundError(`package ${id} not found`);
    const p = record.package;
    if (resourceId === undefined) {
      if (p.resources.length !== 1) {
        throw new InvalidRequestError(`package ${p.uuid} has ${p.resources.length} archives; name one by its resource uuid`);
      }
      resourceId = p.resources[0]!.uuid;
    }
    const resource = p.resources.find((r) => r.uuid === resourceId);
    if (!resource) throw new NotFoundError(`package ${p.uuid} has no resource ${resourceId}`);
    if (!record.uploaded.includes(resource.uuid)) {
      throw new NotFoundError(`the archive of resource ${resource.uuid} has not been uploaded`);
    }
    const blob = await this.blobs.open(parseDigest(resource.digest, 'digest'));
    if (!blob) {
      const elsewhere = this.options.blobsElsewhere;
      if (elsewhere) {
        throw new UnavailableError(
          `the archive of resource ${resource.uuid} is not in this controller's blob directory (${elsewhere.dir}); it may be in another controller's: controllers that share etcd must share that directory (${elsewhere.setting})`,
          5_000,
        );
      }
      throw new NotFoundError(`the archive of resource ${resource.uuid} is missing from the blob store`);
    }
    await this.deps.audit.record(ctx, 'pkg.get', p.fqn, { resource: resource.uuid });
    return { stream: blob.stream, size: blob.size, digest: resource.digest };
  }

  /** Packages matching `query`, ordered by FQN. */
  /**
   * Packages matching `query`, ordered by FQN. A listing reads the FQN index in
   * order (a namespace query only its key range) and stops at the end of the
   * page, so it costs what it returns plus what the filters pass over.
   */
  async list(query: PackageQuery): Promise<Package[]> {
    const accept = packageFilter(query);
    const count = query.count !== undefined && query.count > 0 ? query.count : undefined;
    const skip = count === undefined ? 0 : ((query.page ?? 1) - 1) * count;
    let few: PackageRecord[] | undefined;
    if (query.ids) {
      few = await this.#packages.findMany(query.ids);
    } else if (query.fqn && !query.matchPartialFqn && query.fqn.localName !== undefined) {
      const id = await this.deps.store.get(keys.packageByFqn(`package::${query.fqn.namespace}::${query.fqn.localName}`));
      const record = id === undefined ? undefined : await this.find(id);
      few = record ? [record] : [];
    }
    let list: Package[];
    if (few) {
      list = few.map((r) => r.package).filter(accept).sort((a, b) => (a.fqn < b.fqn ? -1 : a.fqn > b.fqn ? 1 : 0));
      if (count !== undefined) list = list.slice(skip, skip + count);
    } else {
      const prefix = query.fqn ? keys.packageByFqn(`package::${query.fqn.namespace}`) : keys.packageByFqnPrefix;
      list = await readIndexPage(this.deps.store, {
        range: { prefix },
        load: async (ids) => (await this.#packages.findMany(ids)).map((r) => r.package),
        accept,
        skip,
        ...(count === undefined ? {} : { take: count }),
      });
    }
    return list.map(packageView);
  }

  async stop(): Promise<void> {
    await this.actors.stop();
  }
}

function tagMatcher(tag: string): (tags: Record<string, string>) => boolean {
  const eq = tag.indexOf('=');
  if (eq < 0) return (tags) => Object.hasOwn(tags, tag);
  const [name, value] = [tag.slice(0, eq), tag.slice(eq + 1)];
  return (tags) => tags[name] === value;
}

function packageFilter(query: PackageQuery): (p: Package) => boolean {
  const checks: ((p: Package) => boolean)[] = [];
  if (query.visible) {
    const visible = query.visible;
    checks.push((p) => visible(p.fqn));
  }
  if (query.fqn) {
    const match = fqnMatcher(query.fqn, query.matchPartialFqn);
    checks.push((p) => match(parseFqn(p.fqn, { type: 'package' })));
  }
  if (query.name !== undefined) checks.push((p) => p.name === query.name);
  for (const tag of query.tags ?? []) {
    const m = tagMatcher(tag);
    checks.push((p) => m(p.tags));
  }
  for (const tag of query.excludedTags ?? []) {
    const m = tagMatcher(tag);
    checks.push((p) => !m(p.tags));
  }
  if (query.providesType !== undefined || query.providesName !== undefined) {
    checks.push((p) =>
      p.provides.some(
        (r) =>
          (query.providesType === undefined || r.type === query.providesType) &&
          (query.providesName === undefined || r.name === query.providesName),
      ),
    );
  }
  return (p) => checks.every((check) => check(p));
}
