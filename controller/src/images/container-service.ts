/**
 * Packages and jobs from container images (POST /packages/container, POST /jobs/container),
 * each run as a task (tasks/):
 *
 *   manifest (index -> linux/amd64) ─▶ config ─▶ layers, streamed to the layer cache, digests
 *   checked ─▶ flattened into one gzip tar (whiteouts, opaque directories; paths checked) ─▶
 *   package `ready` (docker_image_id, docker_origin, the image's environment) ─▶ for a job:
 *   the job, its start command the image's Entrypoint + Cmd run without a shell.
 *
 * A refused image leaves nothing behind: no package, no layer it brought into the cache, no
 * temporary file. `pull: false` takes a ready package made from the same image (same origin)
 * when the caller may read it, without asking the registry; otherwise a package made from the
 * same image digest is reused. Layers pulled before are not pulled again.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { destinationRefusal, type DestinationPolicy } from '@platform/proto/common';
import type { ChangeContext, Deps } from '../context.js';
import { InvalidRequestError } from '../errors.js';
import { parseFqn } from '../model/fqn.js';
import type { Package } from '../model/package.js';
import type { PackageService } from '../packages/package-service.js';
import { PROGRESS_INTERVAL_MS, type TaskReporter, type TaskStep } from '../tasks/task-service.js';
import { flattenLayers, ImageError, indexLayer, type ArchiveCompression, type LayerFile, type LayerIndex } from './flatten.js';
import { planOf, type ImagePlan } from './image-config.js';
import { originOf, type ImageRef } from './image-ref.js';
import { LayerCache } from './layer-cache.js';
import { RegistryClient, type ImageManifest } from './registry-client.js';

/**
 * Packages made from an image: `idx/pkg-image/<origin>/<package uuid>` -> {digest, plan} (the
 * image digest and what its config said, for a reuse without asking the registry). A hint: an
 * entry whose package is gone is dropped when met.
 */
const imageIndexKey = (origin: string, pkg: string) => `idx/pkg-image/${encodeURIComponent(origin)}/${pkg}`;
const imageIndexPrefix = (origin: string) => `idx/pkg-image/${encodeURIComponent(origin)}/`;

/**
 * A layer is kept decompressed (layer-cache.ts): up to this many times the package limit, the
 * package archive being compressed too.
 */
const MAX_LAYER_EXPANSION = 4;

/** How long the check before a pull waits for the registry's name to resolve (then the pull's own connection judges). */
const CHECK_TIMEOUT_MS = 5_000;

export interface PulledImage {
  package: Package;
  plan: ImagePlan;
  /** Whether an existing package was taken instead of pulling. */
  reused: boolean;
}

export interface ContainerServiceOptions {
  /** Where layers are kept and archives are made (in the controller's data directory). */
  dir: string;
  /** The rule the addresses of pulls must pass (--allowed-registries): registries, redirects, token services. */
  registries: DestinationPolicy;
  /** The largest package archive (and sum of compressed layers) accepted. */
  maxPackageBytes: number;
  registryTimeoutMs?: number;
  /** Whether packages are fsynced when made (the blob store's `sync`): default true. */
  durable?: boolean;
  /** How the package archive's compressible layers are coded (flatten.ts ArchiveCompression): default `huffman`. */
  archiveCompression?: ArchiveCompression;
  /** Bytes of layers kept between pulls (LayerCache.trim): unbounded when absent. */
  layerCacheBytes?: number;
  /** Hears the bytes of layers pulled from registries (for /metrics). */
  onLayerBytes?: (n: number) => void;
}

export class ContainerService {
  readonly layers: LayerCache;
  readonly #tmp: string;
  #seq = 0;

  constructor(
    private readonly deps: Deps,
    private readonly packages: PackageService,
    private readonly options: ContainerServiceOptions,
  ) {
    this.layers = new LayerCache(join(options.dir, 'layers'), options.maxPackageBytes * MAX_LAYER_EXPANSION, options.layerCacheBytes);
    this.#tmp = join(options.dir, 'tmp');
  }

  /** Prepares the directories and removes what a stop left half made. */
  async init(): Promise<void> {
    await this.layers.clean();
    await this.#trim();
    await rm(this.#tmp, { recursive: true, force: true });
    await mkdir(this.#tmp, { recursive: true });
  }

  /**
   * Refuses (400, naming `field`) an image whose registry's address the rule refuses, before
   * anything is made: its name resolved now, every address judged. A name that does not
   * resolve now (or within CHECK_TIMEOUT_MS) is left to the pull (which fails clearly if it
   * still does not). The pull judges
   * again at each connection, so an answer that changes in between gains nothing.
   */
  async checkRegistry(ref: ImageRef, field: string): Promise<void> {
    let url: URL;
    try {
      url = new URL(`${ref.scheme}://${ref.registry}/`);
    } catch {
      throw new InvalidRequestError(`${field}: registry "${ref.registry}" is not host[:port]`);
    }
    const port = Number(url.port || (ref.scheme === 'https' ? 443 : 80));
    try {
      await this.options.registries.check(url.hostname, port, { timeoutMs: CHECK_TIMEOUT_MS });
    } catch (err) {
      const refused = destinationRefusal(err);
      if (refused) throw new InvalidRequestError(`${field}: ${refused.message}`, { details: { address: refused.address, port: refused.port, refusal: refused.reason } });
      // Not resolved now: the pull says so if it still is not.
    }
  }

  /** A ready package the caller may read, made from `origin` (and image `digest` when given). */
  async #existing(origin: string, digest: string | undefined, readable: (fqn: string) => boolean): Promise<{ pkg: Package; plan: ImagePlan } | undefined> {
    for await (const [key, value] of this.deps.store.iterate({ prefix: imageIndexPrefix(origin) })) {
      const entry = JSON.parse(value) as { digest: string; plan: ImagePlan };
      if (digest !== undefined && entry.digest !== digest) continue;
      const uuid = key.slice(-36);
      const found = await this.packages.find(uuid);
      if (!found) {
        await this.deps.store.batch([{ type: 'del', key }]); // the package was deleted since
        continue;
      }
      const pkg = found.package;
      if (pkg.state === 'ready' && pkg.docker_origin === origin && readable(pkg.fqn)) return { pkg, plan: entry.plan };
    }
    return undefined;
  }

  /**
   * The package of image `ref` named `fqn` (or, when `fqn` is taken, `fqn` with the digest's
   * first 12 hex digits): reused when `reuse` allows and one exists, else pulled and made.
   */
  async packageOf(
    ref: ImageRef,
    fqn: string,
    task: TaskReporter,
    ctx: ChangeContext,
    reuse: { pull: boolean; readable: (fqn: string) => boolean; renameIfTaken: boolean },
  ): Promise<PulledImage> {
    const origin = originOf(ref);
    if (!reuse.pull) {
      const cached = await this.#existing(origin, undefined, reuse.readable);
      if (cached) {
        await task.event({ stage: 'Pull', name: `using package ${cached.pkg.fqn} made from ${origin} (${cached.pkg.docker_image_id})` });
        return { package: cached.pkg, plan: cached.plan, reused: true };
      }
    }
    // The pull's first failure (a refused config, a bad layer) is the one reported, and stops
    // what is still downloading.
    const stop = new AbortController();
    let failure: { err: unknown } | undefined;
    const fail = (err: unknown) => {
      failure ??= { err };
      stop.abort();
    };
    const client = new RegistryClient(ref, {
      destinations: this.options.registries,
      ...(this.options.registryTimeoutMs ? { timeoutMs: this.options.registryTimeoutMs } : {}),
      signal: stop.signal,
    });
    note(task, { stage: 'Pull', name: `reading the manifest of ${origin}` });
    const manifest = await client.manifest();
    // The config is read while the layers download: one round trip to the registry (5-15 ms
    // for docker-registry here) less before the first layer's bytes.
    const planned = client.config(manifest.config).then(planOf);
    planned.catch(fail);
    const same = await this.#existing(origin, manifest.digest, reuse.readable);
    if (same) {
      const plan = await planned;
      await task.event({ stage: 'Pull', name: `using package ${same.pkg.fqn}, made from the same image ${manifest.digest}` });
      return { package: same.pkg, plan, reused: true };
    }
    const archiveFile = join(this.#tmp, `${process.pid}-${++this.#seq}.tar.gz`);
    const fetched: string[] = [];
    // The image's layers stay while this pull uses them; past the cache's budget, the least
    // recently used others go once it ends.
    const unpin = this.layers.pin(manifest.layers.map((l) => l.digest));
    let refused: readonly string[] = [];
    try {
      const indexes: (Promise<LayerIndex> | undefined)[] = [];
      // Both end before the pull goes on or fails, so that a failure leaves no download behind.
      const pulling = this.#pullLayers(client, manifest, task, fetched, indexes, stop.signal, fail);
      pulling.catch(fail);
      const [pulled, configured] = await Promise.allSettled([pulling, planned]);
      if (failure) throw failure.err;
      if (pulled.status === 'rejected' || configured.status === 'rejected') throw new Error('a pull failed without its failure recorded'); // not reached
      const layers = pulled.value;
      const plan = configured.value;
      note(task, { stage: 'Unpack', name: `flattening ${layers.length} layer(s) into one package archive` });
      const archive = await flattenLayers(layers, archiveFile, indexes, { durable: this.options.durable ?? true, compression: this.options.archiveCompression ?? 'huffman' });
      this.deps.log.info('image flattened', { image: origin, digest: manifest.digest, bytes: archive.length, entries: archive.entries });
      if (archive.length > this.options.maxPackageBytes) {
        throw new ImageError(`the flattened image is ${archive.length} bytes, over this cluster's package limit of ${this.options.maxPackageBytes} bytes`);
      }
      let name = fqn;
      if (reuse.renameIfTaken && (await this.packages.fqnTaken(fqn))) name = `${fqn}-${manifest.digest.slice(7, 19)}`;
      note(task, { stage: 'Package', name: `creating ${name}` });
      const pkg = await this.packages.createFromArchive(
        { fqn: name, environment: plan.environment, docker_image_id: manifest.digest, docker_origin: origin },
        { file: archiveFile, length: archive.length, digest: archive.digest },
        ctx,
      );
      await this.deps.store.batch([{ type: 'put', key: imageIndexKey(origin, pkg.uuid), value: JSON.stringify({ digest: manifest.digest, plan }) }]);
      await task.event({ stage: 'Package', name: `created ${pkg.fqn}`, payload: { package_uuid: pkg.uuid, package_fqn: pkg.fqn, docker_image_id: manifest.digest } });
      return { package: pkg, plan, reused: false };
    } catch (err) {
      stop.abort();
      // A refused image brings nothing into the cache (but a layer another pull uses stays: it
      // was found right, and that pull counts on it).
      if (err instanceof ImageError) refused = fetched;
      throw err;
    } finally {
      await rm(archiveFile, { force: true });
      unpin();
      for (const digest of refused) await this.layers.discard(digest);
      await this.#trim();
    }
  }

  /** Trims the layer cache to its budget; a failure is logged, never the pull's. */
  async #trim(): Promise<void> {
    try {
      const { removed, bytes, kept } = await this.layers.trim();
      if (removed > 0) this.deps.log.info('image layers removed from the cache', { layers: removed, bytes, kept_bytes: kept, budget_bytes: this.layers.maxBytes });
    } catch (err) {
      this.deps.log.warn('could not trim the image layer cache', { err });
    }
  }

  /**
   * The layers' files, pulled unless cached. Each layer above the bottom one is indexed (pass
   * one of the flattening) as soon as it is there, while the others still download: `indexes`.
   */
  async #pullLayers(
    client: RegistryClient,
    manifest: ImageManifest,
    task: TaskReporter,
    fetched: string[],
    indexes: (Promise<LayerIndex> | undefined)[],
    stopped: AbortSignal,
    fail: (err: unknown) => void,
  ): Promise<LayerFile[]> {
    const total = manifest.layers.reduce((n, l) => n + l.size, 0);
    if (total > this.options.maxPackageBytes) {
      throw new ImageError(`the image's layers are ${total} bytes, over this cluster's package limit of ${this.options.maxPackageBytes} bytes`);
    }
    // Up to three layers at a time, as registry clients do; each streams to its own file.
    const files: LayerFile[] = new Array<LayerFile>(manifest.layers.length);
    let done = 0;
    let next = 0;
    let lastProgress = -Infinity;
    const worker = async () => {
      for (let index = next++; index < manifest.layers.length && !stopped.aborted; index = next++) {
        const layer = manifest.layers[index]!;
        const step = { stage: 'Pull', name: `pulling layer ${layer.digest}`, index, total: manifest.layers.length };
        const got = await this.layers.get(
          client,
          layer,
          async () => note(task, { ...step, progress: { current: done, total } }),
          (n) => {
            done += n;
            this.options.onLayerBytes?.(n);
            // The task keeps one progress event an interval; the others are not even sent.
            const now = performance.now();
            if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
            lastProgress = now;
            note(task, { ...step, partial: true, progress: { current: done, total } });
          },
        );
        if (got.cached) done += layer.size;
        else fetched.push(layer.digest);
        note(task, { ...step, name: got.cached ? `layer ${layer.digest} already pulled` : `pulled layer ${layer.digest}`, progress: { current: done, total } });
        files[index] = got.layer;
        if (index > 0) {
          // Made while it downloaded; for a layer pulled before, read now by this worker while
          // the others download (at most three at a time: each reader holds a few MiB).
          const indexing = got.index ? Promise.resolve(got.index) : indexLayer(got.layer);
          indexing.catch(() => undefined); // awaited by the flattening; a failure there is the one reported
          indexes[index] = indexing;
          if (!got.index) await indexing.catch(() => undefined);
        }
      }
    };
    // A failure goes to `fail`, which stops the other downloads; this ends once every worker
    // has (none is left writing when the pull has failed), the files of a stopped pull missing.
    await Promise.all(Array.from({ length: Math.min(3, manifest.layers.length) }, () => worker().catch(fail)));
    return files;
  }
}

/**
 * Records a step of the pull without waiting for it: the task stores its events in order (each
 * a synced write) while the pull goes on. An event that cannot be stored does not stop the
 * pull, as a progress event's did not before.
 */
function note(task: TaskReporter, step: TaskStep): void {
  void task.event(step).catch(() => undefined);
}

/** The package FQN of a container job: the job's namespace and name. */
export function packageFqnOfJob(jobFqn: string): string {
  const fqn = parseFqn(jobFqn, { type: 'job', field: 'job_fqn' });
  if (fqn.localName === undefined) throw new InvalidRequestError(`job_fqn: "${jobFqn}" names no job (job::<namespace>::<name>)`);
  return `package::${fqn.namespace}::${fqn.localName}`;
}
