/**
 * EgressFeed: the agents open to a job's instances what its bindings to the outbound network
 * service say (model/outbound.ts), and, for a gateway job, the back-ends its providers name
 * (services/catalog.ts gatewayEndpoints); this keeps what they know true without restarting
 * instances (neither is part of the run shape, scheduler/reconciler.ts runHash).
 *
 *   jobChanged(job)          RunDeps.egressChanged, at each reconcile: the openings changed ->
 *                            JobEgress to every agent holding a live instance of the job
 *   reach(job)               the catalog changed what a gateway job reaches (a provider is about
 *                            to be created, or is gone): JobEgress to those agents, resolved once
 *                            each said it is in place (or gave no answer in time)
 *   instanceChanged(record)  InstanceTable.watch: a live instance (re-)reported -> its agent gets
 *                            the job's openings (an agent that restarted knows none)
 *
 * An instance that starts has them in its InstanceSpec (egress, endpoints).
 */
import type { EgressRule, JobEgress } from '@platform/proto';
import type { Logger } from '@platform/proto/common';
import type { AgentDirectory } from '../agents/agent-directory.js';
import type { InstanceRecord } from '../model/instance.js';
import type { Job } from '../model/job.js';
import { egressRules } from '../model/outbound.js';
import type { InstanceTable } from '../scheduler/instance-table.js';

/** How long reach() waits for an agent to say the openings are in place. */
const APPLY_TIMEOUT_MS = 5_000;

export class EgressFeed {
  /** Each job's outbound rules as last seen, with the text of its last message. */
  readonly #known = new Map<string, { rules: EgressRule[]; text: string }>();
  readonly #pending = new Set<string>();

  constructor(
    private readonly table: InstanceTable,
    private readonly agents: Pick<AgentDirectory, 'send' | 'applyEgress'>,
    private readonly findJob: (uuid: string) => Promise<Job | undefined>,
    private readonly log: Logger,
    /** What a job's instances reach besides their rules ("host:port": a gateway's back-ends). */
    private readonly endpointsOf: (job: string) => string[] = () => [],
  ) {}

  #message(job: string, rules: EgressRule[]): JobEgress {
    return { jobUuid: job, rules, endpoints: this.endpointsOf(job) };
  }

  jobChanged(job: Job): void {
    const message = this.#message(job.uuid, egressRules(job));
    const text = JSON.stringify(message);
    const known = this.#known.get(job.uuid);
    this.#known.set(job.uuid, { rules: message.rules ?? [], text });
    // First seen since this controller started: the agents may know an older list, so they are told.
    if (known?.text === text) return;
    const agents = new Set(this.#live(job.uuid).map((i) => i.agent_uuid));
    for (const agent of agents) this.agents.send(agent, { jobEgress: message });
    if (known) this.log.info('outbound openings changed', { job: job.uuid, rules: message.rules?.length ?? 0, endpoints: message.endpoints?.length ?? 0, agents: agents.size });
  }

  /**
   * What job `job` reaches besides its rules changed (endpointsOf answers anew): every agent
   * holding a live instance of it is told, and this resolves once each said the openings are in
   * place, or did not say so within a few seconds (logged). Never rejects.
   */
  async reach(job: string): Promise<void> {
    let known = this.#known.get(job);
    if (!known) {
      const found = await this.findJob(job).catch(() => undefined);
      if (!found) return;
      known = { rules: egressRules(found), text: '' };
    }
    const message = this.#message(job, known.rules);
    this.#known.set(job, { rules: known.rules, text: JSON.stringify(message) });
    const agents = [...new Set(this.#live(job).map((i) => i.agent_uuid))];
    const applied = await Promise.all(agents.map((agent) => this.agents.applyEgress(agent, message, APPLY_TIMEOUT_MS)));
    const silent = agents.filter((_, i) => !applied[i]);
    if (silent.length > 0) this.log.warn('agents did not say the openings of a job are in place', { job, agents: silent, endpoints: message.endpoints });
  }

  jobDeleted(job: string): void {
    this.#known.delete(job);
  }

  instanceChanged(record: InstanceRecord | undefined): void {
    if (!record || record.state === 'REMOVED' || record.run !== undefined || record.stop !== undefined) return;
    const known = this.#known.get(record.job_uuid);
    if (known) {
      this.#tell(record.agent_uuid, this.#message(record.job_uuid, known.rules));
      return;
    }
    if (this.#pending.has(record.job_uuid)) return;
    this.#pending.add(record.job_uuid);
    this.findJob(record.job_uuid)
      .then((job) => {
        if (!job) return;
        if (!this.#known.has(job.uuid)) this.jobChanged(job);
        const current = this.table.get(record.uuid);
        if (current && current.state !== 'REMOVED') this.#tell(current.agent_uuid, this.#message(job.uuid, this.#known.get(job.uuid)!.rules));
      })
      .catch((err: unknown) => this.log.warn('the outbound openings of a job could not be read', { job: record.job_uuid, err: (err as Error).message }))
      .finally(() => this.#pending.delete(record.job_uuid));
  }

  /** Sends `message` to `agent` when it opens anything (an agent knows no openings by default). */
  #tell(agent: string, message: JobEgress): void {
    if (message.rules?.length || message.endpoints?.length) this.agents.send(agent, { jobEgress: message });
  }

  #live(job: string): InstanceRecord[] {
    return this.table.ofJob(job).filter((i) => i.state !== 'REMOVED' && i.run === undefined);
  }
}
