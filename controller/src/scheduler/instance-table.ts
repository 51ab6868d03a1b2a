import type { Resource } from '../model/job.js';
import type { InstanceRecord } from '../model/instance.js';

/**
 * Every instance record of the cluster, in memory (loaded at start). The scheduler reads
 * it to know what each agent has provisioned; JobActors change it, each only for its own
 * job, and persist what they change. Single-threaded: a placement reserves its resources
 * synchronously, so two actors placing at once cannot both take the last free memory.
 *
 * What each agent has provisioned, and how many live instances of each job it holds, are kept
 * as running sums, changed by every put and delete: a placement reads them for every connected
 * agent, and summing an agent's records each time made a placement cost the size of the cluster
 * (with 1,000 agents holding 10,000 instances, a fifth of the controller's CPU; bench:scale).
 */
const NONE: Readonly<Resource> = Object.freeze({ cpu: 0, memory: 0, disk: 0, network: 0, netmax: 0 });

export class InstanceTable {
  readonly #byUuid = new Map<string, InstanceRecord>();
  readonly #byJob = new Map<string, Map<string, InstanceRecord>>();
  readonly #byAgent = new Map<string, Map<string, InstanceRecord>>();
  /** Per agent: how many live (not REMOVED) instances it holds, and their resources. */
  readonly #provisioned = new Map<string, { live: number; sum: Resource }>();
  /** Per job, per agent: how many of its live instances the agent holds. */
  readonly #liveOfJob = new Map<string, Map<string, number>>();
  readonly #watchers: ((record: InstanceRecord | undefined, uuid: string) => void)[] = [];

  /** Calls `fn` after every put (with the record) and delete (with undefined), synchronously. */
  watch(fn: (record: InstanceRecord | undefined, uuid: string) => void): void {
    this.#watchers.push(fn);
  }

  /** Every record. */
  all(): IterableIterator<InstanceRecord> {
    return this.#byUuid.values();
  }

  get size(): number {
    return this.#byUuid.size;
  }

  get(uuid: string): InstanceRecord | undefined {
    return this.#byUuid.get(uuid);
  }

  /** Adds or replaces a record (a new object per change: records are never mutated in place). */
  put(record: InstanceRecord): void {
    const old = this.#byUuid.get(record.uuid);
    if (old && old.agent_uuid !== record.agent_uuid) this.#byAgent.get(old.agent_uuid)?.delete(old.uuid);
    if (old) this.#count(old, -1);
    this.#count(record, 1);
    this.#byUuid.set(record.uuid, record);
    mapOf(this.#byJob, record.job_uuid).set(record.uuid, record);
    mapOf(this.#byAgent, record.agent_uuid).set(record.uuid, record);
    for (const w of this.#watchers) w(record, record.uuid);
  }

  /**
   * The record was reported again as it is (an agent re-attaching): nothing changes, and the
   * watchers hear it as after a put (what an agent that restarted must be told again).
   */
  reported(record: InstanceRecord): void {
    for (const w of this.#watchers) w(record, record.uuid);
  }

  delete(uuid: string): void {
    const old = this.#byUuid.get(uuid);
    if (!old) return;
    this.#count(old, -1);
    this.#byUuid.delete(uuid);
    this.#byJob.get(old.job_uuid)?.delete(uuid);
    this.#byAgent.get(old.agent_uuid)?.delete(uuid);
    for (const w of this.#watchers) w(undefined, uuid);
  }

  ofJob(job: string): InstanceRecord[] {
    return [...(this.#byJob.get(job)?.values() ?? [])];
  }

  ofAgent(agent: string): InstanceRecord[] {
    return [...(this.#byAgent.get(agent)?.values() ?? [])];
  }

  /** Jobs that have at least one instance (removed ones included). */
  jobs(): string[] {
    return [...this.#byJob.entries()].filter(([, m]) => m.size > 0).map(([job]) => job);
  }

  /**
   * Resources held on `agent` by its instances that are not REMOVED: the running sum itself, read
   * only (a copy for each of a thousand candidates of each placement was garbage to collect).
   */
  provisioned(agent: string): Readonly<Resource> {
    return this.#provisioned.get(agent)?.sum ?? NONE;
  }

  /** Live (not REMOVED) instances of `job` on `agent`. */
  liveOfJobOn(job: string, agent: string): number {
    return this.#liveOfJob.get(job)?.get(agent) ?? 0;
  }

  /** Adds (`sign` 1) or takes away (-1) a record's share of the running sums; REMOVED ones hold none. */
  #count(record: InstanceRecord, sign: 1 | -1): void {
    if (record.state === 'REMOVED') return;
    const agent = record.agent_uuid;
    let held = this.#provisioned.get(agent);
    if (!held) this.#provisioned.set(agent, (held = { live: 0, sum: { cpu: 0, memory: 0, disk: 0, network: 0, netmax: 0 } }));
    const { sum } = held;
    const r = record.resources;
    sum.cpu += sign * r.cpu;
    sum.memory += sign * r.memory;
    sum.disk += sign * r.disk;
    sum.network += sign * r.network;
    sum.netmax += sign * r.netmax;
    held.live += sign;
    // None left: forgotten, so that the sums start again from exact zeros.
    if (held.live === 0) this.#provisioned.delete(agent);
    const perAgent = mapOf(this.#liveOfJob, record.job_uuid);
    const n = (perAgent.get(agent) ?? 0) + sign;
    if (n > 0) perAgent.set(agent, n);
    else perAgent.delete(agent);
    if (perAgent.size === 0) this.#liveOfJob.delete(record.job_uuid);
  }
}

function mapOf<K, V>(outer: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let inner = outer.get(key);
  if (!inner) outer.set(key, (inner = new Map()));
  return inner;
}
