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
 * An instance that starts has them in its InstanceSpec. The bookkeeping is JobFeed's.
 */
import type { JobDrains } from '@platform/proto';
import type { Logger } from '@platform/proto/common';
import type { AgentDirectory } from '../agents/agent-directory.js';
import { JobFeed, type FeedInstances } from '../agents/job-feed.js';
import { drainSpecs } from '../model/drain.js';
import type { Job } from '../model/job.js';

export class DrainFeed extends JobFeed<JobDrains> {
  constructor(
    table: FeedInstances,
    private readonly agents: Pick<AgentDirectory, 'send'>,
    findJob: (uuid: string) => Promise<Job | undefined>,
    log: Logger,
  ) {
    super(table, findJob, log, 'log drains');
  }

  protected messageOf(job: Job): JobDrains {
    return { jobUuid: job.uuid, jobFqn: job.fqn, drains: drainSpecs(job.drains) };
  }

  protected send(agent: string, message: JobDrains): void {
    this.agents.send(agent, { jobDrains: message });
  }

  protected tells(message: JobDrains): boolean {
    return (message.drains?.length ?? 0) > 0;
  }

  protected summary(message: JobDrains) {
    return { drains: message.drains?.length ?? 0 };
  }
}
