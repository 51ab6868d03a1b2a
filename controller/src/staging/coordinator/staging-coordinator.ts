/**
 * The staging coordinator: runs a package's staging pipeline when the package
 * reaches `staging`, one stager after the other, each on the archive the one
 * before produced, and ends the package `ready` or `failed`.
 *
 *   staging ─▶ for each stager: launch ─▶ done ──────────▶ next stager ─▶ … ─▶ ready
 *                                 │   ─▶ relaunch ─▶ launch again with the added
 *                                 │                  dependencies installed, on the archive
 *                                 │                  it uploaded or snapshotted (if any)
 *                                 ├── failed / exited / time limit / cannot start ─▶ failed
 *                                 └── controller stopping ─▶ (left `staging`; runs again at start)
 *
 * Each run gets its own STAGER_URL, `<base>/stager/<token>`, with an unguessable
 * token that is forgotten when the run ends. Runs are started through a
 * `StagerLauncher` (agents in a cluster); without one, packages wait in
 * `staging` and are picked up when the controller starts with one.
 *
 * Concurrency: one pipeline per package at a time (`stage` is idempotent while
 * one runs); pipelines of different packages run concurrently.
 */
import { randomBytes } from 'node:crypto';
import type { ChangeContext, Deps } from '../../context.js';
import { InvalidRequestError, NotFoundError } from '../../errors.js';
import type { Job } from '../../model/job.js';
import type { DependencyResolver } from '../../packages/dependencies.js';
import type { PackageRecord } from '../../model/package.js';
import type { PackageService } from '../../packages/package-service.js';
import type { UsableBy } from '../../policy/references.js';
import type { PipelineService } from '../pipeline.js';
import type { StagerLauncher, StagerRun, StagerRunEnd, StagingLogSink } from '../stager-launcher.js';
import { StagerSession, type ArchiveRef, type StagingMeta, type StagerOutcome } from './stager-session.js';

export interface StagingCoordinatorOptions {
  /**
   * Which packages may satisfy the dependencies of a package being staged: those its
   * principal (`updated_by`) may use (policy/references.ts). Absent: any.
   */
  usableBy?: UsableBy;
  /** Runs stager instances; absent: packages wait in `staging`. */
  launcher: StagerLauncher | undefined;
  sink: StagingLogSink;
  /** The API's base URL as stager instances reach it (STAGER_URL = base + /stager/<token>). */
  baseUrl: () => string;
  /** A stager run longer than this is stopped and the package fails. Default 10 minutes. */
  stagerTimeoutMs?: number;
  /** After a stager reports, how long it may take to exit before it is stopped. Default 10 s. */
  exitGraceMs?: number;
  /** Relaunches allowed per stager. Default 5. */
  maxRelaunches?: number;
}

/** The principal that staging changes are recorded under in the audit log. */
export const STAGING_PRINCIPAL = 'staging-coordinator@platform.local';

/** Jobs as the coordinator needs them. */
export interface StagerJobs {
  find(uuid: string): Promise<Job | undefined>;
}

type RunResult =
  | StagerOutcome
  | { kind: 'exited'; end: StagerRunEnd }
  | { kind: 'timeout' }
  | { kind: 'launch_failed'; message: string }
  | { kind: 'aborted' };

/** A failure that ends staging with `message` as the package's error_message. */
class StagingFailure extends Error {
  override readonly name = 'StagingFailure';
}

const TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;

export class StagingCoordinator {
  readonly #sessions = new Map<string, StagerSession>();
  readonly #pipelines = new Map<string, Promise<void>>();
  readonly #abort = new AbortController();
  readonly #timeoutMs: number;
  readonly #exitGraceMs: number;
  readonly #maxRelaunches: number;

  constructor(
    private readonly deps: Deps,
    private readonly packages: PackageService,
    private readonly pipelines: PipelineService,
    private readonly jobs: StagerJobs,
    private readonly resolver: DependencyResolver,
    private readonly options: StagingCoordinatorOptions,
  ) {
    this.#timeoutMs = options.stagerTimeoutMs ?? 10 * 60_000;
    this.#exitGraceMs = options.exitGraceMs ?? 10_000;
    this.#maxRelaunches = options.maxRelaunches ?? 5;
  }

  /** True when the token has the form of ours (a malformed one answers 451, not 404). */
  static isTokenForm(token: string): boolean {
    return TOKEN_RE.test(token);
  }

  /** The live run of `token`; throws NotFoundError (404) once it has ended or was never issued. */
  session(token: string): StagerSession {
    const s = this.#sessions.get(token);
    if (!s) throw new NotFoundError('no stager run has this token: it has ended, or never existed');
    return s;
  }

  /** Pipelines running now (for tests and metrics). */
  get running(): number {
    return this.#pipelines.size;
  }

  /**
   * Runs the pipeline of package `uuid` if it is `staging` and none runs for it
   * yet. Returns at once; the outcome is the package's state.
   */
  stage(uuid: string): void {
    if (this.#pipelines.has(uuid) || this.#abort.signal.aborted) return;
    if (!this.options.launcher) {
      this.deps.log.warn('package waits in staging: this controller has no stager launcher', { package: uuid });
      return;
    }
    const task = this.#runPipeline(uuid, this.options.launcher)
      .catch((err: unknown) => this.deps.log.error('staging pipeline crashed', { package: uuid, err }))
      .finally(() => this.#pipelines.delete(uuid));
    this.#pipelines.set(uuid, task);
  }

  /** Resolves when the pipeline of `uuid` (if one runs) has ended. */
  async settled(uuid: string): Promise<void> {
    await this.#pipelines.get(uuid);
  }

  /**
   * Shutdown: stops every stager run and waits for the pipelines to unwind.
   * Their packages stay `staging` and run again when the controller starts.
   */
  async stop(): Promise<void> {
    this.#abort.abort();
    await Promise.allSettled([...this.#pipelines.values()]);
  }

  #line(uuid: string, text: string): void {
    this.options.sink(uuid, 'staging', `[staging] ${text}`);
  }

  async #runPipeline(uuid: string, launcher: StagerLauncher): Promise<void> {
    const record = await this.packages.find(uuid);
    if (!record || record.package.state !== 'staging') return;
    const ctx: ChangeContext = { principal: STAGING_PRINCIPAL, requestId: `staging-${uuid}` };
    const blobs = new Set<string>();
    const started = this.deps.clock.nowMs();
    try {
      const { archive, meta, result } = await this.#stageAll(record, launcher, blobs);
      if (result === 'aborted') return;
      // The dependencies a stager declared must be installable, or the package could never run.
      await this.#dependencyUuids(record, meta, true);
      this.#line(uuid, 'Staging is complete.');
      const pkg = await this.packages.finishStaging(uuid, { archive, ...meta }, ctx);
      this.deps.log.info('package staged', { package: uuid, version_id: pkg.version_id, ms: this.deps.clock.nowMs() - started });
    } catch (err) {
      if (err instanceof NotFoundError) {
        this.deps.log.info('staging ended: the package is gone', { package: uuid });
        return;
      }
      const message = err instanceof Error ? err.message : String(err);
      if (!(err instanceof StagingFailure)) this.deps.log.error('staging failed unexpectedly', { package: uuid, err });
      this.#line(uuid, `Staging failed: ${message}`);
      await this.packages.failStaging(uuid, message, ctx).catch((e: unknown) => {
        if (!(e instanceof NotFoundError)) throw e;
      });
      this.deps.log.info('package staging failed', { package: uuid, error: message });
    } finally {
      await this.packages.releaseStagingBlobs(uuid, [...blobs]).catch((err: unknown) =>
        this.deps.log.warn('could not release staging archives', { package: uuid, err }),
      );
    }
  }

  async #stageAll(
    record: PackageRecord,
    launcher: StagerLauncher,
    blobs: Set<string>,
  ): Promise<{ archive: ArchiveRef; meta: StagingMeta; result: 'done' | 'aborted' }> {
    const p = record.package;
    if (!p.staging_pipeline) throw new StagingFailure('the package has no staging pipeline');
    const pipeline = await this.pipelines.get(p.staging_pipeline.uuid).catch((err: unknown) => {
      if (err instanceof NotFoundError) throw new StagingFailure(`staging pipeline ${p.staging_pipeline_fqn || p.staging_pipeline!.uuid} no longer exists`);
      throw err;
    });
    if (p.resources.length !== 1 || !record.uploaded.includes(p.resources[0]!.uuid)) {
      throw new StagingFailure(`staging works on a package with one archive; this one has ${p.resources.length}`);
    }
    let archive: ArchiveRef = { length: p.resources[0]!.length, digest: p.resources[0]!.digest };
    const meta: StagingMeta = structuredClone({
      dependencies: p.dependencies,
      provides: p.provides,
      environment: p.environment,
      templates: p.templates,
    });
    this.#line(p.uuid, `Beginning staging with '${pipeline.fqn}' pipeline, ${pipeline.stagers.length} stager(s) defined.`);
    for (const stager of pipeline.stagers) {
      const job = await this.jobs.find(stager.uuid);
      if (!job) throw new StagingFailure(`stager job ${stager.uuid} of pipeline ${pipeline.fqn} no longer exists`);
      let extra = await this.#dependencyUuids(record, meta, false);
      for (let attempt = 0; ; attempt++) {
        this.#line(p.uuid, `Launching instance of stager '${job.name}'...`);
        const run = await this.#runStager(launcher, p.uuid, job, archive, meta, extra, blobs);
        if (run.kind === 'done') {
          archive = run.output;
          this.#line(p.uuid, `Stager '${job.name}' is done.`);
          break;
        }
        if (run.kind === 'aborted') return { archive, meta, result: 'aborted' };
        if (run.kind === 'relaunch') {
          // What the stager uploaded (POST /data) or snapshotted before relaunching is what
          // the relaunched stager downloads: a relaunch keeps the work done so far.
          archive = run.output;
          if (attempt >= this.#maxRelaunches) throw new StagingFailure(`stager '${job.name}' relaunched more than ${this.#maxRelaunches} times`);
          extra = await this.#dependencyUuids(record, meta, true);
          this.#line(p.uuid, `Relaunching stager '${job.name}' with its new dependencies...`);
          continue;
        }
        throw new StagingFailure(failureMessage(job.name, run, this.#timeoutMs));
      }
    }
    return { archive, meta, result: 'done' };
  }

  /**
   * The packages that the staged package needs with the dependencies in `meta`
   * (not itself), dependencies first. `strict`: one that nothing satisfies fails
   * staging; else it is left out.
   */
  async #dependencyUuids(record: PackageRecord, meta: StagingMeta, strict: boolean): Promise<string[]> {
    const uuid = record.package.uuid;
    try {
      const order = await this.resolver.resolve([{ ...record, package: { ...record.package, dependencies: meta.dependencies } }], {
        bestEffort: !strict,
        ...this.options.usableBy?.(record.package.updated_by),
      });
      return order.filter((r) => r.package.uuid !== uuid).map((r) => r.package.uuid);
    } catch (err) {
      // The resolver's one InvalidRequestError: a requirement that nothing satisfies.
      if (err instanceof InvalidRequestError) throw new StagingFailure(err.message);
      throw err;
    }
  }

  async #runStager(
    launcher: StagerLauncher,
    packageUuid: string,
    job: Job,
    input: ArchiveRef,
    meta: StagingMeta,
    extraPackageUuids: string[],
    blobs: Set<string>,
  ): Promise<(RunResult & { kind: Exclude<RunResult['kind'], 'done' | 'relaunch'> }) | { kind: 'done' | 'relaunch'; output: ArchiveRef }> {
    const token = randomBytes(24).toString('base64url');
    const runId = this.deps.ids.uuid();
    let run: StagerRun | undefined;
    // A line about a stager request comes after the output the stager wrote before sending it:
    // each waits for the launcher to flush that output, in the order the lines were made. The
    // request is answered once its line is written (the stager API awaits it), so what the
    // stager writes after the answer cannot come before it either.
    let lines = Promise.resolve();
    const line = (text: string): Promise<void> => {
      const flushed = run?.flushLogs?.() ?? Promise.resolve();
      lines = lines.then(() => flushed).then(() => this.#line(packageUuid, text));
      return lines;
    };
    const session = new StagerSession(token, runId, packageUuid, job.name, input, meta, (d) => blobs.add(d), line);
    this.#sessions.set(token, session);
    const log = this.deps.log.child({ package: packageUuid, stager: job.fqn, run: runId });
    let timer: NodeJS.Timeout | undefined;
    const signal = this.#abort.signal;
    try {
      try {
        run = await launcher.launch({
          runId,
          stagerJobUuid: job.uuid,
          packageUuid,
          environment: { STAGER_URL: `${this.options.baseUrl()}/stager/${token}` },
          extraPackageUuids,
        });
      } catch (err) {
        return { kind: 'launch_failed', message: err instanceof Error ? err.message : String(err) };
      }
      if (run.snapshot) session.snapshot = run.snapshot.bind(run);
      log.info('stager launched');
      const timedOut = new Promise<RunResult>((resolve) => {
        timer = setTimeout(() => resolve({ kind: 'timeout' }), this.#timeoutMs);
        timer.unref();
      });
      const aborted = new Promise<RunResult>((resolve) => {
        if (signal.aborted) resolve({ kind: 'aborted' });
        signal.addEventListener('abort', () => resolve({ kind: 'aborted' }), { once: true });
      });
      const ended = run.ended.then((end): RunResult => ({ kind: 'exited', end }));
      let result = await Promise.race([session.reported, ended, timedOut, aborted]);
      // A stager reports before it exits; an exit seen first may still have a report in flight.
      if (result.kind === 'exited' && session.outcome) result = session.outcome;
      clearTimeout(timer);
      if (result.kind === 'done' || result.kind === 'failed' || result.kind === 'relaunch') {
        // Let it exit on its own (0 after done or relaunch, 1 after failed), then make sure.
        let graceTimer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, this.#exitGraceMs)));
        await Promise.race([run.ended, grace]);
        clearTimeout(graceTimer);
      }
      if (result.kind !== 'exited') await run.stop(result.kind === 'timeout' ? 'stager time limit reached' : result.kind === 'aborted' ? 'controller stopping' : `stager reported ${result.kind}`);
      log.info('stager run ended', { result: result.kind });
      if (result.kind === 'done' || result.kind === 'relaunch') return { kind: result.kind, output: session.current };
      return result;
    } finally {
      clearTimeout(timer);
      this.#sessions.delete(token);
      await lines;
    }
  }
}

function failureMessage(stager: string, run: RunResult, timeoutMs: number): string {
  switch (run.kind) {
    case 'failed':
      return run.reason ? `stager '${stager}' failed: ${run.reason}` : `stager '${stager}' reported failure`;
    case 'exited':
      return `stager '${stager}' ended without reporting done or failed (${run.end.reason ?? (run.end.exitCode === undefined ? 'no exit code' : `exit code ${run.end.exitCode}`)})`;
    case 'timeout':
      return `stager '${stager}' did not finish within the stager time limit of ${Math.round(timeoutMs / 1000)} s and was stopped`;
    case 'launch_failed':
      return `stager '${stager}' could not be started: ${run.message}`;
    default:
      return `stager '${stager}' ended unexpectedly (${run.kind})`;
  }
}
