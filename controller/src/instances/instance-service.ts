/**
 * Ties the agents to the jobs: routes what agents report to the JobActor that owns each
 * instance, decides at registration which instances an agent keeps, tells actors when an
 * agent is lost or room appears, stores log lines, and builds what an instance installs.
 */
import { instanceStateName, type InstanceReport, type LogBatch, type PackageSpec } from '@platform/proto';
import type { AgentDirectory, AgentRecord, ClusterEvents, HelloDecision } from '../agents/agent-directory.js';
import type { Deps } from '../actors/context.js';
import { parseDigest } from '../blobs/digest.js';
import type { Job } from '../jobs/job.js';
import { dependencyPrincipal, type JobActor } from '../jobs/job-actor.js';
import { PlacementError, type RunDeps } from '../jobs/job-runner.js';
import type { LogStore, NewLogLine } from '../logs/log-store.js';
import type { PackageRecord } from '../packages/package.js';
import { keys } from '../store/keys.js';
import { InstanceTable, type InstanceRecord } from './instance.js';
import type { ActorRegistry } from '../actors/actor-registry.js';
import type { StagerLaunch, StagerLauncher, StagerRun, StagerRunEnd, StagingLogSink } from '../staging/stager-launcher.js';

export interface InstanceServiceOptions {
  /**
   * The packages to install for these package uuids, dependencies first (staging's resolver),
   * the dependencies chosen among the packages `principal` may use.
   */
  installOrder?: (packageUuids: readonly string[], principal: string) => Promise<PackageRecord[]>;
  environmentFor?: (job: Job) => Record<string, string>;
  /** Where the output of stager runs goes (the staged package's log). */
  stagingSink?: StagingLogSink;
  /** How long a stager run waits for an agent with room before it fails. Default 60 s. */
  placementWaitMs?: number;
}

interface ActiveRun {
  packageUuid: string;
  end: (end: StagerRunEnd) => void;
}

export class InstanceService implements ClusterEvents, RunDeps, StagerLauncher {
  readonly table = new InstanceTable();
  readonly #waiting = new Set<string>();
  /** One-off runs (stagers) in progress, by instance uuid. */
  readonly #runs = new Map<string, ActiveRun>();
  #actors: ActorRegistry<JobActor> | undefined;

  constructor(
    private readonly deps: Deps,
    readonly agents: AgentDirectory,
    private readonly logStore: LogStore,
    private readonly options: InstanceServiceOptions = {},
  ) {}

  /** Loads every instance record; jobs with live instances must then be activated (`liveJobs`). */
  async load(): Promise<void> {
    for await (const [, value] of this.deps.store.iterate({ prefix: keys.instancePrefix })) {
      this.table.put(JSON.parse(value) as InstanceRecord);
    }
  }

  /** Jobs that have an instance that is not REMOVED. */
  liveJobs(): string[] {
    return this.table.jobs().filter((job) => this.table.ofJob(job).some((i) => i.state !== 'REMOVED'));
  }

  attach(actors: ActorRegistry<JobActor>): void {
    this.#actors = actors;
  }

  #withActor(job: string, fn: (actor: JobActor) => Promise<void>, orElse?: () => void): void {
    const actors = this.#actors;
    if (!actors) return;
    actors.get(job).then(
      (actor) => (actor ? fn(actor) : orElse?.()),
      (err: unknown) => this.deps.log.error('job actor activation failed', { job, err: (err as Error).message }),
    ).catch((err: unknown) => this.deps.log.error('job actor message failed', { job, err: (err as Error).message }));
  }

  // ---- RunDeps ------------------------------------------------------------------------------

  packagesFor(job: Job, extra: readonly string[] = []): Promise<PackageSpec[]> {
    const user = job.packages.filter((p) => p.source !== 'system');
    return this.#install([...user.map((p) => p.uuid), ...extra], new Map(user.map((p) => [p.uuid, p.install_path ?? ''])), dependencyPrincipal(job));
  }

  /** PackageSpecs of `uuids` and, with a resolver, their dependencies (first). */
  async #install(uuids: string[], installPath: Map<string, string>, principal: string): Promise<PackageSpec[]> {
    let records: PackageRecord[];
    if (this.options.installOrder) records = await this.options.installOrder(uuids, principal);
    else {
      const raw = await this.deps.store.getMany(uuids.map((id) => keys.package(id)));
      records = raw.filter((r): r is string => r !== undefined).map((r) => JSON.parse(r) as PackageRecord);
    }
    return records.flatMap((r) => packageSpecs(r, installPath.get(r.package.uuid) ?? '', r.package.host_paths ?? []));
  }

  // ---- StagerLauncher: stager runs are one-off instances of the stager job on an agent ----------

  async launch(request: StagerLaunch): Promise<StagerRun> {
    const actors = this.#actors;
    const actor = actors ? await actors.get(request.stagerJobUuid) : undefined;
    if (!actor) throw new Error(`stager job ${request.stagerJobUuid} does not exist`);
    const packages = await this.packagesFor(actor.job, request.extraPackageUuids);
    let end!: (e: StagerRunEnd) => void;
    const ended = new Promise<StagerRunEnd>((resolve) => (end = resolve));
    const run = {
      id: request.runId,
      package: request.packageUuid,
      environment: request.environment,
      extraPackageUuids: request.extraPackageUuids,
      ...(request.environment['STAGER_URL'] ? { stagerUrl: request.environment['STAGER_URL'] } : {}),
    };
    // An agent may be on its way (a restart, a cluster starting up): wait a while for room.
    const deadline = this.deps.clock.nowMs() + (this.options.placementWaitMs ?? 60_000);
    let record: InstanceRecord;
    for (let told = false; ; ) {
      try {
        record = await actor.launchRun(run, packages);
        break;
      } catch (err) {
        if (!(err instanceof PlacementError) || this.deps.clock.nowMs() >= deadline) throw err;
        if (!told) this.options.stagingSink?.(request.packageUuid, 'staging', `[staging] Waiting for an instance manager: ${err.message}`);
        told = true;
        await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
      }
    }
    // Registered after placement: an end reported before this line is found in the table.
    if (record.state === 'REMOVED') end(runEndOf(this.table.get(record.uuid) ?? record));
    else this.#runs.set(record.uuid, { packageUuid: request.packageUuid, end });
    return {
      ended,
      stop: async () => {
        await actor.stopRun(record.uuid).catch(() => undefined);
        // Bounded: an agent that is gone cannot confirm; its Hello will stop the orphan later.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([ended, new Promise((resolve) => (timer = setTimeout(resolve, 15_000)))]);
        clearTimeout(timer);
      },
      snapshot: async (directory) => this.agents.requestSnapshot(record.agent_uuid, record.uuid, directory ?? ''),
    };
  }

  jobDeleted(job: string): void {
    this.logStore.drop(job).catch((err: unknown) => this.deps.log.warn('log of a deleted job not dropped', { job, err: (err as Error).message }));
  }

  runEnded(record: InstanceRecord): void {
    const run = this.#runs.get(record.uuid);
    if (!run) return;
    this.#runs.delete(record.uuid);
    run.end(runEndOf(record));
  }

  environmentFor(job: Job): Record<string, string> {
    return this.options.environmentFor?.(job) ?? {};
  }

  waiting(job: string, waiting: boolean): void {
    if (waiting) this.#waiting.add(job);
    else this.#waiting.delete(job);
  }

  // ---- ClusterEvents ------------------------------------------------------------------------

  async hello(agent: AgentRecord, instances: InstanceReport[]): Promise<HelloDecision> {
    const adopt: string[] = [];
    const stop: string[] = [];
    const listed = new Set<string>();
    const follow: (() => void)[] = [];
    for (const report of instances) {
      const uuid = report.instanceUuid ?? '';
      listed.add(uuid);
      const record = this.table.get(uuid);
      const orphanRun = record?.run !== undefined && !this.#runs.has(uuid);
      if (record && record.agent_uuid === agent.uuid && record.state !== 'REMOVED' && record.stop === undefined && !orphanRun) {
        adopt.push(uuid);
        follow.push(() => this.#withActor(record.job_uuid, (a) => a.applyReport(agent.uuid, report)));
      } else {
        stop.push(uuid);
      }
    }
    for (const record of this.table.ofAgent(agent.uuid)) {
      if (record.state === 'REMOVED' || listed.has(record.uuid)) continue;
      follow.push(() => this.#withActor(record.job_uuid, (a) => a.instanceMissing(record.uuid)));
    }
    if (adopt.length + stop.length > 0) {
      this.deps.log.info('instance manager reconciled', { agent: agent.uuid, adopted: adopt.length, stopped: stop.length });
    }
    return { adopt, stop, afterWelcome: () => follow.forEach((f) => f()) };
  }

  report(agent: string, report: InstanceReport): void {
    const job = report.jobUuid ?? '';
    this.#withActor(
      job,
      (actor) => actor.applyReport(agent, report),
      () => {
        // The job is gone: the instance must not run on.
        if (instanceStateName(report.state) !== 'REMOVED') {
          this.agents.send(agent, { stop: { instanceUuid: report.instanceUuid ?? '', reason: 'job deleted', force: false } });
        }
      },
    );
  }

  logs(agent: string, batch: LogBatch): void {
    const byJob = new Map<string, NewLogLine[]>();
    for (const line of batch.lines ?? []) {
      const record = this.table.get(line.instanceUuid ?? '');
      if (!record || record.agent_uuid !== agent) continue;
      const run = this.#runs.get(record.uuid);
      if (run && this.options.stagingSink) {
        this.options.stagingSink(run.packageUuid, line.stream === 'stderr' ? 'stderr' : 'stdout', line.text ?? '');
        continue;
      }
      let lines = byJob.get(record.job_uuid);
      if (!lines) byJob.set(record.job_uuid, (lines = []));
      lines.push({ time_ms: line.timeMs ?? this.deps.clock.nowMs(), instance: record.uuid, stream: line.stream ?? 'stdout', text: line.text ?? '' });
    }
    for (const [job, lines] of byJob) {
      this.logStore.append(job, lines).catch((err: unknown) => this.deps.log.error('log lines not stored', { job, err: (err as Error).message }));
    }
  }

  lost(agent: string): void {
    const jobs = new Set(this.table.ofAgent(agent).filter((i) => i.state !== 'REMOVED').map((i) => i.job_uuid));
    for (const job of jobs) this.#withActor(job, (a) => a.agentLost(agent));
  }

  capacityChanged(): void {
    for (const job of [...this.#waiting]) this.#withActor(job, (a) => a.reconcile());
  }
}

function runEndOf(record: InstanceRecord): StagerRunEnd {
  return {
    failed: record.failed,
    ...(record.exited ? { exitCode: record.exit_code } : {}),
    ...(record.reason ? { reason: record.reason } : {}),
  };
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
  };
  if (p.resources.length === 0) return [{ ...common, digest: '', length: 0 }];
  return p.resources.map((r) => ({ ...common, digest: normalizedDigest(r.digest), length: r.length }));
}

function normalizedDigest(text: string): string {
  const d = parseDigest(text, 'digest', true);
  return `${d.algorithm}:${d.hex}`;
}
