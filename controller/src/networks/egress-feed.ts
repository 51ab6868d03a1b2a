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
 * An instance that starts has them in its InstanceSpec (egress, endpoints). The bookkeeping is
 * JobFeed's; an instance (re-)reported gets the back-ends as they are now.
 */
import type { JobEgress } from '@platform/proto';
import type { Logger } from '@platform/proto/common';
import type { AgentDirectory } from '../agents/agent-directory.js';
import { JobFeed, type FeedInstances } from '../agents/job-feed.js';
import type { Job } from '../model/job.js';
import { egressRules } from '../model/outbound.js';

/** How long reach() waits for an agent to say the openings are in place. */
const APPLY_TIMEOUT_MS = 5_000;

export class EgressFeed extends JobFeed<JobEgress> {
  constructor(
    table: FeedInstances,
    private readonly agents: Pick<AgentDirectory, 'send' | 'applyEgress'>,
    findJob: (uuid: string) => Promise<Job | undefined>,
    log: Logger,
    /** What a job's instances reach besides their rules ("host:port": a gateway's back-ends). */
    private readonly endpointsOf: (job: string) => string[] = () => [],
  ) {
    super(table, findJob, log, 'outbound openings');
  }

  protected messageOf(job: Job): JobEgress {
    return { jobUuid: job.uuid, rules: egressRules(job), endpoints: this.endpointsOf(job.uuid) };
  }

  protected override again(job: string, known: JobEgress): JobEgress {
    return { jobUuid: job, rules: known.rules ?? [], endpoints: this.endpointsOf(job) };
  }

  protected send(agent: string, message: JobEgress): void {
    this.agents.send(agent, { jobEgress: message });
  }

  protected tells(message: JobEgress): boolean {
    return (message.rules?.length ?? 0) > 0 || (message.endpoints?.length ?? 0) > 0;
  }

  protected summary(message: JobEgress) {
    return { rules: message.rules?.length ?? 0, endpoints: message.endpoints?.length ?? 0 };
  }

  /**
   * What job `job` reaches besides its rules changed (endpointsOf answers anew): every agent
   * holding a live instance of it is told, and this resolves once each said the openings are in
   * place, or did not say so within a few seconds (logged). Never rejects.
   */
  async reach(job: string): Promise<void> {
    let rules = this.known(job)?.rules;
    if (!rules) {
      const found = await this.findJob(job).catch(() => undefined);
      if (!found) return;
      rules = egressRules(found);
    }
    const message = this.again(job, { jobUuid: job, rules });
    this.remember(job, message);
    const agents = this.liveAgents(job);
    const applied = await Promise.all(agents.map((agent) => this.agents.applyEgress(agent, message, APPLY_TIMEOUT_MS)));
    const silent = agents.filter((_, i) => !applied[i]);
    if (silent.length > 0) this.log.warn('agents did not say the openings of a job are in place', { job, agents: silent, endpoints: message.endpoints });
  }
}
