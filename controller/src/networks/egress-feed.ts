/**
 * EgressFeed: the agents open to a job's instances what its bindings to the outbound network
 * service say (model/outbound.ts); this keeps what they know true without restarting instances
 * (those bindings are not part of the run shape, scheduler/reconciler.ts runHash).
 *
 *   jobChanged(job)          RunDeps.egressChanged, at each reconcile: the openings changed ->
 *                            JobEgress to every agent holding a live instance of the job
 *   instanceChanged(record)  InstanceTable.watch: a live instance (re-)reported -> its agent gets
 *                            the job's openings (an agent that restarted knows none)
 *
 * An instance that starts has them in its InstanceSpec (egress).
 */
import type { JobEgress } from '@platform/proto';
import type { Logger } from '@platform/proto/common';
import type { AgentDirectory } from '../agents/agent-directory.js';
import type { InstanceRecord } from '../model/instance.js';
import type { Job } from '../model/job.js';
import { egressRules } from '../model/outbound.js';
import type { InstanceTable } from '../scheduler/instance-table.js';

export class EgressFeed {
  /** Each job's openings as last seen (JobEgress), and their text. */
  readonly #known = new Map<string, { message: JobEgress; text: string }>();
  readonly #pending = new Set<string>();

  constructor(
    private readonly table: InstanceTable,
    private readonly agents: Pick<AgentDirectory, 'send'>,
    private readonly findJob: (uuid: string) => Promise<Job | undefined>,
    private readonly log: Logger,
  ) {}

  jobChanged(job: Job): void {
    const message: JobEgress = { jobUuid: job.uuid, rules: egressRules(job) };
    const text = JSON.stringify(message);
    const known = this.#known.get(job.uuid);
    this.#known.set(job.uuid, { message, text });
    // First seen since this controller started: the agents may know an older list, so they are told.
    if (known?.text === text) return;
    const agents = new Set(this.#live(job.uuid).map((i) => i.agent_uuid));
    for (const agent of agents) this.agents.send(agent, { jobEgress: message });
    if (known) this.log.info('outbound openings changed', { job: job.uuid, rules: message.rules?.length ?? 0, agents: agents.size });
  }

  jobDeleted(job: string): void {
    this.#known.delete(job);
  }

  instanceChanged(record: InstanceRecord | undefined): void {
    if (!record || record.state === 'REMOVED' || record.run !== undefined || record.stop !== undefined) return;
    const known = this.#known.get(record.job_uuid);
    if (known) {
      if (known.message.rules?.length) this.agents.send(record.agent_uuid, { jobEgress: known.message });
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
        if (current && current.state !== 'REMOVED' && message.rules?.length) this.agents.send(current.agent_uuid, { jobEgress: message });
      })
      .catch((err: unknown) => this.log.warn('the outbound openings of a job could not be read', { job: record.job_uuid, err: (err as Error).message }))
      .finally(() => this.#pending.delete(record.job_uuid));
  }

  #live(job: string): InstanceRecord[] {
    return this.table.ofJob(job).filter((i) => i.state !== 'REMOVED' && i.run === undefined);
  }
}
