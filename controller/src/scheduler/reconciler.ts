/**
 * The running side of a JobActor: it makes the job's instances on agents match the job
 * (state, num_instances, what runs, rollout), applies what agents report, and applies the
 * restart policy. Every method runs inside the JobActor's mailbox, one at a time; each change
 * to an instance is persisted (`inst/<job>/<instance>`) before the agent is told.
 *
 * Reconcile, for a started job (`desired` = num_instances minus slots finished by restart `no`):
 *   1. instances of an older run shape (packages, processes, ports, resources, logs changed):
 *      without rolling_mode all are stopped at once; with it, one new instance starts at a
 *      time and an old one stops each time a new one runs, and whatever old remains after
 *      `force_stop_old_instances_after` seconds is stopped;
 *   2. more current instances than desired: the newest, not-yet-running ones stop first;
 *   3. fewer: new ones are placed (after the restart delay when they replace a crash); when no
 *      agent fits, the job waits, says why in its health, and tries again when agents change.
 * A job that is not started has every instance stopped.
 */
import { createHash } from 'node:crypto';
import type { InstanceReport, InstanceSpec, LinkSpec, NetworkSpec, PackageSpec, PlatformFile } from '@platform/proto';
import { instanceStateName } from '@platform/proto';
import { mainProcessName, NETWORK_AGENT_TAG } from '@platform/proto/common';
import type { AgentDirectory, AgentRecord } from '../agents/agent-directory.js';
import type { Deps } from '../context.js';
import { RUNNING_STATES, type InstanceRecord } from '../model/instance.js';
import { drainSpecs } from '../model/drain.js';
import { egressRules, isOutboundBinding } from '../model/outbound.js';
import type { InstanceTable } from './instance-table.js';
import { place, PlacementQueue, type PlacementCandidate, type PlacementRequest } from './placement.js';
import { keys } from '../store/keys.js';
import type { BatchOp } from '../store/store.js';
import { canonicalJson } from '../util/json.js';
import type { Job } from '../model/job.js';
import { RestartTracker } from './restart-tracker.js';

/** What the running side needs from the rest of the controller. */
export interface RunDeps {
  table: InstanceTable;
  agents: AgentDirectory;
  /** The packages an instance of `job` installs, dependencies first, the application last. */
  packagesFor(job: Job): Promise<PackageSpec[]>;
  /** Extra environment for instances of `job` (e.g. STAGER_URL of a stager run). */
  environmentFor?(job: Job): Record<string, string>;
  /** Files the platform gives an instance of `job` (its secrets as files, its app token). */
  filesFor?(job: Job): PlatformFile[];
  /** Where `job`'s bound services are served, "host:port" (services/catalog.ts endpointsFor). */
  endpointsFor?(job: Job): string[];
  /** The links of instances of `job` to other jobs (services/link-feed.ts). */
  linksFor?(job: Job): LinkSpec[];
  /**
   * An address for a new instance of `job` on its network (networks/): `address` to record, or
   * `reason` why none can be given now (the instance waits, like one no agent has room for).
   * Absent: networks are not served and the instance runs on its host's network.
   */
  addressFor?(job: Job, instance: string): { address?: { uuid: string; address: string }; reason?: string };
  /** What the agent needs to put an instance on its network (the record holds its address). */
  networkFor?(job: Job, record: InstanceRecord): NetworkSpec | undefined;
  /** Each reconcile of a job: the agents holding its instances follow its log drains (logs/drain-feed.ts). */
  drainsChanged?(job: Job): void;
  /** Each reconcile of a job: the agents holding its instances follow what it may reach outside (networks/egress-feed.ts). */
  egressChanged?(job: Job): void;
  /** Jobs that wait for room call this to be retried when agents change. */
  waiting(job: string, waiting: boolean): void;
  /** A one-off run's instance has ended (REMOVED). */
  runEnded?(record: InstanceRecord): void;
  /** The job is deleted: what is kept of it elsewhere (its log) goes too. */
  jobDeleted?(job: string): void;
}

/** No agent can take the instance now (the reason says why); trying again later may succeed. */
export class PlacementError extends Error {
  override readonly name = 'PlacementError';
}

/** A one-off run of a job: extra environment and packages for this instance only. */
export interface RunRequest {
  id: string;
  package: string;
  environment: Record<string, string>;
  extraPackageUuids: string[];
  stagerUrl?: string;
  /** Stager runs: the packages laid out under /stagerfs (the staged package's dependencies). */
  stagerfs?: PackageSpec[];
}

/** What the actor must do to the job after a runner step. */
export interface RunOutcome {
  /** Put the job in this state (errored: crash loop; finished: every instance ended for good). */
  state?: 'errored' | 'finished';
  reason?: string;
}

/** Removed instances kept per job for their exit codes. */
const KEEP_REMOVED = 10;
const RETRY_PLACEMENT_MS = 2_000;
/** The system tag of agents whose isolation driver gives an instance its own root file system (a container image). */
const ROOT_FS_TAG = 'isolation:bwrap';

/**
 * The job fields that shape a running instance: a change means new instances. Not the log drains:
 * the agents are told them while the instances run (logs/drain-feed.ts).
 */
export function runHash(job: Job): string {
  let hash = runHashes.get(job);
  if (hash === undefined) runHashes.set(job, (hash = computeRunHash(job)));
  return hash;
}

/** runHash per job object (a job is a new object per version, never changed in place). */
const runHashes = new WeakMap<Job, string>();

function computeRunHash(job: Job): string {
  const shaping = Object.keys(job.bindings).sort().filter((k) => !isOutboundBinding(job.bindings[k]!));
  const shape = {
    packages: job.packages.filter((p) => p.source !== 'system').map((p) => [p.uuid, p.install_path ?? '']),
    processes: job.processes,
    ports: job.ports.map((p) => [p.number, p.optional]),
    udp_ports: job.udp_ports,
    resources: job.resources,
    logs: job.logs,
    // What the bindings put in the environment (left out when there are none, so that the hash of
    // a job without bindings is what it was before bindings existed). Not the bindings to the
    // outbound network service: they put nothing there, and the agents follow them live (JobEgress).
    ...(shaping.length > 0 ? { bindings: shaping.map((k) => [k, job.bindings[k]!.uuid ?? '']) } : {}),
    // The network it is on, and the routes it asks for there (left out when unset, like bindings).
    ...(job.network_ref ? { network: job.network_ref.uuid } : {}),
    ...(job.aggregate_network_routes ? { network_routes: job.aggregate_network_routes } : {}),
    // The secrets installed (a new version of one means new instances; left out when none).
    ...(job.secrets?.length ? { secrets: job.secrets.map((s) => [s.uuid, s.version, s.env ?? '', s.file ?? '']) } : {}),
    // An app token (its variable and file) comes with the instances that start with the setting,
    // and with its turn: the setting removed and given again replaces instances that started
    // with a token of the earlier turn, which is dead. The first turn hashes as before turns
    // were kept.
    ...(job.app_token ? { app_token: job.app_token_since !== undefined && job.app_token_since > 1 ? job.app_token_since : true } : {}),
  };
  return createHash('sha1').update(canonicalJson(shape)).digest('hex').slice(0, 16);
}

/** Every tag placement matches against, per agent record (a new record on each Hello: made once per registration). */
const tagsOf = new WeakMap<AgentRecord, readonly string[]>();
function placementTags(a: AgentRecord): readonly string[] {
  let tags = tagsOf.get(a);
  if (!tags) {
    tags = [...a.tags, ...a.system_tags, `hostname:${a.hostname}`, ...(a.datacenter ? [`datacenter:${a.datacenter}`] : [])];
    tagsOf.set(a, tags);
  }
  return tags;
}

/** The job's hard or soft scheduling tags: those of `scheduling_tags` and those switched on in the map. */
function schedulingTags(job: Job, kind: 'hard' | 'soft'): string[] {
  const tags = new Set<string>();
  for (const s of job.scheduling_tags) for (const t of s[kind] ?? []) tags.add(t);
  for (const [t, on] of Object.entries(kind === 'hard' ? job.hard_scheduling_tags : job.soft_scheduling_tags)) if (on) tags.add(t);
  return [...tags];
}

export class Reconciler {
  readonly restarts = new RestartTracker();
  /** Instances that ended for good under restart mode `no`/`failure`. */
  #finished = 0;
  #waitingReason: string | undefined;
  #rolloutStartedMs: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #timerAt = 0;

  constructor(
    private readonly jobUuid: string,
    private readonly deps: Deps,
    private readonly run: RunDeps,
    /** Posts a reconcile message to the owning actor. */
    private readonly wake: () => void,
  ) {}

  /** Why instances wait for an agent, when they do. */
  get waitingReason(): string | undefined {
    return this.#waitingReason;
  }

  instances(): InstanceRecord[] {
    return this.run.table.ofJob(this.jobUuid);
  }

  /** True while any instance is not REMOVED. */
  get hasLive(): boolean {
    return this.instances().some((i) => i.state !== 'REMOVED');
  }

  /** The job was (re)started by a user: forget crash history and finished slots. */
  started(): void {
    this.restarts.reset();
    this.#finished = 0;
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.run.waiting(this.jobUuid, false);
  }

  /** The job is deleted: agents are told to stop its instances, whose records went with the job. */
  abandon(): void {
    for (const i of this.instances()) {
      if (i.state !== 'REMOVED') this.run.agents.send(i.agent_uuid, { stop: { instanceUuid: i.uuid, reason: 'job deleted', force: false } });
      this.run.table.delete(i.uuid);
    }
    this.dispose();
    this.run.jobDeleted?.(this.jobUuid);
  }

  #wakeAt(atMs: number): void {
    const now = this.deps.clock.nowMs();
    if (this.#timer && this.#timerAt <= atMs) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timerAt = atMs;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.wake();
    }, Math.max(0, atMs - now));
    this.#timer.unref();
  }

  /**
   * Writes `records` (and `extra`) and then puts them in the table. On a store that bounds its
   * batches (etcd) they go in batches of at most that many operations, each record wholly in
   * one: records are independent of each other.
   */
  async #persist(records: InstanceRecord[], extra: BatchOp[] = []): Promise<void> {
    const ops: BatchOp[] = records.map((r) => ({ type: 'put', key: keys.instance(r.job_uuid, r.uuid), value: JSON.stringify(r) }));
    ops.push(...extra);
    const most = this.deps.store.maxBatchOps ?? Infinity;
    if (ops.length <= most) await this.deps.store.batch(ops);
    else for (let i = 0; i < ops.length; i += most) await this.deps.store.batch(ops.slice(i, i + most));
    // A new instance's record is in the table already (it reserved its agent): not put twice.
    for (const r of records) if (this.run.table.get(r.uuid) !== r) this.run.table.put(r);
  }

  /** Drops removed instances beyond the few kept for their exit codes. */
  #trimRemovedOps(): BatchOp[] {
    const removed = this.instances()
      .filter((i) => i.state === 'REMOVED')
      .sort((a, b) => b.updated_ms - a.updated_ms);
    const drop = removed.slice(KEEP_REMOVED);
    for (const r of drop) this.run.table.delete(r.uuid);
    return drop.map((r) => ({ type: 'del', key: keys.instance(r.job_uuid, r.uuid) }));
  }

  /** Asks for a stop (persisted first, so that a reconnecting agent is told again). */
  async stop(instance: InstanceRecord, kind: NonNullable<InstanceRecord['stop']>, force = false): Promise<void> {
    if (instance.state === 'REMOVED') return;
    const record = instance.stop ? instance : { ...instance, stop: kind, updated_ms: this.deps.clock.nowMs() };
    if (record !== instance) await this.#persist([record]);
    this.run.agents.send(record.agent_uuid, { stop: { instanceUuid: record.uuid, reason: kind, force } });
  }

  /** Applies one report of the agent that runs the instance. Returns what the job must do. */
  async apply(agent: string, report: InstanceReport, job: Job | undefined): Promise<RunOutcome> {
    return this.applyReports([{ agent, report }], job);
  }

  /**
   * Applies reports of the job's instances in the order received: the records that change are
   * written together (one store batch for the reports that end nothing; an instance's record
   * written once however many of its reports there are), and the job is reconciled once after,
   * when an instance started running. A REMOVED report is applied on its own, in its place
   * (the restart policy decides on it). Returns what the job must do and how many reports were
   * applied: fewer than given when the job must change state before the rest are applied.
   */
  async applyReports(reports: readonly { agent: string; report: InstanceReport }[], job: Job | undefined): Promise<RunOutcome & { applied?: number }> {
    /** Records changed and not written yet, by instance. */
    const pending = new Map<string, InstanceRecord>();
    const flush = async () => {
      if (pending.size === 0) return;
      const records = [...pending.values()];
      pending.clear();
      await this.#persist(records);
    };
    let running = false;
    for (let n = 0; n < reports.length; n++) {
      const { agent, report } = reports[n]!;
      const uuid = report.instanceUuid ?? '';
      const current = pending.get(uuid) ?? this.run.table.get(uuid);
      const state = instanceStateName(report.state);
      if (!current || current.agent_uuid !== agent || !state) {
        // Not ours (moved elsewhere, or the job is gone): make sure it stops.
        if (state !== 'REMOVED') this.run.agents.send(agent, { stop: { instanceUuid: uuid, reason: 'unknown instance', force: false } });
        continue;
      }
      if (current.state === 'REMOVED') continue;
      const now = this.deps.clock.nowMs();
      const agentInfo = this.run.agents.get(agent);
      const next: InstanceRecord = {
        ...current,
        state,
        exited: report.exited ?? false,
        exit_code: report.exitCode ?? 0,
        failed: report.failed ?? false,
        reason: report.reason ?? '',
        ports: Object.keys(report.ports ?? {}).length > 0 ? { ...(report.ports as Record<string, string>) } : current.ports,
        host: agentInfo?.record.hostname ?? current.host,
        updated_ms: now,
        ...(RUNNING_STATES.has(state) && current.running_since_ms === undefined ? { running_since_ms: now } : {}),
      };
      if (state !== 'REMOVED') {
        // What the record holds already (an agent re-attaching after a restart or a takeover
        // reports each of its instances as it is): nothing written. On etcd, 100,000 such writes
        // at once held its apply loop behind for seconds, and the lease's renewals with it.
        if (unchangedBy(current, next)) {
          if (!pending.has(uuid)) this.run.table.reported(current);
          continue;
        }
        pending.set(uuid, next);
        if (job && next.stop === undefined && current.state !== state && RUNNING_STATES.has(state)) running = true;
        continue;
      }
      await flush();
      const outcome = await this.#ended(next, job);
      if (outcome.state) return { ...outcome, applied: n + 1 };
    }
    await flush();
    if (running && job) return this.reconcile(job);
    return {};
  }

  /** An instance reached REMOVED (reported, or lost with its agent). */
  async #ended(record: InstanceRecord, job: Job | undefined): Promise<RunOutcome> {
    this.run.table.put(record);
    const trim = this.#trimRemovedOps();
    await this.#persist([record], trim);
    if (record.run) {
      this.run.runEnded?.(record);
      return {};
    }
    this.deps.log.info('instance removed', {
      job: this.jobUuid, instance: record.uuid, agent: record.agent_uuid, failed: record.failed,
      ...(record.exited ? { exit_code: record.exit_code } : {}), ...(record.reason ? { reason: record.reason } : {}),
      ...(record.stop ? { stop: record.stop } : {}), ...(record.lost ? { lost: true } : {}),
    });
    if (!job || job.state !== 'started') return {};
    const decision = this.restarts.ended(job, record, this.deps.clock.nowMs());
    if (decision.errored) return { state: 'errored', reason: decision.errored };
    // A slot is finished when its instance ended on its own, or by a user's stop, and is not replaced.
    if (!decision.replace && (!record.stop || record.stop === 'user')) this.#finished++;
    return this.reconcile(job);
  }

  /** The agent of these instances is lost: they are gone as far as the cluster is concerned. */
  async agentLost(agent: string, job: Job | undefined): Promise<RunOutcome> {
    const now = this.deps.clock.nowMs();
    const name = this.run.agents.get(agent)?.record.hostname ?? agent;
    let outcome: RunOutcome = {};
    for (const i of this.instances()) {
      if (i.agent_uuid !== agent || i.state === 'REMOVED') continue;
      outcome = await this.#ended(
        { ...i, state: 'REMOVED', failed: true, lost: true, reason: `instance manager ${name} was lost`, updated_ms: now },
        job,
      );
      if (outcome.state) return outcome;
    }
    return outcome;
  }

  /** The agent re-registered without listing this instance. */
  async missing(instanceUuid: string, job: Job | undefined): Promise<RunOutcome> {
    const record = this.run.table.get(instanceUuid);
    if (!record || record.state === 'REMOVED') return {};
    if (record.state === 'NEW' && job && !record.stop && !record.run) {
      // Placed while the agent was away, never acknowledged: send it again.
      const spec = await this.#spec(job, record);
      this.run.agents.send(record.agent_uuid, { start: { spec } });
      return {};
    }
    return this.#ended(
      { ...record, state: 'REMOVED', failed: true, lost: true, reason: 'the instance manager no longer had it', updated_ms: this.deps.clock.nowMs() },
      job,
    );
  }

  /**
   * Starts a one-off run of the job (a stager run) on an agent with room for it. Throws
   * when no agent fits: the caller's run fails with that reason.
   */
  async launch(job: Job, request: RunRequest, packages: PackageSpec[]): Promise<InstanceRecord> {
    const { request: placement, candidates } = this.#placing(job, packages);
    const placed = place(placement, candidates);
    if (placed.agent === undefined) throw new PlacementError(`no instance manager can run ${job.fqn}: ${placed.reason}`);
    // A one-off run is never put on a network, so it never waits for an address.
    const record = this.#newRecord(job, placed.agent, runHash(job), request)!;
    this.run.table.put(record);
    await this.#send(job, [record], packages, request);
    return record;
  }

  /** Makes the instances match the job. `job` undefined: the job is gone, stop everything. */
  async reconcile(job: Job | undefined): Promise<RunOutcome> {
    const now = this.deps.clock.nowMs();
    const live = this.instances().filter((i) => i.state !== 'REMOVED' && i.run === undefined);
    const active = live.filter((i) => i.stop === undefined);
    if (job) this.run.drainsChanged?.(job);
    if (job) this.run.egressChanged?.(job);
    if (!job || job.state !== 'started') {
      for (const i of active) await this.stop(i, 'job');
      this.#setWaiting(undefined);
      this.#rolloutStartedMs = undefined;
      return {};
    }
    const hash = runHash(job);
    const current = active.filter((i) => i.run_hash === hash);
    const outdated = active.filter((i) => i.run_hash !== hash);
    const desired = Math.max(0, job.num_instances - this.#finished);

    // 1. scale down: not-yet-running and newest first.
    if (current.length > desired) {
      const order = [...current].sort(
        (a, b) => Number(RUNNING_STATES.has(a.state)) - Number(RUNNING_STATES.has(b.state)) || b.created_ms - a.created_ms,
      );
      for (const i of order.slice(0, current.length - desired)) await this.stop(i, 'scale');
      current.splice(0, current.length, ...order.slice(current.length - desired));
    }

    // 2. replace what runs an older shape.
    const rolling = job.rollout.rolling_mode;
    let startable = desired - current.length;
    if (outdated.length > 0) {
      this.#rolloutStartedMs ??= now;
      if (!rolling) {
        for (const i of outdated) await this.stop(i, 'replace');
      } else {
        const deadline = this.#rolloutStartedMs + job.rollout.force_stop_old_instances_after * 1000;
        const runningCurrent = current.filter((i) => RUNNING_STATES.has(i.state)).length;
        const keep = now >= deadline ? 0 : Math.max(0, desired - runningCurrent);
        const byAge = [...outdated].sort((a, b) => a.created_ms - b.created_ms);
        for (const i of byAge.slice(0, Math.max(0, byAge.length - keep))) await this.stop(i, 'replace');
        if (keep > 0) this.#wakeAt(deadline);
        // One new instance at a time while old ones still serve.
        const settling = current.some((i) => !RUNNING_STATES.has(i.state));
        startable = settling || job.rolling_mode_paused ? 0 : Math.min(startable, 1);
      }
    } else {
      this.#rolloutStartedMs = undefined;
    }

    // 3. scale up, after the restart delay.
    if (startable <= 0) {
      this.#setWaiting(undefined);
      if (this.#finished > 0 && desired === 0 && live.length === 0) {
        return { state: 'finished', reason: `every instance ended and restart mode "${job.restart.restart_mode}" does not restart it` };
      }
      return {};
    }
    if (now < this.restarts.notBefore) {
      this.#wakeAt(this.restarts.notBefore);
      return {};
    }
    const packages = await this.run.packagesFor(job);
    // Every instance to start is placed first, each reserving its agent's resources at once (so
    // the next placement, and any other job's, sees them taken); then they are written in one
    // store batch and the agents told. One write per instance made a job's placements wait for
    // one commit each.
    const placing = this.#placing(job, packages);
    const records: InstanceRecord[] = [];
    let waiting: string | undefined;
    let noAddress = false;
    const queue = new PlacementQueue(placing.request, placing.candidates);
    for (let n = 0; n < startable; n++) {
      const placed = queue.next();
      if (placed.agent === undefined) {
        waiting = placed.reason;
        break;
      }
      const record = this.#newRecord(job, placed.agent, hash);
      if (!record) {
        // No address on the job's network now (it said why and wakes later).
        noAddress = true;
        break;
      }
      this.run.table.put(record);
      queue.reserved(placed.agent, this.run.table.provisioned(placed.agent), this.run.table.liveOfJobOn(job.uuid, placed.agent));
      records.push(record);
    }
    await this.#send(job, records, packages);
    if (noAddress) return {};
    if (waiting !== undefined) {
      this.#setWaiting(waiting);
      this.#wakeAt(now + RETRY_PLACEMENT_MS);
      return {};
    }
    this.#setWaiting(undefined);
    return {};
  }

  #setWaiting(reason: string | undefined): void {
    if (reason !== this.#waitingReason && reason) this.deps.log.warn('instances wait for an instance manager', { job: this.jobUuid, reason });
    this.#waitingReason = reason;
    this.run.waiting(this.jobUuid, reason !== undefined);
  }

  /**
   * What placing instances of `job` needs: the request, and the connected agents as candidates
   * (made once for all the instances a reconcile starts: a PlacementQueue keeps them in order as
   * each takes one). A container image (a package that is its own root file system) runs only
   * where the isolation driver can give it that root: `isolation:bwrap` is then a hard tag of
   * the placement, whatever the job's own tags.
   */
  #placing(job: Job, packages: readonly PackageSpec[]): { request: PlacementRequest; candidates: PlacementCandidate[] } {
    const { table, agents } = this.run;
    // An instance on a virtual network needs an agent that makes network namespaces and bridges.
    const hardTags = [...schedulingTags(job, 'hard'), ...(job.network_ref ? [NETWORK_AGENT_TAG] : [])];
    if (packages.some((p) => p.rootFilesystem) && !hardTags.includes(ROOT_FS_TAG)) hardTags.push(ROOT_FS_TAG);
    const request: PlacementRequest = { resources: job.resources, hardTags, softTags: schedulingTags(job, 'soft') };
    const candidates: PlacementCandidate[] = agents.connected().map((a) => ({
      uuid: a.uuid,
      tags: placementTags(a),
      total: a.total,
      provisioned: table.provisioned(a.uuid),
      jobInstances: table.liveOfJobOn(job.uuid, a.uuid),
    }));
    return { request, candidates };
  }

  /** The record of a new instance of `job` on `agent`; undefined when it must wait for an address on the job's network. */
  #newRecord(job: Job, agent: string, hash: string, oneOff?: RunRequest): InstanceRecord | undefined {
    const now = this.deps.clock.nowMs();
    const uuid = this.deps.ids.uuid();
    const onNetwork = job.network_ref && !oneOff ? this.run.addressFor?.(job, uuid) : undefined;
    if (onNetwork?.reason !== undefined) {
      this.#setWaiting(onNetwork.reason);
      this.#wakeAt(now + RETRY_PLACEMENT_MS);
      return undefined;
    }
    return {
      uuid,
      job_uuid: job.uuid,
      job_version_id: job.version_id,
      run_hash: hash,
      agent_uuid: agent,
      host: this.run.agents.get(agent)?.record.hostname ?? '',
      state: 'NEW',
      exited: false,
      exit_code: 0,
      failed: false,
      reason: '',
      ports: {},
      resources: job.resources,
      created_ms: now,
      updated_ms: now,
      ...(oneOff ? { run: { id: oneOff.id, package: oneOff.package } } : {}),
      ...(onNetwork?.address ? { network: onNetwork.address } : {}),
    };
  }

  /**
   * Writes the records of new instances (already in the table, reserving their agents), then
   * tells each agent to start its own. When the write fails they are taken out of the table
   * again (nothing was started), and the error is the caller's.
   */
  async #send(job: Job, records: InstanceRecord[], packages: PackageSpec[], oneOff?: RunRequest): Promise<void> {
    if (records.length === 0) return;
    try {
      await this.#persist(records);
    } catch (err) {
      for (const r of records) if (this.run.table.get(r.uuid) === r) this.run.table.delete(r.uuid);
      throw err;
    }
    /** [instance, agent] of each: one log line for the instances placed together (a line each was a few per cent of the controller's CPU while placing). */
    const placed: [string, string][] = [];
    for (const record of records) {
      const spec = this.#specWith(job, record, packages);
      if (oneOff) {
        spec.environment = { ...spec.environment, ...oneOff.environment };
        if (oneOff.stagerUrl) spec.stagerUrl = oneOff.stagerUrl;
        if (oneOff.stagerfs) spec.stagerfs = oneOff.stagerfs;
      }
      this.run.agents.send(record.agent_uuid, { start: { spec } });
      placed.push([record.uuid, record.agent_uuid]);
    }
    this.deps.log.info('instances placed', { job: job.uuid, version: job.version_id, count: records.length, instances: placed, ...(oneOff ? { run: oneOff.id } : {}) });
  }

  async #spec(job: Job, record: InstanceRecord): Promise<InstanceSpec> {
    return this.#specWith(job, record, await this.run.packagesFor(job));
  }

  #specWith(job: Job, record: InstanceRecord, packages: PackageSpec[]): InstanceSpec {
    const name = mainProcessName(Object.keys(job.processes));
    const p = name === undefined ? undefined : job.processes[name];
    return {
      instanceUuid: record.uuid,
      jobUuid: job.uuid,
      jobFqn: job.fqn,
      jobVersionId: job.version_id,
      packages,
      process: {
        name: name ?? 'app',
        startCommand: p?.start_command ?? '',
        startCommandRaw: p?.start_command_raw ?? [],
        startCommandTimeoutS: p?.start_command_timeout ?? 30,
        stopCommand: p?.stop_command ?? '',
        stopCommandRaw: p?.stop_command_raw ?? [],
        stopTimeoutS: p?.stop_timeout ?? 5,
        environment: p?.environment ?? {},
        user: p?.user ?? '',
        group: p?.group ?? '',
      },
      ports: job.ports.map((port) => ({ number: port.number, optional: port.optional })),
      resources: job.resources,
      logs: job.logs.map((l) => ({ file: l.file, channel: l.channel })),
      egress: egressRules(job),
      endpoints: this.run.endpointsFor?.(job) ?? [],
      environment: {
        PLATFORM_JOB_UUID: job.uuid,
        PLATFORM_JOB_FQN: job.fqn,
        PLATFORM_JOB_NAME: job.name,
        PLATFORM_INSTANCE_UUID: record.uuid,
        ...(this.run.environmentFor?.(job) ?? {}),
      },
      links: this.run.linksFor?.(job) ?? [],
      drains: drainSpecs(job.drains),
      files: this.run.filesFor?.(job) ?? [],
      ...(record.network ? { network: this.run.networkFor?.(job, record) ?? null } : {}),
    };
  }
}

/** Whether `next` (a report applied to `current`) changes nothing but the time of the change. */
export function unchangedBy(current: InstanceRecord, next: InstanceRecord): boolean {
  return (
    current.state === next.state &&
    current.exited === next.exited &&
    current.exit_code === next.exit_code &&
    current.failed === next.failed &&
    current.reason === next.reason &&
    current.host === next.host &&
    current.running_since_ms === next.running_since_ms &&
    samePorts(current.ports, next.ports)
  );
}

function samePorts(a: Record<string, string>, b: Record<string, string>): boolean {
  if (a === b) return true;
  const keysA = Object.keys(a);
  return keysA.length === Object.keys(b).length && keysA.every((k) => a[k] === b[k]);
}
