/**
 * DrainFeed: the agents send a job's log lines to its drains (agent/src/logs/drains.ts); this
 * keeps what they know of the drains true without restarting instances (a drain is not part of
 * the run shape, scheduler/reconciler.ts runHash).
 *
 *   jobChanged(job)          RunDeps.drainsChanged, at each reconcile: the drain list changed ->
 *                            JobDrains to every agent holding a live instance of the job
 *   instanceChanged(record)  InstanceTable.watch: a live instance (re-)reported -> its agent gets
 *                            the job's drains (an agent that restarted knows none)
 *
 * An instance that starts has them in its InstanceSpec.
 */
import type { JobDrains } from '@platform/proto';
import type { Logger } from '@platform/proto/common';
import type { AgentDirectory } from '../agents/agent-directory.js';
import { drainSpecs } from '../model/drain.js';
import type { InstanceRecord } from '../model/instance.js';
import type { Job } from '../model/job.js';
import type { InstanceTable } from '../scheduler/instance-table.js';

export class DrainFeed {
  /** Each job's drains as last seen (JobDrains), and their text. */
  readonly #known = new Map<string, { message: JobDrains; text: string }>();
  readonly #pending = new Set<string>();

  constructor(
    private readonly table: InstanceTable,
    private readonly agents: Pick<AgentDirectory, 'send'>,
    private readonly findJob: (uuid: string) => Promise<Job | undefined>,
    private readonly log: Logger,
  ) {}

  jobChanged(job: Job): void {
    const message: JobDrains = { jobUuid: job.uuid, jobFqn: job.fqn, drains: drainSpecs(job.drains) };
    const text = JSON.stringify(message);
    const known = this.#known.get(job.uuid);
    this.#known.set(job.uuid, { message, text });
    // First seen since this controller started: the agents may know an older list, so they are told.
    if (known?.text === text) return;
    const agents = new Set(this.#live(job.uuid).map((i) => i.agent_uuid));
    for (const agent of agents) this.agents.send(agent, { jobDrains: message });
    if (known) this.log.info('log drains changed', { job: job.uuid, drains: job.drains.length, agents: agents.size });
  }

  jobDeleted(job: string): void {
    this.#known.delete(job);
  }

  instanceChanged(record: InstanceRecord | undefined): void {
    if (!record || record.state === 'REMOVED' || record.run !== undefined || record.stop !== undefined) return;
    const known = this.#known.get(record.job_uuid);
    if (known) {
      if (known.message.drains?.length) this.agents.send(record.agent_uuid, { jobDrains: known.message });
      return;
    }
    if (this.#pending.has(record.job_uuid)) return;
    this.#pending.add(record.job_uuid);
    this.findJob(record.job_uuid)
      .then((job) => {
        if (!job) return;
        if (!this.#known.has(job.uuid)) this.jobChanged(job);
        const current = this.table.get(record.uuid);
        const message = this.#known.get(job.uuid)!.message;
        if (current && current.state !== 'REMOVED' && message.drains?.length) this.agents.send(current.agent_uuid, { jobDrains: message });
      })
      .catch((err: unknown) => this.log.warn('the log drains of a job could not be read', { job: record.job_uuid, err: (err as Error).message }))
      .finally(() => this.#pending.delete(record.job_uuid));
  }

  #live(job: string): InstanceRecord[] {
    return this.table.ofJob(job).filter((i) => i.state !== 'REMOVED' && i.run === undefined);
  }
}
