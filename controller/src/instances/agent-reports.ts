/**
 * What the agents report, routed to where it belongs: each instance's report to the JobActor
 * that owns it, log lines to the job's log (or, for a stager run, to the staged package's
 * log), an agent's loss and new room to the actors that wait for it; and, when an agent says
 * hello, which of the instances it lists it keeps. It also gives the reconciler what it needs
 * from outside the scheduler (RunDeps): what an instance installs (packages/instance-packages.ts)
 * and the end of one-off runs (staging/agent-launcher.ts).
 */
import { instanceStateName, type InstanceReport, type LinkSpec, type LogBatch, type NetworkSpec, type PackageSpec, type PlatformFile } from '@platform/proto';
import type { AgentDirectory, AgentRecord, ClusterEvents, HelloDecision } from '../agents/agent-directory.js';
import type { Deps } from '../context.js';
import type { Job } from '../model/job.js';
import type { JobActor } from '../jobs/job-actor.js';
import type { RunDeps } from '../scheduler/reconciler.js';
import type { LogStore, NewLogLine } from '../logs/log-store.js';
import { keys } from '../store/keys.js';
import type { InstanceRecord } from '../model/instance.js';
import { InstanceTable } from '../scheduler/instance-table.js';
import type { ActorRegistry } from '../actors/actor-registry.js';
import type { StagingLogSink } from '../staging/stager-launcher.js';

export interface AgentReportsOptions {
  environmentFor?: (job: Job) => Record<string, string>;
  /** Files the platform gives the job's instances (secrets, app token). */
  filesFor?: (job: Job) => PlatformFile[];
  linksFor?: (job: Job) => LinkSpec[];
  endpointsFor?: (job: Job) => string[];
  /** Addresses and network specs of instances on virtual networks (networks/network-catalog.ts). */
  addressFor?: RunDeps['addressFor'];
  networkFor?: RunDeps['networkFor'];
  /** A job was reconciled: its log drains may have changed (logs/drain-feed.ts). */
  drainsChanged?: (job: Job) => void;
  /** A job was reconciled: what it may reach outside may have changed (networks/egress-feed.ts). */
  egressChanged?: (job: Job) => void;
  /** A job is deleted (besides its log). */
  jobDeleted?: (job: string) => void;
  /** Where the output of stager runs goes (the staged package's log). */
  stagingSink?: StagingLogSink;
}

/** The one-off runs (stager runs) that the controller follows: staging/agent-launcher.ts. */
export interface RunFollower {
  /** The package that the run in `instanceUuid` stages, while it is followed. */
  packageOf(instanceUuid: string): string | undefined;
  /** The run's instance is REMOVED. */
  runEnded(record: InstanceRecord): void;
}

/** What an instance installs: packages/instance-packages.ts. */
export interface InstallPlanner {
  packagesFor(job: Job, extra?: readonly string[]): Promise<PackageSpec[]>;
}

export class AgentReports implements ClusterEvents, RunDeps {
  readonly table = new InstanceTable();
  readonly #waiting = new Set<string>();
  /** Messages to jobs' actors waiting for their activation (`ActorRegistry.get`), in order, by job. */
  readonly #onTheirWay = new Map<string, ((actor: JobActor | undefined) => void)[]>();
  #actors: ActorRegistry<JobActor> | undefined;
  #runs: RunFollower | undefined;

  constructor(
    private readonly deps: Deps,
    readonly agents: AgentDirectory,
    private readonly logStore: LogStore,
    private readonly installs: InstallPlanner,
    private readonly options: AgentReportsOptions = {},
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

  /** Follows the one-off runs of `runs`: their instances are not the job's own, nor their output. */
  followRuns(runs: RunFollower): void {
    this.#runs = runs;
  }

  /**
   * Runs `fn` with the actor of `job` (activated if need be), or `orElse` when the job does not
   * exist, in the order of the calls for one job: a live actor is given at once (without the
   * promise of a `get`: agents' reports come thousands a second), unless messages to it are
   * still waiting for its activation; then this one waits behind them, and they are given to it
   * together, in order, once it is live.
   */
  #withActor(job: string, fn: (actor: JobActor) => Promise<void>, orElse?: () => void): void {
    const actors = this.#actors;
    if (!actors) return;
    const failed = (err: unknown) => this.deps.log.error('job actor message failed', { job, err: (err as Error).message });
    let waiting = this.#onTheirWay.get(job);
    if (!waiting) {
      const live = actors.touch(job);
      if (live) {
        fn(live).catch(failed);
        return;
      }
      const messages: ((actor: JobActor | undefined) => void)[] = (waiting = []);
      this.#onTheirWay.set(job, messages);
      actors.get(job).then(
        (actor) => {
          this.#onTheirWay.delete(job);
          for (const m of messages) m(actor);
        },
        (err: unknown) => {
          this.#onTheirWay.delete(job);
          this.deps.log.error('job actor activation failed', { job, err: (err as Error).message, messages: messages.length });
        },
      );
    }
    waiting.push((actor) => {
      try {
        if (actor) fn(actor).catch(failed);
        else orElse?.();
      } catch (err) {
        failed(err);
      }
    });
  }

  // ---- RunDeps ------------------------------------------------------------------------------

  packagesFor(job: Job): Promise<PackageSpec[]> {
    return this.installs.packagesFor(job);
  }

  drainsChanged(job: Job): void {
    this.options.drainsChanged?.(job);
  }

  egressChanged(job: Job): void {
    this.options.egressChanged?.(job);
  }

  jobDeleted(job: string): void {
    this.options.jobDeleted?.(job);
    this.logStore.drop(job).catch((err: unknown) => this.deps.log.warn('log of a deleted job not dropped', { job, err: (err as Error).message }));
  }

  runEnded(record: InstanceRecord): void {
    this.#runs?.runEnded(record);
  }

  environmentFor(job: Job): Record<string, string> {
    return this.options.environmentFor?.(job) ?? {};
  }

  filesFor(job: Job): PlatformFile[] {
    return this.options.filesFor?.(job) ?? [];
  }

  endpointsFor(job: Job): string[] {
    return this.options.endpointsFor?.(job) ?? [];
  }

  linksFor(job: Job): LinkSpec[] {
    return this.options.linksFor?.(job) ?? [];
  }

  addressFor(job: Job, instance: string): { address?: { uuid: string; address: string }; reason?: string } {
    return this.options.addressFor?.(job, instance) ?? {};
  }

  networkFor(job: Job, record: InstanceRecord): NetworkSpec | undefined {
    return this.options.networkFor?.(job, record);
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
      const orphanRun = record?.run !== undefined && this.#runs?.packageOf(uuid) === undefined;
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
      const runPackage = this.#runs?.packageOf(record.uuid);
      if (runPackage !== undefined && this.options.stagingSink) {
        this.options.stagingSink(runPackage, line.stream === 'stderr' ? 'stderr' : 'stdout', line.text ?? '');
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
