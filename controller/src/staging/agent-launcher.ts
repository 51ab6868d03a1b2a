/**
 * The agents' stager launcher: a stager run is a one-off instance of the stager job, placed by
 * the scheduler on an agent like any instance (the local one, for a single host, is
 * local-launcher.ts). It follows the runs it started until their instance is REMOVED, and
 * tells the agents' reports (instances/agent-reports.ts) which instances are runs, so that a
 * run's output goes to the staged package's log.
 */
import type { PackageSpec } from '@platform/proto';
import type { ActorRegistry } from '../actors/actor-registry.js';
import type { AgentDirectory } from '../agents/agent-directory.js';
import type { Deps } from '../context.js';
import type { JobActor } from '../jobs/job-actor.js';
import type { InstanceRecord } from '../model/instance.js';
import { dependencyPrincipal, type Job } from '../model/job.js';
import type { InstanceTable } from '../scheduler/instance-table.js';
import { PlacementError } from '../scheduler/reconciler.js';
import type { StagerLaunch, StagerLauncher, StagerRun, StagerRunEnd, StagingLogSink } from './stager-launcher.js';

export interface AgentStagerLauncherOptions {
  /** Where the `[staging] Waiting for an instance manager` line goes. */
  stagingSink?: StagingLogSink;
  /** How long a stager run waits for an agent with room before it fails. Default 60 s. */
  placementWaitMs?: number;
}

interface ActiveRun {
  packageUuid: string;
  end: (end: StagerRunEnd) => void;
}

export class AgentStagerLauncher implements StagerLauncher {
  /** One-off runs (stagers) in progress, by instance uuid. */
  readonly #runs = new Map<string, ActiveRun>();

  constructor(
    private readonly deps: Pick<Deps, 'clock'>,
    private readonly actors: ActorRegistry<JobActor>,
    private readonly packages: {
      packagesFor(job: Job, extra: readonly string[]): Promise<PackageSpec[]>;
      packagesOf(uuids: readonly string[], principal: string): Promise<PackageSpec[]>;
    },
    private readonly agents: AgentDirectory,
    private readonly table: InstanceTable,
    private readonly options: AgentStagerLauncherOptions = {},
  ) {}

  async launch(request: StagerLaunch): Promise<StagerRun> {
    const actor = await this.actors.get(request.stagerJobUuid);
    if (!actor) throw new Error(`stager job ${request.stagerJobUuid} does not exist`);
    const packages = await this.packages.packagesFor(actor.job, request.extraPackageUuids);
    // Stager rule 3: the staged package's dependencies, again, under /stagerfs (resolved as the
    // stager job's own packages are, among those its principal may use).
    const stagerfs = request.extraPackageUuids.length > 0 ? await this.packages.packagesOf(request.extraPackageUuids, dependencyPrincipal(actor.job)) : [];
    let end!: (e: StagerRunEnd) => void;
    const ended = new Promise<StagerRunEnd>((resolve) => (end = resolve));
    const run = {
      id: request.runId,
      package: request.packageUuid,
      environment: request.environment,
      extraPackageUuids: request.extraPackageUuids,
      ...(request.environment['STAGER_URL'] ? { stagerUrl: request.environment['STAGER_URL'] } : {}),
      stagerfs,
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
      flushLogs: () => this.agents.flushLogs(record.agent_uuid, record.uuid),
    };
  }

  /** The package that the run in `instanceUuid` stages, while this launcher follows it. */
  packageOf(instanceUuid: string): string | undefined {
    return this.#runs.get(instanceUuid)?.packageUuid;
  }

  /** The run's instance is REMOVED: its launch's `ended` resolves. */
  runEnded(record: InstanceRecord): void {
    const run = this.#runs.get(record.uuid);
    if (!run) return;
    this.#runs.delete(record.uuid);
    run.end(runEndOf(record));
  }
}

function runEndOf(record: InstanceRecord): StagerRunEnd {
  return {
    failed: record.failed,
    ...(record.exited ? { exitCode: record.exit_code } : {}),
    ...(record.reason ? { reason: record.reason } : {}),
  };
}
