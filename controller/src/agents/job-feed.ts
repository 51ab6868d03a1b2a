/**
 * JobFeed: what the agents are told of a job besides its instances' specs (its log drains,
 * logs/drain-feed.ts; its outbound openings, networks/egress-feed.ts), kept true without
 * restarting instances (neither is part of the run shape, scheduler/reconciler.ts runHash).
 *
 *   jobChanged(job)          at each reconcile: the job's message changed (or is first seen
 *                            since this controller started: the agents may know an older one) ->
 *                            it goes to every agent holding a live instance of the job, empty too
 *   instanceChanged(record)  InstanceTable.watch: a live instance (re-)reported -> its agent gets
 *                            the job's message when it tells anything (an agent that restarted
 *                            knows nothing); a job not seen yet is read first, once at a time
 *
 * An instance that starts has the same in its InstanceSpec.
 */
import type { LogFields, Logger } from '@platform/proto/common';
import type { InstanceRecord } from '../model/instance.js';
import type { Job } from '../model/job.js';

/** The instances the feed looks at (scheduler/instance-table.ts). */
export interface FeedInstances {
  get(uuid: string): InstanceRecord | undefined;
  ofJob(job: string): InstanceRecord[];
}

export abstract class JobFeed<M> {
  /** Each job's message as last seen, and its text. */
  readonly #known = new Map<string, { message: M; text: string }>();
  readonly #pending = new Set<string>();

  constructor(
    protected readonly table: FeedInstances,
    protected readonly findJob: (uuid: string) => Promise<Job | undefined>,
    protected readonly log: Logger,
    /** What the messages tell, for the log: `log drains`, `outbound openings`. */
    private readonly what: string,
  ) {}

  /** The job's message now. */
  protected abstract messageOf(job: Job): M;
  /** Sends `message` to `agent`. */
  protected abstract send(agent: string, message: M): void;
  /** Whether `message` tells an agent anything (an agent knows nothing by default). */
  protected abstract tells(message: M): boolean;
  /** The figures of a changed message, for its log line. */
  protected abstract summary(message: M): LogFields;

  /** The message to send again for job `job`, last seen as `known` (default: as it was). */
  protected again(_job: string, known: M): M {
    return known;
  }

  /** The job's message as last seen, if it was. */
  protected known(job: string): M | undefined {
    return this.#known.get(job)?.message;
  }

  /** Records `message` as the job's last seen. */
  protected remember(job: string, message: M): void {
    this.#known.set(job, { message, text: JSON.stringify(message) });
  }

  jobChanged(job: Job): void {
    const message = this.messageOf(job);
    const text = JSON.stringify(message);
    const known = this.#known.get(job.uuid);
    this.#known.set(job.uuid, { message, text });
    if (known?.text === text) return;
    const agents = this.liveAgents(job.uuid);
    for (const agent of agents) this.send(agent, message);
    if (known) this.log.info(`${this.what} changed`, { job: job.uuid, ...this.summary(message), agents: agents.length });
  }

  jobDeleted(job: string): void {
    this.#known.delete(job);
  }

  instanceChanged(record: InstanceRecord | undefined): void {
    if (!record || record.state === 'REMOVED' || record.run !== undefined || record.stop !== undefined) return;
    const known = this.#known.get(record.job_uuid);
    if (known) {
      this.#tell(record.agent_uuid, this.again(record.job_uuid, known.message));
      return;
    }
    if (this.#pending.has(record.job_uuid)) return;
    this.#pending.add(record.job_uuid);
    this.findJob(record.job_uuid)
      .then((job) => {
        if (!job) return;
        if (!this.#known.has(job.uuid)) this.jobChanged(job);
        const current = this.table.get(record.uuid);
        if (current && current.state !== 'REMOVED') this.#tell(current.agent_uuid, this.again(job.uuid, this.#known.get(job.uuid)!.message));
      })
      .catch((err: unknown) => this.log.warn(`the ${this.what} of a job could not be read`, { job: record.job_uuid, err: (err as Error).message }))
      .finally(() => this.#pending.delete(record.job_uuid));
  }

  /** The agents holding a live instance of the job, each once. */
  protected liveAgents(job: string): string[] {
    return [...new Set(this.table.ofJob(job).filter((i) => i.state !== 'REMOVED' && i.run === undefined).map((i) => i.agent_uuid))];
  }

  #tell(agent: string, message: M): void {
    if (this.tells(message)) this.send(agent, message);
  }
}
