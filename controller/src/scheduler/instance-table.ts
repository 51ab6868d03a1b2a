import type { Resource } from '../model/job.js';
import type { InstanceRecord } from '../model/instance.js';

/**
 * Every instance record of the cluster, in memory (loaded at start). The scheduler reads
 * it to know what each agent has provisioned; JobActors change it, each only for its own
 * job, and persist what they change. Single-threaded: a placement reserves its resources
 * synchronously, so two actors placing at once cannot both take the last free memory.
 */
export class InstanceTable {
  readonly #byUuid = new Map<string, InstanceRecord>();
  readonly #byJob = new Map<string, Map<string, InstanceRecord>>();
  readonly #byAgent = new Map<string, Map<string, InstanceRecord>>();
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
    this.#byUuid.set(record.uuid, record);
    mapOf(this.#byJob, record.job_uuid).set(record.uuid, record);
    mapOf(this.#byAgent, record.agent_uuid).set(record.uuid, record);
    for (const w of this.#watchers) w(record, record.uuid);
  }

  delete(uuid: string): void {
    const old = this.#byUuid.get(uuid);
    if (!old) return;
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

  /** Resources held on `agent` by its instances that are not REMOVED. */
  provisioned(agent: string): Resource {
    const sum: Resource = { cpu: 0, memory: 0, disk: 0, network: 0, netmax: 0 };
    for (const i of this.#byAgent.get(agent)?.values() ?? []) {
      if (i.state === 'REMOVED') continue;
      sum.cpu += i.resources.cpu;
      sum.memory += i.resources.memory;
      sum.disk += i.resources.disk;
      sum.network += i.resources.network;
      sum.netmax += i.resources.netmax;
    }
    return sum;
  }

  /** Live (not REMOVED) instances of `job` on `agent`. */
  liveOfJobOn(job: string, agent: string): number {
    let n = 0;
    for (const i of this.#byJob.get(job)?.values() ?? []) if (i.agent_uuid === agent && i.state !== 'REMOVED') n++;
    return n;
  }
}

function mapOf<K, V>(outer: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let inner = outer.get(key);
  if (!inner) outer.set(key, (inner = new Map()));
  return inner;
}
