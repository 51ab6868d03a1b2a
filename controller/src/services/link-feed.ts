/**
 * Links between jobs, on the controller's side: what an instance of a linking job is told
 * (LinkSpec, with its InstanceSpec), and the LinkTargets messages that keep the agents' link
 * listeners (agent/src/links/) following the target jobs' RUNNING instances.
 *
 *   linksFor(job)            the LinkSpecs of an instance about to start (RunDeps.linksFor)
 *   instanceChanged(record)  InstanceTable.watch: a target's instance changed -> the new address
 *                            list goes to every agent running an instance that links to it; a
 *                            linking instance changed (placed, re-reported after a reconnect)
 *                            -> its agent gets the current lists of its targets
 *
 * The links of each job are remembered from linksFor; a job not seen since this controller
 * started is looked up once when one of its instances reports.
 */
import type { LinkSpec } from '@platform/proto';
import type { Logger } from '@platform/proto/common';
import type { AgentDirectory } from '../agents/agent-directory.js';
import { RUNNING_STATES, type InstanceRecord } from '../model/instance.js';
import type { Job } from '../model/job.js';
import type { InstanceTable } from '../scheduler/instance-table.js';

const key = (job: string, port: number) => `${job}:${port}`;

export class LinkFeed {
  /** Each job's links (empty: none), as last seen. */
  readonly #links = new Map<string, LinkSpec[]>();
  /**
   * The jobs that link to each target job (from #links): an instance change looks up only the
   * jobs linking to its own job (going over every job cost a cluster of 1,000 started jobs 5% of
   * the controller's CPU during placement; bench:scale).
   */
  readonly #linkers = new Map<string, Set<string>>();
  /** Jobs being looked up. */
  readonly #pending = new Set<string>();
  /** The address list last computed for each target (`job:port`). */
  readonly #last = new Map<string, string>();

  constructor(
    private readonly table: InstanceTable,
    private readonly agents: Pick<AgentDirectory, 'send'>,
    private readonly findJob: (uuid: string) => Promise<Job | undefined>,
    private readonly log: Logger,
  ) {}

  /** The links of an instance of `job`, with where their targets run now. */
  linksFor(job: Job): LinkSpec[] {
    const links: LinkSpec[] = [];
    for (const b of Object.values(job.bindings)) {
      if (!b.target_job_uuid) continue;
      const port = Number(b.target_job_port ?? 0);
      links.push({
        bindingUuid: b.uuid ?? '',
        envVars: b.env_var ?? [],
        targetJobUuid: b.target_job_uuid,
        targetPort: port,
        boundIp: b.target_job_bound_ip ?? '',
        boundPort: Number(b.target_job_bound_port ?? 0),
        addresses: this.#addresses(b.target_job_uuid, port),
      });
    }
    this.#setLinks(job.uuid, links);
    return links;
  }

  #setLinks(job: string, links: LinkSpec[]): void {
    for (const old of this.#links.get(job) ?? []) {
      const linkers = this.#linkers.get(old.targetJobUuid ?? '');
      linkers?.delete(job);
      if (linkers?.size === 0) this.#linkers.delete(old.targetJobUuid ?? '');
    }
    this.#links.set(job, links);
    for (const link of links) {
      const target = link.targetJobUuid ?? '';
      let linkers = this.#linkers.get(target);
      if (!linkers) this.#linkers.set(target, (linkers = new Set()));
      linkers.add(job);
    }
  }

  /** RUNNING instances of `job` (not being stopped) and where they serve `port`, sorted. */
  #addresses(job: string, port: number): string[] {
    return this.table
      .ofJob(job)
      .filter((i) => RUNNING_STATES.has(i.state) && i.stop === undefined && i.run === undefined)
      .map((i) => i.ports[String(port)])
      .filter((a): a is string => !!a)
      .sort();
  }

  instanceChanged(record: InstanceRecord | undefined): void {
    if (!record) return;
    this.#targetChanged(record.job_uuid);
    this.#linkerChanged(record);
  }

  /** Sends the new address lists of `target`'s linked ports to the agents of the jobs linking to it. */
  #targetChanged(target: string): void {
    for (const job of this.#linkers.get(target) ?? []) {
      for (const link of this.#links.get(job) ?? []) {
        if (link.targetJobUuid !== target) continue;
        const port = link.targetPort ?? 0;
        const addresses = this.#addresses(target, port);
        const k = key(target, port);
        const text = addresses.join(',');
        if (this.#last.get(`${job}>${k}`) === text) continue;
        this.#last.set(`${job}>${k}`, text);
        for (const agent of this.#agentsOf(job)) this.agents.send(agent, { linkTargets: { targetJobUuid: target, targetPort: port, addresses } });
        this.log.debug('link targets changed', { job, target: k, addresses });
      }
    }
  }

  /** An instance of a linking job changed: its agent gets its targets' addresses now. */
  #linkerChanged(record: InstanceRecord): void {
    if (record.state === 'REMOVED' || record.run) return;
    const links = this.#links.get(record.job_uuid);
    if (links === undefined) {
      if (this.#pending.has(record.job_uuid)) return;
      this.#pending.add(record.job_uuid);
      this.findJob(record.job_uuid)
        .then((job) => {
          if (job && !this.#links.has(job.uuid)) this.linksFor(job);
          const current = this.table.get(record.uuid);
          if (current) this.#send(current);
        })
        .catch((err: unknown) => this.log.warn('the links of a job could not be read', { job: record.job_uuid, err: (err as Error).message }))
        .finally(() => this.#pending.delete(record.job_uuid));
      return;
    }
    this.#send(record);
  }

  #send(record: InstanceRecord): void {
    for (const link of this.#links.get(record.job_uuid) ?? []) {
      const port = link.targetPort ?? 0;
      this.agents.send(record.agent_uuid, { linkTargets: { targetJobUuid: link.targetJobUuid ?? '', targetPort: port, addresses: this.#addresses(link.targetJobUuid ?? '', port) } });
    }
  }

  /** The agents running a live instance of `job`. */
  #agentsOf(job: string): Set<string> {
    return new Set(this.table.ofJob(job).filter((i) => i.state !== 'REMOVED').map((i) => i.agent_uuid));
  }
}
