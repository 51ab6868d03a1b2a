/**
 * Quotas, enforced: the use of every namespace against the quotas policy sets on it
 * (`PolicyEngine.quotasFor`; what each quota limits is in policy/quotas.ts).
 *
 * Use is that of the started jobs: a job counts num_instances x its resources from the moment
 * it is written `started` until it is written otherwise (stopped, errored, finished, deleted).
 * The ledger follows every job as written (`jobChanged`, told by the job's actor), and every
 * change that may raise use is admitted first (`admit`, from inside the actor, before the
 * write):
 *
 *   admit(current, next) ──▶ over a quota? ──yes──▶ ForbiddenError 403 (nothing written)
 *                               │ no
 *                               ▼
 *                 reserve what `next` adds (pending) ──▶ write ──▶ jobChanged ──▶ release
 *
 * Admission is synchronous and counts the reservations of changes still being written, so
 * concurrent requests (several jobs, several namespaces, any path: POST, PUT, PATCH, manifests,
 * the autoscaler) cannot overshoot a quota together. A change that does not raise a figure is
 * never refused for it, also when the namespace is over its quota already (a quota made smaller
 * than what runs): lowering use, stopping and deleting always work.
 */
import { ForbiddenError } from '../errors.js';
import type { JobQuotas, QuotaHold } from '../jobs/job-quotas.js';
import type { Job } from '../model/job.js';
import type { PolicyEngine, QuotaLimit } from '../policy/engine.js';
import { formatQuotaAmount, quotaKind, quotaMeasure, type QuotaMeasure, type QuotaName } from '../policy/quotas.js';

/** What a started job uses: instances, and the resources of each instance. */
interface JobUse {
  namespace: string;
  instances: number;
  memory: number;
  disk: number;
  cpu: number;
  network: number;
}

/** A quota with what is in use against it, as GET /quotas shows it. */
export interface QuotaUsage {
  name: QuotaName;
  /** The namespace the quota limits. */
  namespace: string;
  /** The realm that sets it, as written. */
  realm: string;
  /** In the quota's unit: bytes, bits per second, ms/s, instances. */
  limit: number;
  limit_text: string;
  /** `total.*`: the sum over the started jobs of the namespace; `max.*`: the largest job's figure. */
  in_use: number;
  unit: 'bytes' | 'bps' | 'ms/s' | 'instances';
}

const UNITS: Record<QuotaMeasure, QuotaUsage['unit']> = { memory: 'bytes', disk: 'bytes', network: 'bps', cpu: 'ms/s', instances: 'instances' };

/** The namespace of a job FQN (`job::/a/b::x` -> `/a/b`). */
function namespaceOf(fqn: string): string {
  return fqn.split('::')[1] ?? '/';
}

/** Whether namespace `ns` lies in `scope` (itself or below it). */
function within(ns: string, scope: string): boolean {
  return scope === '/' || ns === scope || ns.startsWith(`${scope}/`);
}

function useOf(job: Job): JobUse {
  const r = job.resources;
  return { namespace: namespaceOf(job.fqn), instances: job.num_instances, memory: r.memory, disk: r.disk, cpu: r.cpu, network: r.network };
}

/** A job's share of a `total.*` figure. */
function totalOf(use: JobUse | undefined, m: QuotaMeasure): number {
  if (!use) return 0;
  return m === 'instances' ? use.instances : use.instances * use[m];
}

/** A job's `max.*` figure: its num_instances, or the resources of one instance. */
function maxOf(use: JobUse, m: QuotaMeasure): number {
  return m === 'instances' ? use.instances : use[m];
}

export class QuotaService implements JobQuotas {
  /** The started jobs as written. */
  readonly #jobs = new Map<string, JobUse>();
  /** What admitted changes add while they are written. */
  readonly #pending = new Set<JobUse>();
  /** Jobs whose autoscaling is held at a quota: why. */
  readonly #notes = new Map<string, string>();

  constructor(private readonly policy: { readonly engine: PolicyEngine }) {}

  admit(current: Job | undefined, next: Job): QuotaHold | undefined {
    if (next.state !== 'started') return undefined;
    const after = useOf(next);
    const limits = this.policy.engine.quotasFor(after.namespace);
    if (limits.length === 0) return undefined;
    const before = current?.state === 'started' ? this.#jobs.get(next.uuid) : undefined;
    for (const limit of limits) this.#check(limit, before, after);
    // What the change adds to each total (a reservation holds totals, not per-instance figures).
    const added: JobUse = { namespace: after.namespace, instances: 0, memory: 0, disk: 0, cpu: 0, network: 0 };
    let any = false;
    for (const m of ['instances', 'memory', 'disk', 'cpu', 'network'] as const) {
      const more = totalOf(after, m) - totalOf(before, m);
      if (more > 0) {
        added[m] = more;
        any = true;
      }
    }
    if (!any) return undefined;
    this.#pending.add(added);
    return { release: () => void this.#pending.delete(added) };
  }

  jobChanged(uuid: string, job: Job | undefined): void {
    if (job && job.state === 'started') this.#jobs.set(uuid, useOf(job));
    else this.#jobs.delete(uuid);
    if (!job || job.state !== 'started' || !job.autoscaling) this.#notes.delete(uuid);
  }

  note(uuid: string): string | undefined {
    return this.#notes.get(uuid);
  }

  /**
   * How far the autoscaler may take started job `job` towards `to` instances: `to` itself when
   * no quota stands in the way (or when it scales down), else the most the quotas leave room
   * for (never fewer than it runs now). A held job says why in its health until a later
   * decision is not held.
   */
  fitInstances(job: Job, to: number): { to: number; heldBy?: string } {
    if (job.state !== 'started' || to <= job.num_instances) {
      this.#notes.delete(job.uuid);
      return { to };
    }
    const use = this.#jobs.get(job.uuid) ?? useOf(job);
    let n = to;
    let heldBy: string | undefined;
    for (const limit of this.policy.engine.quotasFor(use.namespace)) {
      const m = quotaMeasure(limit.name);
      let cap: number;
      if (quotaKind(limit.name) === 'max') {
        if (m !== 'instances') continue;
        cap = limit.amount;
      } else {
        const per = m === 'instances' ? 1 : use[m];
        if (per === 0) continue;
        const others = this.#inUse(limit.scope, m) - totalOf(this.#jobs.get(job.uuid), m);
        cap = Math.floor((limit.amount - others) / per);
      }
      if (cap < n) {
        n = cap;
        const inUse = quotaKind(limit.name) === 'max' ? job.num_instances : this.#inUse(limit.scope, m);
        heldBy = `quota ${limit.name} of ${limit.scope} is ${formatQuotaAmount(limit.name, limit.amount)} (${limit.realm}), ${formatQuotaAmount(limit.name, inUse)} in use`;
      }
    }
    n = Math.max(n, job.num_instances);
    if (n >= to) {
      this.#notes.delete(job.uuid);
      return { to };
    }
    const note = `autoscaling held at ${n} instance${n === 1 ? '' : 's'} (it asks for ${to}): ${heldBy}`;
    this.#notes.set(job.uuid, note);
    return { to: n, heldBy: note };
  }

  /** Autoscaling of `uuid` was refused by a quota after all (a change in between took the room). */
  held(uuid: string, reason: string): void {
    this.#notes.set(uuid, `autoscaling held: ${reason}`);
  }

  /** The quotas that hold for jobs in `namespace`, with what is in use against each. */
  usage(namespace: string): QuotaUsage[] {
    return this.policy.engine.quotasFor(namespace).map((limit) => {
      const m = quotaMeasure(limit.name);
      return {
        name: limit.name,
        namespace: limit.scope,
        realm: limit.realm,
        limit: limit.amount,
        limit_text: limit.text,
        in_use: quotaKind(limit.name) === 'total' ? this.#inUse(limit.scope, m) : this.#largest(limit.scope, m),
        unit: UNITS[m],
      };
    });
  }

  /** The sum of figure `m` over the started jobs in `scope` and the changes being written there. */
  #inUse(scope: string, m: QuotaMeasure): number {
    let sum = 0;
    for (const use of this.#jobs.values()) if (within(use.namespace, scope)) sum += totalOf(use, m);
    // Reservations hold totals (see admit).
    for (const added of this.#pending) if (within(added.namespace, scope)) sum += added[m];
    return sum;
  }

  #largest(scope: string, m: QuotaMeasure): number {
    let most = 0;
    for (const use of this.#jobs.values()) if (within(use.namespace, scope)) most = Math.max(most, maxOf(use, m));
    return most;
  }

  /** Throws when `after` raises a figure of `limit` beyond it. */
  #check(limit: QuotaLimit, before: JobUse | undefined, after: JobUse): void {
    const m = quotaMeasure(limit.name);
    const where = `quota ${limit.name} of ${limit.scope} is ${formatQuotaAmount(limit.name, limit.amount)} (${limit.realm})`;
    const details = { quota: limit.name, namespace: limit.scope, realm: limit.realm, limit: limit.amount, limit_text: limit.text };
    // cpu 0 is uncapped: under a cpu quota it would escape it.
    if (m === 'cpu' && after.cpu === 0 && after.instances > 0 && !(before && before.cpu === 0)) {
      throw new ForbiddenError(`${where}: a job there needs a cpu resource (resources.cpu 0 is uncapped)`, [], {
        details: { ...details, in_use: this.#inUse(limit.scope, m), requested: 0 },
      });
    }
    if (quotaKind(limit.name) === 'max') {
      const value = maxOf(after, m);
      if (value <= limit.amount || (before && value <= maxOf(before, m))) return;
      const asked = m === 'instances' ? `this job asks for ${value} instances` : `an instance of this job asks for ${formatQuotaAmount(limit.name, value)}`;
      throw new ForbiddenError(`${where}: ${asked}`, [], { details: { ...details, in_use: before ? maxOf(before, m) : 0, requested: value } });
    }
    const add = totalOf(after, m) - totalOf(before, m);
    if (add <= 0) return;
    const inUse = this.#inUse(limit.scope, m);
    if (inUse + add <= limit.amount) return;
    throw new ForbiddenError(`${where}: ${formatQuotaAmount(limit.name, inUse)} is in use and this change needs ${formatQuotaAmount(limit.name, add)} more`, [], {
      details: { ...details, in_use: inUse, requested: add },
    });
  }
}
