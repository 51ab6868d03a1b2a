/**
 * JobActor: the one owner of a job. Every change to the job is a message through
 * its mailbox, applied one at a time and persisted before the caller hears back,
 * so concurrent PUTs never lose an update and `version_id` advances by exactly
 * one per change that really changes something.
 */
import { Actor } from '../actors/actor.js';
import { diffPatches } from '../audit/patches.js';
import type { ChangeContext, Deps } from '../context.js';
import { ConflictError, InvalidRequestError, NotFoundError, RequiresRestartError } from '../errors.js';
import { keys } from '../store/keys.js';
import type { BatchOp } from '../store/store.js';
import { formatTimestampNs } from '../util/clock.js';
import { jsonEqual } from '../util/json.js';
import { checkVersion } from '../model/version.js';
import { SCHEDULER_PRINCIPAL, servedJob, specOf, type Job, type JobBinding, type JobSecret, type JobSpec, type JobState, type ParsedJobInput } from '../model/job.js';
import { initialJobState, nextJobState } from './job-state.js';
import type { InstanceReport, PackageSpec } from '@platform/proto';
import type { InstanceRecord } from '../model/instance.js';
import { Reconciler, type RunDeps, type RunOutcome, type RunRequest } from '../scheduler/reconciler.js';
import type { JobQuotas } from './job-quotas.js';

/** Who changes a job when nobody asked: the scheduler putting a crash loop in `errored`. */
export const SYSTEM_CONTEXT: ChangeContext = { principal: SCHEDULER_PRINCIPAL, requestId: 'scheduler' };


/**
 * A change of a job's bindings (services/): the new map, and what goes into the same store
 * batch (the binding's own record, audit items). Throwing refuses the change.
 */
export type BindingChange = (job: Job) => { bindings: Record<string, JobBinding>; ops: BatchOp[] };

/** A change of a job's network (networks/): the new reference, and what goes into the same batch. */
export type NetworkChange = (job: Job) => { network_ref: { uuid: string } | null; ops: BatchOp[] };

/** A body names the network a job is on only to repeat it: joining and leaving have their own endpoints. */
function refuseNetworkRef(given: { uuid: string } | null, current: { uuid: string } | null): void {
  if (given === null || given.uuid === current?.uuid) return;
  throw new InvalidRequestError(
    `network_ref: a job joins a network with POST /networks/${given.uuid}/join${current ? ` (it is on network ${current.uuid}: leave that first)` : ''}, not by its body`,
    { details: { field: 'network_ref' } },
  );
}

export interface UpdateResult {
  job: Job;
  changed: boolean;
}

/** Lays out a job with its fields in a stable, readable order. */
function assembleJob(server: Omit<Job, keyof JobSpec | 'health'>, spec: JobSpec): Job {
  const { uuid, fqn, name, state, docker_origin, version_id, created_at, updated_at, created_by, updated_by, app_token_since } = server;
  return {
    uuid,
    fqn,
    name,
    ...spec,
    state,
    ...(docker_origin ? { docker_origin } : {}),
    version_id,
    created_at,
    updated_at,
    created_by,
    updated_by,
    ...(spec.app_token && app_token_since !== undefined ? { app_token_since } : {}),
  };
}

function packageIndexOps(jobUuid: string, before: JobSpec | undefined, after: JobSpec | undefined): BatchOp[] {
  const was = new Set(before?.packages.map((p) => p.uuid) ?? []);
  const now = new Set(after?.packages.map((p) => p.uuid) ?? []);
  const ops: BatchOp[] = [];
  for (const p of was) if (!now.has(p)) ops.push({ type: 'del', key: keys.jobByPackage(p, jobUuid) });
  for (const p of now) if (!was.has(p)) ops.push({ type: 'put', key: keys.jobByPackage(p, jobUuid), value: '' });
  return ops;
}

/** The link index entries (target job -> linking job) that change when `linker`'s bindings go from `before` to `after`. */
export function linkIndexOps(linker: string, before: Record<string, JobBinding> | undefined, after: Record<string, JobBinding> | undefined): BatchOp[] {
  const targets = (bindings: Record<string, JobBinding> | undefined) =>
    new Set(Object.values(bindings ?? {}).flatMap((b) => (b.target_job_uuid ? [b.target_job_uuid] : [])));
  const was = targets(before);
  const now = targets(after);
  const ops: BatchOp[] = [];
  for (const t of was) if (!now.has(t)) ops.push({ type: 'del', key: keys.jobLinkedBy(t, linker) });
  for (const t of now) if (!was.has(t)) ops.push({ type: 'put', key: keys.jobLinkedBy(t, linker), value: '' });
  return ops;
}

/** `drain.add` and `drain.delete` records for the drains (by uuid) that a change adds or removes. */
function drainAuditOps(deps: Deps, ctx: ChangeContext, fqn: string, before: JobSpec | undefined, after: JobSpec | undefined): BatchOp[] {
  const was = new Map((before?.drains ?? []).map((d, i) => [d.uuid, { d, i }] as const));
  const now = new Map((after?.drains ?? []).map((d, i) => [d.uuid, { d, i }] as const));
  const ops: BatchOp[] = [];
  for (const [uuid, { d, i }] of was) {
    if (!now.has(uuid)) ops.push(deps.audit.entry(ctx, 'drain.delete', fqn, { drain_uuid: uuid, patches: [{ op: 'remove', path: `job/drains/${i}`, value: d }] }));
  }
  for (const [uuid, { d, i }] of now) {
    if (!was.has(uuid)) ops.push(deps.audit.entry(ctx, 'drain.add', fqn, { drain_uuid: uuid, patches: [{ op: 'add', path: `job/drains/${i}`, value: d }] }));
  }
  return ops;
}

/**
 * `job.addroute` and `job.removeroute` records for the routes that a change adds or removes,
 * each with the patch of that route (`job/ports/<i>/routes/<j>`).
 */
function routeAuditOps(deps: Deps, ctx: ChangeContext, fqn: string, before: JobSpec | undefined, after: JobSpec | undefined): BatchOp[] {
  const flat = (spec: JobSpec | undefined) =>
    new Map(
      (spec?.ports ?? []).flatMap((p, pi) =>
        p.routes.map((r, ri) => [`${p.number} ${r.type} ${r.endpoint}`, { path: `job/ports/${pi}/routes/${ri}`, route: r, port: p.number }] as const),
      ),
    );
  const was = flat(before);
  const now = flat(after);
  const ops: BatchOp[] = [];
  for (const [key, r] of was) {
    if (!now.has(key)) ops.push(deps.audit.entry(ctx, 'job.removeroute', fqn, { port: r.port, patches: [{ op: 'remove', path: r.path, value: r.route }] }));
  }
  for (const [key, r] of now) {
    if (!was.has(key)) ops.push(deps.audit.entry(ctx, 'job.addroute', fqn, { port: r.port, patches: [{ op: 'add', path: r.path, value: r.route }] }));
  }
  return ops;
}

/**
 * What a change does to the secrets installed in a job (secrets/): the index of the jobs each
 * secret is in, and `secret.install` / `secret.uninstall` records on the secret's FQN for each
 * installation (secret and env name or file) added or removed. Never a value.
 */
function secretOps(deps: Deps, ctx: ChangeContext, job: { uuid: string; fqn: string }, before: JobSpec | undefined, after: JobSpec | undefined): BatchOp[] {
  const installs = (spec: JobSpec | undefined) =>
    new Map((spec?.secrets ?? []).map((s) => [`${s.uuid} ${s.env !== undefined ? `env ${s.env}` : `file ${s.file}`}`, s] as const));
  const was = installs(before);
  const now = installs(after);
  const ops: BatchOp[] = [];
  const target = (s: JobSecret) => (s.env !== undefined ? { env: s.env } : { file: s.file });
  for (const [key, s] of was) {
    if (!now.has(key)) ops.push(deps.audit.entry(ctx, 'secret.uninstall', s.fqn, { job: job.fqn, job_uuid: job.uuid, ...target(s) }));
  }
  for (const [key, s] of now) {
    if (!was.has(key)) ops.push(deps.audit.entry(ctx, 'secret.install', s.fqn, { job: job.fqn, job_uuid: job.uuid, ...target(s) }));
  }
  const uuids = (spec: JobSpec | undefined) => new Set((spec?.secrets ?? []).map((s) => s.uuid));
  const wasIn = uuids(before);
  const nowIn = uuids(after);
  for (const u of wasIn) if (!nowIn.has(u)) ops.push({ type: 'del', key: keys.secretJob(u, job.uuid) });
  for (const u of nowIn) if (!wasIn.has(u)) ops.push({ type: 'put', key: keys.secretJob(u, job.uuid), value: '' });
  return ops;
}

/** The tag index entries of job `uuid` named `fqn` that change when its tags go from `before` to `after`. */
export function tagIndexOps(uuid: string, fqn: string, before: Record<string, string> | undefined, after: Record<string, string> | undefined): BatchOp[] {
  const ops: BatchOp[] = [];
  for (const [tag, value] of Object.entries(before ?? {})) {
    if (after && Object.hasOwn(after, tag) && after[tag] === value) continue;
    if (!after || !Object.hasOwn(after, tag)) ops.push({ type: 'del', key: keys.jobByTag(tag, fqn) });
    ops.push({ type: 'del', key: keys.jobByTagValue(tag, value, fqn) });
  }
  for (const [tag, value] of Object.entries(after ?? {})) {
    if (before && Object.hasOwn(before, tag) && before[tag] === value) continue;
    ops.push({ type: 'put', key: keys.jobByTag(tag, fqn), value: uuid }, { type: 'put', key: keys.jobByTagValue(tag, value, fqn), value: uuid });
  }
  return ops;
}

/** The kind of the mailbox's batches of instance reports. */
const REPORTS = {};

export class JobActor extends Actor {
  #job: Job;
  #deleted = false;
  /** Instances on agents; absent when the controller runs without a scheduler (unit tests). */
  readonly #runner: Reconciler | undefined;
  #release: (() => void) | undefined;
  #message: string | undefined;

  constructor(
    job: Job,
    private readonly deps: Deps,
    run?: RunDeps,
    /** Asked before every change that may raise the namespace's use (job-quotas.ts). */
    private readonly quotas?: JobQuotas,
  ) {
    super(job.uuid, deps.clock.nowMs());
    this.#job = job;
    this.#runner = run ? new Reconciler(job.uuid, deps, run, () => void this.reconcile().catch((err: unknown) => this.#failed(err))) : undefined;
  }

  #failed(err: unknown): void {
    if (this.stopped) return;
    this.deps.log.error('job reconcile failed', { job: this.id, err: (err as Error).message });
  }

  /** Why the job does not run as configured: waiting for room, or the crash loop that errored it. */
  get message(): string | undefined {
    return this.#runner?.waitingReason ?? (this.#job.state === 'errored' ? this.#message : undefined);
  }

  get flapping(): boolean {
    return this.#runner?.restarts.flapping ?? false;
  }

  /** A started job, or one with instances still running, stays in memory: it has work to watch. */
  #syncHold(): void {
    const busy = !this.#deleted && (this.#job.state === 'started' || (this.#runner?.hasLive ?? false));
    if (busy && !this.#release) this.#release = this.hold();
    if (!busy && this.#release) {
      this.#release();
      this.#release = undefined;
    }
  }

  /** Runs a runner step inside the mailbox and applies what it asks of the job. */
  async #step(fn: (runner: Reconciler, job: Job | undefined) => Promise<RunOutcome>): Promise<void> {
    const runner = this.#runner;
    if (!runner) return;
    const outcome = await fn(runner, this.#deleted ? undefined : this.#job);
    if (outcome.state && !this.#deleted && this.#job.state === 'started') {
      await this.#systemState(outcome.state, outcome.reason ?? '');
      await runner.reconcile(this.#job);
    }
    this.#syncHold();
  }

  async #systemState(state: 'errored' | 'finished', reason: string): Promise<void> {
    const current = this.#job;
    const next: Job = {
      ...current,
      state,
      version_id: current.version_id + 1,
      updated_at: formatTimestampNs(this.deps.clock.nowNs()),
      updated_by: SYSTEM_CONTEXT.principal,
    };
    await this.deps.store.batch([
      { type: 'put', key: keys.job(next.uuid), value: JSON.stringify(next) },
      this.deps.audit.entry(SYSTEM_CONTEXT, 'job.update', next.fqn, { patches: diffPatches('job', servedJob(current), servedJob(next)), reason }),
    ]);
    this.#job = next;
    this.quotas?.jobChanged(next.uuid, next);
    this.#message = reason;
    this.onSystemChange?.(next);
    this.deps.log.warn(`job ${state}`, { job: next.uuid, fqn: next.fqn, reason });
  }

  /** Told when the actor changes its job on its own (the service refreshes its read cache). */
  onSystemChange: ((job: Job) => void) | undefined;

  /** Makes the instances match the job (after a change, a timer, or new agents). */
  reconcile(): Promise<void> {
    return this.mailbox.post(() => this.#step((runner, job) => runner.reconcile(job)), true);
  }

  /**
   * A state report of one of this job's instances. Reports that queue up behind the work in
   * progress are applied together, in order (Reconciler.applyReports).
   */
  applyReport(agent: string, report: InstanceReport): Promise<void> {
    return this.mailbox.postBatch(REPORTS, { agent, report }, async (reports) => {
      for (let done = 0; done < reports.length; ) {
        const rest = done === 0 ? reports : reports.slice(done);
        let applied = rest.length;
        await this.#step(async (runner, job) => {
          const outcome = await runner.applyReports(rest, job);
          applied = outcome.applied ?? rest.length;
          return outcome;
        });
        done += applied;
      }
    });
  }

  /** The agent was lost: its instances are replaced elsewhere. */
  agentLost(agent: string): Promise<void> {
    return this.mailbox.post(() => this.#step((runner, job) => runner.agentLost(agent, job)));
  }

  /** The agent came back without this instance. */
  instanceMissing(instance: string): Promise<void> {
    return this.mailbox.post(() => this.#step((runner, job) => runner.missing(instance, job)));
  }

  /** Starts a one-off run of this job (a stager run) with `packages` installed. */
  launchRun(request: RunRequest, packages: PackageSpec[]): Promise<InstanceRecord> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      if (!this.#runner) throw new Error('this controller runs no instances');
      const record = await this.#runner.launch(this.#job, request, packages);
      this.#syncHold();
      return record;
    });
  }

  /** Stops a one-off run's instance (idempotent). */
  stopRun(instance: string, force = false): Promise<void> {
    return this.mailbox.post(async () => {
      const record = this.#runner?.instances().find((i) => i.uuid === instance);
      if (record && record.state !== 'REMOVED') await this.#runner!.stop(record, 'job', force);
    });
  }

  /** DELETE /jobs/{uuid}/instances/{instance}: stops it; the restart policy decides what follows. */
  stopInstance(instance: string, ctx: ChangeContext): Promise<void> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const runner = this.#runner;
      const record = runner?.instances().find((i) => i.uuid === instance);
      if (!runner || !record || record.state === 'REMOVED') throw new NotFoundError(`job ${this.id} has no running instance ${instance}`);
      await this.deps.store.batch([this.deps.audit.entry(ctx, 'job.instancestop', this.#job.fqn, { instance_uuid: instance })]);
      await runner.stop(record, 'user');
      this.#syncHold();
    });
  }

  /** The job as last persisted. */
  get job(): Job {
    return this.#job;
  }

  /**
   * Makes the actor of a new job and persists it with its FQN index entry.
   * The caller holds the FQN lock and has checked that the FQN is free.
   */
  static async create(parsed: ParsedJobInput, ctx: ChangeContext, deps: Deps, run?: RunDeps, quotas?: JobQuotas): Promise<JobActor> {
    // Bindings are made by POST /bindings, never by a job body; networks are joined by POST /networks/{uuid}/join.
    parsed.spec.bindings = {};
    refuseNetworkRef(parsed.spec.network_ref, null);
    const now = formatTimestampNs(deps.clock.nowNs());
    const job = assembleJob(
      {
        uuid: deps.ids.uuid(),
        fqn: parsed.fqn,
        name: parsed.localName,
        state: initialJobState(parsed.spec.packages.length > 0, parsed.stateRequest),
        ...(parsed.dockerOrigin ? { docker_origin: parsed.dockerOrigin } : {}),
        version_id: 1,
        created_at: now,
        updated_at: now,
        created_by: ctx.principal,
        updated_by: ctx.principal,
        app_token_since: 1,
      },
      parsed.spec,
    );
    const actor = new JobActor(job, deps, run, quotas);
    await actor.mailbox.post(async () => {
      const hold = quotas?.admit(undefined, job);
      try {
        await actor.#write([
          { type: 'put', key: keys.job(job.uuid), value: JSON.stringify(job) },
          { type: 'put', key: keys.jobByFqn(job.fqn), value: job.uuid },
          ...packageIndexOps(job.uuid, undefined, job),
          ...tagIndexOps(job.uuid, job.fqn, undefined, job.tags),
          deps.audit.entry(ctx, 'job.create', job.fqn),
          ...routeAuditOps(deps, ctx, job.fqn, undefined, job),
          ...drainAuditOps(deps, ctx, job.fqn, undefined, job),
          ...secretOps(deps, ctx, job, undefined, job),
          ...(job.state === 'started' ? [deps.audit.entry(ctx, 'job.start', job.fqn)] : []),
        ], job);
      } finally {
        hold?.release();
      }
    });
    if (job.state === 'started') void actor.reconcile().catch((err: unknown) => actor.#failed(err));
    return actor;
  }

  /**
   * Writes `ops`, then makes `next` the job and tells quotas, in the same turn: a quota's hold
   * is released only after (job-quotas.ts).
   */
  async #write(ops: BatchOp[], next: Job): Promise<void> {
    await this.deps.store.batch(ops);
    this.#job = next;
    this.quotas?.jobChanged(next.uuid, next);
  }

  #assertLive(): void {
    if (this.#deleted) throw new NotFoundError(`job ${this.id} not found`);
  }

  /**
   * Replaces the job's spec with `parsed` (a PUT, or a PATCH merged onto the job).
   * `expected`: the versions the change applies to (If-Match); another one answers 412.
   */
  update(parsed: ParsedJobInput, ctx: ChangeContext, expected?: readonly number[]): Promise<UpdateResult> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const current = this.#job;
      checkVersion(`job ${current.fqn}`, current.version_id, expected);
      if (parsed.fqn !== current.fqn) {
        throw new InvalidRequestError(`fqn: a job's fqn cannot be changed (this job is ${current.fqn})`);
      }
      // Bindings are the controller's (POST /bindings, /unbind, /unlink): a body does not change them.
      parsed.spec.bindings = current.bindings;
      // So is its network (POST /networks/{uuid}/join and /leave): a body may repeat it, not change it.
      refuseNetworkRef(parsed.spec.network_ref, current.network_ref);
      parsed.spec.network_ref = current.network_ref;
      const state: JobState = nextJobState(current.state, parsed.spec.packages.length > 0, parsed.stateRequest);
      if (current.state === 'started' && state === 'started' && !jsonEqual(parsed.spec.resources, current.resources)) {
        const was = current.resources as unknown as Record<string, number>;
        const now = parsed.spec.resources as unknown as Record<string, number>;
        const changes = Object.keys({ ...was, ...now }).filter((k) => was[k] !== now[k]).map((k) => `${k} ${was[k]} -> ${now[k]}`);
        throw new RequiresRestartError(
          `resources of a started job cannot change (this request would change ${changes.join(', ')}); stop the job, change it, and start it again`,
          { details: { resources: changes } },
        );
      }
      const before = specOf(current);
      if (state === current.state && jsonEqual(parsed.spec, before)) return { job: current, changed: false };

      const next = assembleJob(
        {
          ...current,
          state,
          version_id: current.version_id + 1,
          // Turned on again: a new turn, whose tokens are not those of the last one.
          app_token_since: current.app_token ? current.app_token_since : current.version_id + 1,
          updated_at: formatTimestampNs(this.deps.clock.nowNs()),
          updated_by: ctx.principal,
        },
        parsed.spec,
      );
      const { audit } = this.deps;
      const hold = this.quotas?.admit(current, next);
      try {
        await this.#write([
          { type: 'put', key: keys.job(next.uuid), value: JSON.stringify(next) },
          ...packageIndexOps(next.uuid, before, parsed.spec),
          ...tagIndexOps(next.uuid, next.fqn, current.tags, next.tags),
          audit.entry(ctx, 'job.update', next.fqn, { patches: diffPatches('job', servedJob(current), servedJob(next)) }),
          ...routeAuditOps(this.deps, ctx, next.fqn, before, parsed.spec),
          ...drainAuditOps(this.deps, ctx, next.fqn, before, parsed.spec),
          ...secretOps(this.deps, ctx, next, before, parsed.spec),
          ...(state !== current.state && state === 'started' ? [audit.entry(ctx, 'job.start', next.fqn)] : []),
          ...(state !== current.state && state === 'stopped' ? [audit.entry(ctx, 'job.stop', next.fqn)] : []),
        ], next);
      } finally {
        hold?.release();
      }
      if (state === 'started' && current.state !== 'started') this.#runner?.started();
      await this.#step((runner, job) => runner.reconcile(job));
      return { job: next, changed: true };
    });
  }

  /**
   * Changes the job's bindings (services/): the new map and `change`'s operations are written in
   * one batch with the job's new version; a started job's instances are then replaced (following
   * its rollout) because their environment changed.
   */
  changeBindings(change: BindingChange, ctx: ChangeContext): Promise<Job> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const current = this.#job;
      const { bindings, ops } = change(current);
      const next: Job = {
        ...current,
        bindings,
        version_id: current.version_id + 1,
        updated_at: formatTimestampNs(this.deps.clock.nowNs()),
        updated_by: ctx.principal,
      };
      await this.deps.store.batch([
        { type: 'put', key: keys.job(next.uuid), value: JSON.stringify(next) },
        ...linkIndexOps(next.uuid, current.bindings, bindings),
        ...ops,
      ]);
      this.#job = next;
      await this.#step((runner, job) => runner.reconcile(job));
      return next;
    });
  }

  /**
   * Sets or clears the job's network (networks/): `change` answers the new reference and the
   * operations written in the same batch (the network's record, audit items). A started job's
   * instances are then replaced, on the network or off it (the reference is part of runHash).
   */
  changeNetwork(change: NetworkChange, ctx: ChangeContext): Promise<Job> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const current = this.#job;
      const { network_ref, ops } = change(current);
      if (jsonEqual(network_ref, current.network_ref)) {
        if (ops.length > 0) await this.deps.store.batch(ops);
        return current;
      }
      const next: Job = {
        ...current,
        network_ref,
        version_id: current.version_id + 1,
        updated_at: formatTimestampNs(this.deps.clock.nowNs()),
        updated_by: ctx.principal,
      };
      await this.deps.store.batch([{ type: 'put', key: keys.job(next.uuid), value: JSON.stringify(next) }, ...ops]);
      this.#job = next;
      await this.#step((runner, job) => runner.reconcile(job));
      return next;
    });
  }

  /** Deletes the job and its index entries, unless a staging pipeline runs it. The caller holds the FQN lock. */
  delete(ctx: ChangeContext): Promise<Job> {
    return this.mailbox.post(async () => {
      this.#assertLive();
      const job = this.#job;
      const prefix = keys.pipelinesOfStagerPrefix(job.uuid);
      const pipelines: string[] = [];
      for await (const [key] of this.deps.store.iterate({ prefix, limit: 10 })) pipelines.push(key.slice(prefix.length));
      if (pipelines.length > 0) {
        throw new ConflictError(`job ${job.fqn} is a stager of staging pipeline ${pipelines.join(', ')}; change those pipelines first`, {
          details: { pipelines },
        });
      }
      const gatewayOf = await this.deps.store.get(keys.gatewayOfJob(job.uuid));
      if (gatewayOf !== undefined) {
        throw new ConflictError(`job ${job.fqn} is the gateway of service type ${gatewayOf}; demote it first (DELETE /gateways/${gatewayOf})`, {
          details: { gateway: gatewayOf },
        });
      }
      const services = Object.values(job.bindings).filter((b) => b.service_fqn);
      if (services.length > 0) {
        throw new ConflictError(`job ${job.fqn} is bound to ${services.map((b) => b.service_fqn).join(', ')}; unbind it first (POST /unbind)`, {
          details: { services: services.map((b) => b.service_fqn) },
        });
      }
      const linkers: string[] = [];
      for await (const [key] of this.deps.store.iterate({ prefix: keys.jobsLinkingPrefix(job.uuid), limit: 10 })) {
        const linker = key.slice(keys.jobsLinkingPrefix(job.uuid).length);
        if (linker !== job.uuid) linkers.push(linker);
      }
      if (linkers.length > 0) {
        const fqns = await Promise.all(linkers.map(async (u) => (JSON.parse((await this.deps.store.get(keys.job(u))) ?? 'null') as Job | null)?.fqn ?? u));
        throw new ConflictError(`job ${job.fqn} is the target of links from ${fqns.join(', ')}; unlink them first (POST /unlink)`, {
          details: { linked_by: fqns },
        });
      }
      if (job.network_ref) {
        throw new ConflictError(`job ${job.fqn} is a member of network ${job.network_ref.uuid}; take it off first (POST /networks/${job.network_ref.uuid}/leave)`, {
          details: { network: job.network_ref.uuid },
        });
      }
      const instances = this.#runner?.instances() ?? [];
      let instanceOps = instances.map((i): BatchOp => ({ type: 'del', key: keys.instance(job.uuid, i.uuid) }));
      // A store with a bound on a batch (etcd's --max-txn-ops): the instance records of a job with
      // many go first, in batches it takes; the job, its indexes and its audit item in the last.
      const max = this.deps.store.maxBatchOps;
      if (max !== undefined && instanceOps.length > max / 2) {
        for (let i = 0; i < instanceOps.length; i += max) await this.deps.store.batch(instanceOps.slice(i, i + max));
        instanceOps = [];
      }
      await this.deps.store.batch([
        ...instanceOps,
        { type: 'del', key: keys.job(job.uuid) },
        { type: 'del', key: keys.jobByFqn(job.fqn) },
        ...packageIndexOps(job.uuid, job, undefined),
        ...routeAuditOps(this.deps, ctx, job.fqn, job, undefined),
        ...tagIndexOps(job.uuid, job.fqn, job.tags, undefined),
        ...linkIndexOps(job.uuid, job.bindings, undefined),
        ...secretOps(this.deps, ctx, job, specOf(job), undefined),
        this.deps.audit.entry(ctx, 'job.delete', job.fqn),
      ]);
      this.#deleted = true;
      this.quotas?.jobChanged(job.uuid, undefined);
      // Instances stop on their agents; their records went with the job, so later reports are
      // of unknown instances, which are stopped again if need be.
      this.#runner?.abandon();
      this.#syncHold();
      return job;
    });
  }
}
