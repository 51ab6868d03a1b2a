/**
 * The job operations behind the API. Reads come from the live actor when there
 * is one and from the store otherwise (a read never activates an actor); every
 * change goes through the job's actor.
 */
import { destinationRefusal, type DestinationPolicy } from '@platform/proto/common';
import type { ActorRegistry } from '../actors/actor-registry.js';
import { EntityDirectory } from '../actors/entity-directory.js';
import type { ChangeContext, Deps } from '../context.js';
import { ConflictError, DuplicateError, InvalidRequestError, NotFoundError, RequiresRestartError } from '../errors.js';
import { fqnMatcher, parseFqn, type Fqn } from '../model/fqn.js';
import type { ReferenceCheck, ReferenceLookup } from '../policy/references.js';
import { readIndexPage } from '../store/index-page.js';
import { keys } from '../store/keys.js';
import { mayHaveMember } from '../store/stored-json.js';
import type { BatchOp } from '../store/store.js';
import { KeyedLock } from '../util/keyed-lock.js';
import { parseDrainUrl } from '../model/drain.js';
import { dependencyPrincipal, parseJobInput, parseMetricUrl, servedJob, specOf, type Job, type ParsedJobInput, type Port, type Route } from '../model/job.js';
import { jsonEqual } from '../util/json.js';
import { JobActor, linkIndexOps, tagIndexOps, type BindingChange, type NetworkChange, type UpdateResult } from './job-actor.js';
import { computeJobHealth } from './job-health.js';
import { shownJobState } from './job-state.js';
import type { RunDeps } from '../scheduler/reconciler.js';
import type { JobQuotas } from './job-quotas.js';
import type { JobSecrets } from './job-secrets.js';

/** Jobs whose actors restore() activates at once. */
const RESTORE_CONCURRENCY = 32;

export interface JobQuery {
  fqn?: Fqn;
  matchPartialFqn: boolean;
  name?: string;
  ids?: string[];
  /** Each entry `name` (tag present) or `name=value`. All must match. */
  tags?: string[];
  bindingFqn?: string;
  serviceFqn?: string;
  providerFqn?: string;
  packageId?: string;
  /** Page size; all when absent. */
  count?: number;
  /** 1-based page number. */
  page?: number;
  health: boolean;
  /** Policy: only jobs whose FQN this accepts are listed, before paging. */
  visible?: (fqn: string) => boolean;
}

/** The routes of a job about to be saved, as the router checked and completed them. */
export interface PreparedJobRoutes {
  ports: Port[];
  keys: string[];
  added: Route[];
  removed: Route[];
}

/**
 * What the router does for job changes (router/route-service.ts). Contract: `prepare` is pure
 * and throws InvalidRequestError on a bad route; `claim` runs `save` while no other job may
 * claim the same endpoints and throws ConflictError (before `save`) when another namespace
 * owns one; `jobChanged` is told of every saved version of a job (undefined: deleted).
 */
export interface JobRouteHooks {
  prepare(target: { fqn: string; name: string; tags: Record<string, string> }, ports: Port[], current?: { ports: Port[] }): PreparedJobRoutes;
  claim<T>(jobUuid: string | undefined, fqn: string, prepared: PreparedJobRoutes, save: () => Promise<T>): Promise<T>;
  jobChanged(uuid: string, job: Job | undefined): void;
  /** The policy realm whose `permit map` a caller needs to add `route`. */
  realmOf(route: Route): string;
}

/** Checks the caller may map a route: resolves, or throws ForbiddenError. */
export type MapCheck = (realm: string) => Promise<void>;

export interface JobServiceOptions {
  actorIdleMs: number;
  /** Jobs kept in the read cache. */
  cacheSize: number;
  /** The current state of each package named (`deleted` for those that are gone). */
  packageStates: (ids: readonly string[]) => Promise<Map<string, string>>;
  /**
   * The packages that a job's own packages depend on, resolved (staging's
   * dependency resolution): shown as `source: system` entries. Absent: none.
   */
  systemPackages?: (userPackageIds: readonly string[], principal: string) => Promise<{ uuid: string; state: string }[]>;
  onActivate?: () => void;
  onPassivate?: () => void;
  /** The scheduler's side: when given, started jobs run instances on agents. */
  run?: RunDeps;
  /** The router's side: when given, routes are checked, completed and followed. */
  routes?: JobRouteHooks;
  /**
   * The rules the addresses a job makes the platform reach must pass (--allowed-destinations):
   * its log drains (sent by the agents) and its http_metric urls (polled by the autoscaler).
   */
  destinations: { drains: DestinationPolicy; metrics: DestinationPolicy };
  /** Quotas (quotas/): when given, every change that raises a namespace's use is admitted first. */
  quotas?: JobQuotas;
  /**
   * Secrets (secrets/): held while a change that installs them is written (job-secrets.ts); their
   * current versions are stamped on the job's `secrets`, so that a new version rolls it.
   */
  secrets?: JobSecrets;
}

export class JobService {
  readonly #jobs: EntityDirectory<Job, JobActor>;
  readonly #fqnLocks = new KeyedLock();
  readonly #patchLocks = new KeyedLock();
  /** The JSON answer of GET /jobs/{uuid}, per job version and package states. */
  readonly #rendered = new WeakMap<Job, { states: string; json: string }>();

  constructor(
    private readonly deps: Deps,
    private readonly options: JobServiceOptions,
  ) {
    this.#jobs = new EntityDirectory<Job, JobActor>(deps, {
      kind: 'job',
      key: keys.job,
      makeActor: (job) => this.#watch(new JobActor(job, deps, options.run, options.quotas)),
      recordOf: (actor) => actor.job,
      actorIdleMs: options.actorIdleMs,
      cacheSize: options.cacheSize,
      ...(options.onActivate ? { onActivate: options.onActivate } : {}),
      ...(options.onPassivate ? { onPassivate: options.onPassivate } : {}),
    });
  }

  /** Keeps the read cache in step with changes an actor makes on its own (errored, finished). */
  #watch(actor: JobActor): JobActor {
    actor.onSystemChange = (job) => {
      this.#jobs.remember(job.uuid, job);
      this.options.routes?.jobChanged(job.uuid, job);
    };
    return actor;
  }

  /**
   * Checks and completes the routes of `parsed` (400), checks the caller may map each route it
   * adds (403), then runs `save` holding the routes' endpoints (409 when another namespace has one).
   */
  async #withRoutes<T>(parsed: ParsedJobInput, current: Job | undefined, mayMap: MapCheck | undefined, save: () => Promise<T>): Promise<T> {
    const routes = this.options.routes;
    if (!routes) return save();
    const prepared = routes.prepare({ fqn: parsed.fqn, name: parsed.localName, tags: parsed.spec.tags }, parsed.spec.ports, current);
    parsed.spec.ports = prepared.ports;
    if (mayMap) for (const route of prepared.added) await mayMap(routes.realmOf(route));
    return routes.claim(current?.uuid, parsed.fqn, prepared, save);
  }

  get actors(): ActorRegistry<JobActor> {
    return this.#jobs.actors;
  }

  /**
   * Activates the actors of jobs that have work to do: started jobs, and jobs with instances
   * still on agents (`alsoJobs`). Each reconciles once, which holds it in memory. `read`: the
   * started jobs taken while the term's start read the jobs for another purpose (the routes),
   * so that they are not read again; used once the indexes are built (else every job is read).
   */
  async restore(alsoJobs: readonly string[] = [], read?: StartedJobs): Promise<number> {
    const ids = new Set(alsoJobs);
    // The tag index arrived after the first data directories: build it once.
    const tagsIndexed = (await this.deps.store.get(keys.meta('job-tag-index'))) !== undefined;
    // So did the link index (target -> linking jobs).
    const linksIndexed = (await this.deps.store.get(keys.meta('job-link-index'))) !== undefined;
    if (tagsIndexed && linksIndexed && read) {
      for (const job of read.jobs) {
        this.#restoring(ids, job);
        // Its actor starts from this record instead of reading it again.
        this.#jobs.remember(job.uuid, job);
      }
    } else {
      await this.#readStored(ids, tagsIndexed, linksIndexed);
    }
    let restored = 0;
    // Several at a time: an activation whose job is not in the cache (given by `read`) reads it
    // from the store, and one after the other they waited for etcd a round trip each (seconds
    // for 1,000 started jobs on a busy host).
    const queue = [...ids];
    const activate = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const actor = await this.actors.get(id);
        if (!actor) continue;
        restored++;
        if (this.options.run) void actor.reconcile().catch((err: unknown) => this.deps.log.error('job reconcile failed', { job: id, err: (err as Error).message }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(RESTORE_CONCURRENCY, queue.length) }, activate));
    this.actors.start();
    return restored;
  }

  /** A started job restore() activates: its quota use counted. */
  #restoring(ids: Set<string>, job: Job): void {
    ids.add(job.uuid);
    this.options.quotas?.jobChanged(job.uuid, job);
  }

  /** Reads every stored job for restore(): the started ones, and the indexes not built yet. */
  async #readStored(ids: Set<string>, tagsIndexed: boolean, linksIndexed: boolean): Promise<void> {
    let indexOps: BatchOp[] = [];
    const indexed = tagsIndexed && linksIndexed;
    for await (const [, value] of this.deps.store.iterate({ prefix: keys.jobPrefix })) {
      // Only the started jobs matter here once the indexes are built: the others are not parsed
      // (with 100,000 jobs, parsing each was a third of a restart; store/stored-json.ts).
      if (indexed && !mayHaveMember(value, 'state', '"started"')) continue;
      const job = JSON.parse(value) as Job;
      if (job.state === 'started') this.#restoring(ids, job);
      if (!tagsIndexed) indexOps.push(...tagIndexOps(job.uuid, job.fqn, undefined, job.tags ?? {}));
      if (!linksIndexed) indexOps.push(...linkIndexOps(job.uuid, undefined, job.bindings ?? {}));
      if (indexOps.length > 10_000) {
        await this.deps.store.batch(indexOps);
        indexOps = [];
      }
    }
    const marks: BatchOp[] = [
      ...(tagsIndexed ? [] : [{ type: 'put', key: keys.meta('job-tag-index'), value: '1' } as const]),
      ...(linksIndexed ? [] : [{ type: 'put', key: keys.meta('job-link-index'), value: '1' } as const]),
    ];
    if (marks.length > 0) await this.deps.store.batch([...indexOps, ...marks]);
  }

  /**
   * The started jobs, from memory: a started job's actor holds itself live (restore() activates
   * those of the store), so this costs the started jobs, not every job of the store.
   */
  startedJobs(): Job[] {
    const started: Job[] = [];
    for (const actor of this.actors.live()) if (actor.job.state === 'started') started.push(actor.job);
    return started;
  }

  /** DELETE /jobs/{uuid}/instances/{instance}. */
  async stopInstance(job: string, instance: string, ctx: ChangeContext): Promise<void> {
    const done = await this.actors.with(job, (actor) => actor.stopInstance(instance, ctx));
    if (done === undefined && !(await this.find(job))) throw new NotFoundError(`job ${job} not found`);
  }

  #health(job: Job): ReturnType<typeof computeJobHealth> {
    const instances = this.options.run?.table.ofJob(job.uuid).filter((i) => i.state !== 'REMOVED') ?? [];
    const actor = this.actors.peek(job.uuid);
    const health = computeJobHealth(job, instances, actor?.flapping ?? false);
    const message = [actor?.message, this.options.quotas?.note?.(job.uuid)].filter((m) => m).join('; ');
    return message ? { ...health, message } : health;
  }

  /** The job's packages, each one the caller may `use` (policy/references.ts). */
  async #checkPackages(parsed: ParsedJobInput, refs: ReferenceCheck): Promise<void> {
    await refs.resolve(parsed.spec.packages.map((p) => ({ type: 'package', uuid: p.uuid, permission: 'use', field: 'packages' })));
  }

  /**
   * The addresses `parsed` makes the platform reach, judged by the destination rules (400
   * naming the field and the address): its drains' hosts and its http_metric urls polled as
   * written (a `$INSTANCE` url reaches the job's own instances). Names are resolved now and each
   * address judged; a name that does not resolve now is accepted with a warning (DNS may come
   * later). Judged again at each connection (the agents' drains, the autoscaler's polls), so a
   * name that resolves elsewhere later gains nothing. `current`: what a change of it keeps is
   * not judged again (a job is not stuck on a drain that a stricter rule refuses now: the
   * connections are refused instead).
   */
  async checkDestinations(parsed: ParsedJobInput, current?: Job): Promise<void> {
    const judge = async (rule: DestinationPolicy, host: string, port: number, field: string, url: string) => {
      try {
        await rule.check(host, port, { timeoutMs: 5_000 });
      } catch (err) {
        const refused = destinationRefusal(err);
        if (refused) throw new InvalidRequestError(`${field}: ${refused.message}`, { details: { address: refused.address, port: refused.port, refusal: refused.reason } });
        this.deps.log.warn('a host of a job does not resolve now; accepted (judged again at each connection)', { job: parsed.fqn, field, url, err: (err as Error).message });
      }
    };
    for (const [i, drain] of parsed.spec.drains.entries()) {
      if (current?.drains.some((d) => d.url === drain.url)) continue;
      const target = parseDrainUrl(drain.url);
      if (!('error' in target)) await judge(this.options.destinations.drains, target.host, target.port, `drains[${i}].url`, drain.url);
    }
    for (const [name, rule] of Object.entries(parsed.spec.monitoring)) {
      if (current?.monitoring[name]?.config.url === rule.config.url) continue;
      const target = parseMetricUrl(rule.config.url);
      if (!('error' in target) && !target.instance) await judge(this.options.destinations.metrics, target.host, target.port, `monitoring.${name}.config.url`, rule.config.url);
    }
  }

  /**
   * The job's secrets, each one the caller may `install` (policy/references.ts), stamped with
   * the secret's uuid and current version: a PUT after the secret changed rolls the job. The
   * secrets are held until the answer's `release` is called (job-secrets.ts): the caller writes
   * the job in between.
   */
  async #holdSecrets(parsed: ParsedJobInput, refs: ReferenceCheck): Promise<(jobUuid?: string) => void> {
    const secrets = parsed.spec.secrets;
    if (secrets.length === 0) return () => {};
    const found = await refs.resolve(secrets.map((s) => ({ type: 'secret', fqn: s.fqn, permission: 'install', field: 'secrets' })));
    secrets.forEach((s, i) => {
      s.uuid = found[i]!.uuid;
    });
    const hold = this.options.secrets?.hold(secrets);
    secrets.forEach((s) => {
      s.version = hold?.versions.get(s.uuid) ?? 0;
    });
    return (jobUuid) => hold?.release(jobUuid);
  }

  /** A job runs only what is staged: refuses a start while a package is not `ready`. */
  async #checkPackagesReady(parsed: ParsedJobInput, currentState?: string): Promise<void> {
    const starting = parsed.stateRequest === 'start' || (currentState === 'started' && parsed.stateRequest !== 'stop');
    if (!starting || parsed.spec.packages.length === 0) return;
    const states = await this.options.packageStates(parsed.spec.packages.map((p) => p.uuid));
    const unready = [...states].filter(([, state]) => state !== 'ready');
    if (unready.length > 0) {
      const list = unready.map(([id, state]) => `${id} is ${state}`).join(', ');
      throw new ConflictError(`a started job runs only ready packages: package ${list}`, {
        details: { packages: Object.fromEntries(unready) },
      });
    }
  }

  /** `refs` checks what the body refers to (its packages) for the caller. */
  async create(body: unknown, ctx: ChangeContext, refs: ReferenceCheck, mayMap?: MapCheck): Promise<Job> {
    const parsed = parseJobInput(body, () => this.deps.ids.uuid());
    await this.#checkPackages(parsed, refs);
    const release = await this.#holdSecrets(parsed, refs);
    let written: string | undefined;
    try {
      await this.#checkPackagesReady(parsed);
      await this.checkDestinations(parsed);
      return await this.#fqnLocks.run(parsed.fqn, async () => {
        const existing = await this.deps.store.get(keys.jobByFqn(parsed.fqn));
        if (existing !== undefined) throw new DuplicateError(`job ${parsed.fqn} exists already (uuid ${existing})`);
        return this.#withRoutes(parsed, undefined, mayMap, async () => {
          const actor = this.#watch(await JobActor.create(parsed, ctx, this.deps, this.options.run, this.options.quotas));
          this.actors.add(actor);
          this.#jobs.remember(actor.id, actor.job);
          this.options.routes?.jobChanged(actor.id, actor.job);
          this.deps.log.info('job created', { job: actor.id, fqn: parsed.fqn, request_id: ctx.requestId });
          written = actor.id;
          // A job created without starting has nothing for its actor to watch: it leaves memory
          // now (its record stays in the read cache; its next change activates another), where it
          // stayed for actorIdleMs, up to 10,000 of them (posting 100,000 jobs: 0.9 KB each).
          if (actor.job.state !== 'started') this.actors.release(actor.id);
          return actor.job;
        });
      });
    } finally {
      release(written);
    }
  }

  /** The uuid of the job named `fqn`, or undefined. */
  findByFqn(fqn: string): Promise<string | undefined> {
    return this.deps.store.get(keys.jobByFqn(fqn));
  }

  /** The stored job, or undefined. */
  find(uuid: string): Promise<Job | undefined> {
    return this.#jobs.find(uuid);
  }

  /** How bodies refer to jobs (policy/references.ts): by uuid, or by FQN (bindings, gateways). */
  referenceLookup(): ReferenceLookup {
    return {
      byUuid: async (uuids) => new Map((await this.#byIds(uuids)).map((j) => [j.uuid, j.fqn])),
      byFqn: async (fqns) => {
        const found = new Map<string, string>();
        for (const fqn of fqns) {
          const id = await this.deps.store.get(keys.jobByFqn(fqn));
          if (id !== undefined) found.set(fqn, id);
        }
        return found;
      },
    };
  }

  /** Changes job `uuid`'s bindings through its actor (services/); see JobActor.changeBindings. */
  async changeBindings(uuid: string, change: BindingChange, ctx: ChangeContext): Promise<Job> {
    const job = await this.actors.with(uuid, (actor) => actor.changeBindings(change, ctx));
    if (!job) throw new NotFoundError(`job ${uuid} not found`);
    this.#jobs.remember(uuid, job);
    this.options.routes?.jobChanged(uuid, job);
    this.deps.log.info('job bindings changed', { job: uuid, version_id: job.version_id, bindings: Object.keys(job.bindings).length, request_id: ctx.requestId });
    return job;
  }

  /** Sets or clears job `uuid`'s network through its actor (networks/); see JobActor.changeNetwork. */
  async changeNetwork(uuid: string, change: NetworkChange, ctx: ChangeContext): Promise<Job> {
    const job = await this.actors.with(uuid, (actor) => actor.changeNetwork(change, ctx));
    if (!job) throw new NotFoundError(`job ${uuid} not found`);
    this.#jobs.remember(uuid, job);
    this.options.routes?.jobChanged(uuid, job);
    this.deps.log.info('job network changed', { job: uuid, version_id: job.version_id, network: job.network_ref?.uuid ?? null, request_id: ctx.requestId });
    return job;
  }

  /** GET /jobs/{uuid} as JSON text with its version_id, rendered once per job version and package states. */
  async getJson(uuid: string): Promise<string> {
    return (await this.getVersioned(uuid)).json;
  }

  async getVersioned(uuid: string): Promise<{ json: string; version: number }> {
    const job = await this.find(uuid);
    if (!job) throw new NotFoundError(`job ${uuid} not found`);
    return this.versionedOf(job);
  }

  /** The JSON of `job` as found (`find`), rendered once per version and package states, and its version. */
  async versionedOf(job: Job): Promise<{ json: string; version: number }> {
    let states = job.packages.length === 0 ? '' : [...(await this.#packageStates([job])).values()].join(',');
    if (job.packages.length > 0 && this.options.systemPackages) {
      const system = await this.options.systemPackages(job.packages.map((p) => p.uuid), dependencyPrincipal(job));
      states += `|${system.map((p) => `${p.uuid}=${p.state}`).join(',')}`;
    }
    const cached = this.#rendered.get(job);
    if (cached && cached.states === states) return { json: cached.json, version: job.version_id };
    const json = JSON.stringify((await this.render([job], false))[0]);
    this.#rendered.set(job, { states, json });
    return { json, version: job.version_id };
  }

  /**
   * Runs `fn` (a PATCH: read, merge, update) after the PATCHes of job `uuid` before it, so
   * that concurrent PATCHes do not keep invalidating each other's read.
   */
  serialized<T>(uuid: string, fn: () => Promise<T>): Promise<T> {
    return this.#patchLocks.run(uuid, fn);
  }

  /** The job as a PUT body: what a PATCH is merged onto (read-only fields are ignored by the parser). */
  inputOf(job: Job): Record<string, unknown> {
    const { health: _health, app_token_since: _since, ...rest } = job;
    return { ...rest, packages: job.packages.filter((p) => p.source !== 'system').map(({ state: _state, ...p }) => p) };
  }

  /**
   * Changes the job to `body`, the whole job: a PUT's body, or a PATCH merged onto the
   * job (`mode: 'patch'`; the route merges, so that policy sees the result). `ifMatch`:
   * the versions the change applies to (412 otherwise). A refused PUT that would also
   * have dropped fields says so, and how to change only what it meant to. `refs` checks what
   * the body refers to (its packages) for the caller.
   */
  async update(uuid: string, body: Record<string, unknown>, ctx: ChangeContext, refs: ReferenceCheck, options: { ifMatch?: readonly number[]; mode?: 'put' | 'patch'; mayMap?: MapCheck } = {}): Promise<UpdateResult> {
    const current = await this.find(uuid);
    if (!current) throw new NotFoundError(`job ${uuid} not found`);
    let result: { job: Job; changed: boolean } | undefined;
    try {
      const parsed = parseJobInput(body, () => this.deps.ids.uuid(), current.drains);
      await this.#checkPackages(parsed, refs);
      const release = await this.#holdSecrets(parsed, refs);
      try {
        await this.#checkPackagesReady(parsed, current.state);
        await this.checkDestinations(parsed, current);
        result = await this.#withRoutes(parsed, current, options.mayMap, async () => {
          const r = await this.actors.with(uuid, (actor) => actor.update(parsed, ctx, options.ifMatch));
          if (r?.changed) this.options.routes?.jobChanged(uuid, r.job);
          return r;
        });
      } finally {
        release(result?.changed ? uuid : undefined);
      }
    } catch (err) {
      throw options.mode === 'patch' ? err : explainReplacement(err, current, body);
    }
    if (!result) throw new NotFoundError(`job ${uuid} not found`);
    if (result.changed) {
      this.#jobs.remember(uuid, result.job);
      this.deps.log.info('job updated', { job: uuid, version_id: result.job.version_id, request_id: ctx.requestId });
    }
    return { job: (await this.render([result.job], false))[0]!, changed: result.changed };
  }

  async delete(uuid: string, ctx: ChangeContext): Promise<void> {
    const current = await this.find(uuid);
    if (!current) throw new NotFoundError(`job ${uuid} not found`);
    await this.#fqnLocks.run(current.fqn, async () => {
      const deleted = await this.actors.with(uuid, (actor) => actor.delete(ctx));
      if (!deleted) throw new NotFoundError(`job ${uuid} not found`);
      this.#jobs.forget(uuid);
      this.options.routes?.jobChanged(uuid, undefined);
    });
    this.deps.log.info('job deleted', { job: uuid, fqn: current.fqn, request_id: ctx.requestId });
  }

  /**
   * Jobs matching `query`, ordered by FQN. A listing reads an index in FQN
   * order and stops at the end of the page: the tag index of the query's first
   * tag (a `name=value` one first), else the FQN index; a namespace query reads
   * only its key range of either. Entries before the page are passed over
   * without loading their jobs when the FQN alone decides (no other filters), so
   * a page costs what it returns plus what the filters pass over. Lists by ids,
   * one FQN or a package come from those and are sorted.
   */
  async list(query: JobQuery): Promise<Job[]> {
    const accept = jobFilter(query);
    const count = query.count !== undefined && query.count > 0 ? query.count : undefined;
    const skip = count === undefined ? 0 : ((query.page ?? 1) - 1) * count;
    let jobs: Job[];
    const few = await this.#few(query);
    if (few) {
      jobs = few.filter(accept).sort((a, b) => (a.fqn < b.fqn ? -1 : a.fqn > b.fqn ? 1 : 0));
      if (count !== undefined) jobs = jobs.slice(skip, skip + count);
    } else {
      const tag = [...(query.tags ?? [])].sort((a, b) => Number(b.includes('=')) - Number(a.includes('=')))[0];
      const eq = tag?.indexOf('=') ?? -1;
      const index = tag === undefined ? keys.jobByFqnPrefix : eq < 0 ? keys.jobsByTagPrefix(tag) : keys.jobsByTagValuePrefix(tag.slice(0, eq), tag.slice(eq + 1));
      // Index keys end with the FQN, and FQNs sort by namespace: a namespace query reads one key range.
      // A full FQN with matchPartialFQN matches local names that start with its own, in its namespace only.
      const fqnPrefix = query.fqn && query.matchPartialFqn ? `job::${query.fqn.namespace}${query.fqn.localName === undefined ? '' : `::${query.fqn.localName}`}` : '';
      const prefix = `${index}${fqnPrefix}`;
      const byFqn = fqnOnlyFilter(query);
      jobs = await readIndexPage(this.deps.store, {
        range: { prefix },
        load: (ids) => this.#byIds(ids),
        accept,
        acceptKey: (key) => byFqn(key.slice(index.length)),
        keyDecides: onlyFqnFilters(query),
        skip,
        ...(count === undefined ? {} : { take: count }),
      });
    }
    return this.render(jobs, query.health);
  }

  /** Health of the started jobs among `ids` that `visible` accepts (policy); others are left out. */
  async health(ids: readonly string[], visible: (fqn: string) => boolean = () => true): Promise<ReturnType<typeof computeJobHealth>[]> {
    const jobs = await this.#byIds(ids);
    return jobs.filter((j) => (j.state === 'started' || j.state === 'errored') && visible(j.fqn)).map((j) => this.#health(j));
  }

  #byIds(ids: readonly string[]): Promise<Job[]> {
    return this.#jobs.findMany(ids);
  }

  /** The candidates when the query names them (ids, one FQN, a package); undefined when a listing reads the FQN index. */
  async #few(query: JobQuery): Promise<Job[] | undefined> {
    const { store } = this.deps;
    if (query.ids) return this.#byIds(query.ids);
    if (query.fqn && !query.matchPartialFqn && query.fqn.localName !== undefined) {
      const id = await store.get(keys.jobByFqn(`job::${query.fqn.namespace}::${query.fqn.localName}`));
      return id === undefined ? [] : this.#byIds([id]);
    }
    if (query.packageId) {
      const ids: string[] = [];
      const prefix = keys.jobsByPackagePrefix(query.packageId);
      for await (const [key] of store.iterate({ prefix })) ids.push(key.slice(prefix.length));
      return this.#byIds(ids);
    }
    return undefined;
  }

  /** Adds what is computed at read time: package states, and health when asked for. */
  #packageStates(jobs: readonly Job[]): Promise<Map<string, string>> {
    const ids = [...new Set(jobs.flatMap((j) => j.packages.map((p) => p.uuid)))];
    return ids.length === 0 ? Promise.resolve(new Map()) : this.options.packageStates(ids);
  }

  async render(jobs: Job[], withHealth: boolean): Promise<Job[]> {
    const states = await this.#packageStates(jobs);
    const system = this.options.systemPackages;
    return Promise.all(
      // The controller's own fields (app_token_since) are not served.
      jobs.map(servedJob).map(async (job) => ({
        ...job,
        state: shownJobState(job.state, job.packages.map((p) => states.get(p.uuid))),
        packages: [
          ...job.packages.map((p) => ({ ...p, state: states.get(p.uuid) ?? 'unknown' })),
          ...(system && job.packages.length > 0
            ? (await system(job.packages.map((p) => p.uuid), dependencyPrincipal(job))).map((p) => ({ uuid: p.uuid, source: 'system' as const, state: p.state }))
            : []),
        ],
        ...(withHealth ? { health: this.#health(job) } : {}),
      })),
    );
  }

  async stop(): Promise<void> {
    await this.actors.stop();
  }
}

/** The checks of `query` that need only a job's FQN (policy, namespace). */
function fqnOnlyFilter(query: JobQuery): (fqn: string) => boolean {
  const visible = query.visible ?? (() => true);
  if (!query.fqn) return visible;
  const match = fqnMatcher(query.fqn, query.matchPartialFqn);
  return (fqn) => visible(fqn) && match(parseFqn(fqn, { type: 'job' }));
}

/** Whether the FQN alone decides `query` (tags count when one tag is the index read). */
function onlyFqnFilters(query: JobQuery): boolean {
  return (
    query.name === undefined &&
    (query.tags ?? []).length <= 1 &&
    !query.bindingFqn &&
    !query.serviceFqn &&
    !query.providerFqn &&
    !query.packageId &&
    !query.ids
  );
}

const ALWAYS_SENT = new Set(['fqn', 'name', 'uuid', 'state', 'version_id', 'created_at', 'updated_at', 'created_by', 'updated_by', 'health']);

/**
 * A PUT replaces the whole job; a body that holds only what the user meant to change
 * drops the rest. When such a PUT is refused (409, 400), the message names what it would
 * have removed and shows the PATCH that changes only what the body holds.
 */
function explainReplacement(err: unknown, current: Job, body: Record<string, unknown>): unknown {
  if (!(err instanceof ConflictError || err instanceof RequiresRestartError || err instanceof InvalidRequestError)) return err;
  const spec = specOf(current) as unknown as Record<string, unknown>;
  // What a field left out of a PUT becomes: its default.
  const defaults = parseJobInput({ fqn: current.fqn }, () => '', current.drains).spec as unknown as Record<string, unknown>;
  const removed = Object.keys(spec).filter((k) => k !== 'bindings' && k !== 'network_ref' && body[k] === undefined && !jsonEqual(spec[k], defaults[k]));
  const missingFqn = body['fqn'] === undefined;
  if (removed.length === 0 && !missingFqn) return err;
  const meant = Object.fromEntries(Object.entries(body).filter(([k]) => !ALWAYS_SENT.has(k)));
  const list = (names: string[]) => (names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);
  const what = [
    ...(removed.length > 0 ? [`this PUT would remove the job's ${list(removed)}`] : []),
    ...(missingFqn ? ['this PUT names no fqn'] : []),
  ].join(' and ');
  const how =
    Object.keys(meant).length > 0
      ? `to change only ${list(Object.keys(meant))} use PATCH /v1/jobs/${current.uuid} with Content-Type: application/merge-patch+json and the body ${JSON.stringify(meant)}`
      : `to change some fields only, use PATCH /v1/jobs/${current.uuid} with Content-Type: application/merge-patch+json and a body holding just those fields`;
  const message = `${what} (${err.message}). PUT replaces the whole job; send all of it (GET it, edit, PUT it back), or ${how}`;
  const options = { cause: err, details: { ...(err.details ?? {}), ...(removed.length > 0 ? { would_remove: removed } : {}), patch_hint: meant } };
  if (err instanceof RequiresRestartError) return new RequiresRestartError(message, options);
  if (err instanceof ConflictError) return new ConflictError(message, options);
  return new InvalidRequestError(message, options);
}

function jobFilter(query: JobQuery): (job: Job) => boolean {
  const checks: ((job: Job) => boolean)[] = [];
  if (query.visible) {
    const visible = query.visible;
    checks.push((j) => visible(j.fqn));
  }
  if (query.fqn) {
    const match = fqnMatcher(query.fqn, query.matchPartialFqn);
    checks.push((j) => match(parseFqn(j.fqn, { type: 'job' })));
  }
  if (query.name !== undefined) checks.push((j) => j.name === query.name);
  if (query.packageId) checks.push((j) => j.packages.some((p) => p.uuid === query.packageId));
  for (const tag of query.tags ?? []) {
    const eq = tag.indexOf('=');
    if (eq < 0) checks.push((j) => Object.hasOwn(j.tags, tag));
    else {
      const [name, value] = [tag.slice(0, eq), tag.slice(eq + 1)];
      checks.push((j) => j.tags[name] === value);
    }
  }
  if (query.bindingFqn) {
    const fqn = query.bindingFqn;
    checks.push((j) => Object.entries(j.bindings).some(([key, b]) => key === fqn || b.fqn === fqn));
  }
  if (query.serviceFqn) {
    const fqn = query.serviceFqn;
    checks.push((j) => Object.values(j.bindings).some((b) => b.service_fqn === fqn));
  }
  if (query.providerFqn) {
    const fqn = query.providerFqn;
    checks.push((j) => Object.values(j.bindings).some((b) => b.provider_fqn === fqn));
  }
  return (job) => checks.every((check) => check(job));
}

/**
 * The started jobs among stored job records handed to it one by one (`take`): a term's start
 * reads the jobs once, for the routes and for restore() (two reads of 100,000 records on etcd
 * took seconds each). Records of jobs not started are not parsed.
 */
export class StartedJobs {
  readonly jobs: Job[] = [];

  take(value: string): void {
    if (!mayHaveMember(value, 'state', '"started"')) return;
    const job = JSON.parse(value) as Job;
    if (job.state === 'started') this.jobs.push(job);
  }
}
