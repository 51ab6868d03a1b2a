/**
 * InstanceManager: the agent's instances, keyed by uuid, and the controller's requests on them.
 *
 * Contracts (agent.proto):
 * - StartInstance for an instance it already has is answered with its current report (no second
 *   instance); StopInstance for an unknown one with a REMOVED report.
 * - Reports are sent in the order they happen. While the session is not open they are not
 *   queued: the next Hello carries the latest state of every instance, and instances that were
 *   REMOVED meanwhile (kept in a bounded list) so that their exit codes are not lost.
 */
import { chmodSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { instanceStateNumber, type FilesReply, type InstanceFiles, type InstanceReport, type InstanceSpec, type ListFiles, type StopInstance } from '@platform/proto';
import { listDirectory } from '../files/list.js';
import type { Logger } from '@platform/proto/common';
import type { LogShipper } from '../logs/shipper.js';
import { InstanceRunner, type RunnerDeps } from './instance.js';
import { normalizeSpec } from './spec.js';
import { checkPlatformFiles } from './platform-files.js';

export interface ManagerDeps extends Omit<RunnerDeps, 'onReport' | 'onFinalLogs'> {
  instancesDir: string;
  shipper: LogShipper;
  /** Sends a report now; false when the session is not open. */
  sendReport(report: InstanceReport): boolean;
}

const MAX_UNDELIVERED = 1000;

export class InstanceManager {
  readonly #runners = new Map<string, InstanceRunner>();
  readonly #undelivered = new Map<string, InstanceReport>();
  readonly #log: Logger;
  readonly #runnerDeps: RunnerDeps;

  constructor(private readonly deps: ManagerDeps) {
    this.#log = deps.log;
    // Traversable, not listable: each instance's uid reaches its own root and nothing else.
    mkdirSync(deps.instancesDir, { recursive: true, mode: 0o711 });
    if (deps.identities) chmodSync(deps.instancesDir, 0o711);
    this.#runnerDeps = {
      ...deps,
      onReport: (r) => this.#onReport(r),
      onFinalLogs: (t) => deps.shipper.final(t),
    };
  }

  #onReport(report: InstanceReport): void {
    const uuid = report.instanceUuid ?? '';
    const removed = report.state === instanceStateNumber('REMOVED');
    if (removed) {
      this.#runners.delete(uuid);
    }
    if (this.deps.sendReport(report)) return;
    if (removed) {
      this.#undelivered.set(uuid, report);
      if (this.#undelivered.size > MAX_UNDELIVERED) this.#undelivered.delete(this.#undelivered.keys().next().value as string);
    }
  }

  /** Re-attaches to (or reports) the instances left on disk by an earlier run. */
  recover(): void {
    let names: string[];
    try {
      names = readdirSync(this.deps.instancesDir);
    } catch {
      names = [];
    }
    for (const name of names) {
      const dir = join(this.deps.instancesDir, name);
      const rec = InstanceRunner.readRecord(dir);
      if (!rec || rec.spec.instanceUuid !== name) {
        this.#log.warn('removing an instance directory without a readable record', { dir });
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      const runner = InstanceRunner.restore(this.deps.instancesDir, rec, this.#runnerDeps);
      if (runner.state !== 'REMOVED') {
        this.#runners.set(runner.uuid, runner);
        if (runner.tailer) this.deps.shipper.add(runner.tailer);
      }
    }
  }

  /** Instances for the Hello: every live one, and those removed while the session was down. */
  helloInstances(): InstanceReport[] {
    return [...[...this.#runners.values()].map((r) => r.report()), ...this.#undelivered.values()];
  }

  /** Forget the undelivered reports that a Hello carried (once the controller welcomed it). */
  delivered(reports: readonly InstanceReport[]): void {
    for (const r of reports) {
      const u = this.#undelivered.get(r.instanceUuid ?? '');
      if (u === r) this.#undelivered.delete(r.instanceUuid ?? '');
    }
  }

  /** Applies Welcome.stop (adopted and unlisted instances keep running). */
  welcome(stop: readonly string[]): void {
    for (const uuid of stop) void this.#runners.get(uuid)?.stop({ reason: 'controller: not adopted' });
  }

  start(spec: InstanceSpec): void {
    const existing = this.#runners.get(spec.instanceUuid ?? '');
    if (existing) {
      this.deps.sendReport(existing.report());
      return;
    }
    let plan;
    try {
      plan = normalizeSpec(spec);
    } catch (err) {
      this.#log.warn('StartInstance refused', { err, instance: spec.instanceUuid });
      this.#sendFailedStart(spec.instanceUuid ?? '', spec.jobUuid ?? '', spec.jobVersionId ?? 0, (err as Error).message);
      return;
    }
    let runner: InstanceRunner;
    try {
      runner = InstanceRunner.create(this.deps.instancesDir, plan, this.#runnerDeps);
    } catch (err) {
      this.#log.error('cannot create the instance directory', { err, instance: plan.instanceUuid });
      this.#sendFailedStart(plan.instanceUuid, plan.jobUuid, plan.jobVersionId, `agent: ${(err as Error).message}`);
      return;
    }
    this.#runners.set(plan.instanceUuid, runner);
    if (runner.tailer) this.deps.shipper.add(runner.tailer);
    this.#log.info('instance starting', { instance: plan.instanceUuid, job: plan.jobUuid, fqn: plan.jobFqn });
    void runner.start();
  }

  /** A start that never got a runner: reported REMOVED and failed, with the reason. */
  #sendFailedStart(instanceUuid: string, jobUuid: string, jobVersionId: number, reason: string): void {
    const now = this.deps.now();
    this.deps.sendReport({
      instanceUuid, jobUuid, jobVersionId, state: instanceStateNumber('REMOVED'), failed: true, reason, timeMs: now, createdMs: now,
    });
  }

  stop(msg: StopInstance): void {
    const uuid = msg.instanceUuid ?? '';
    const runner = this.#runners.get(uuid);
    if (!runner) {
      const now = this.deps.now();
      this.deps.sendReport({ instanceUuid: uuid, state: instanceStateNumber('REMOVED'), timeMs: now, stopRequested: true });
      return;
    }
    void runner.stop({ force: !!msg.force, reason: msg.reason ?? '' });
  }

  /** New contents of an instance's platform files (its renewed app token). */
  updateFiles(msg: InstanceFiles): void {
    const runner = this.#runners.get(msg.instanceUuid ?? '');
    if (!runner) return;
    try {
      runner.updateFiles(checkPlatformFiles((msg.files ?? []).map((f) => ({ name: f.name ?? '', content: f.content ?? new Uint8Array() }))));
    } catch (err) {
      this.#log.warn('platform files not updated', { instance: msg.instanceUuid, err: (err as Error).message });
    }
  }

  async listFiles(msg: ListFiles): Promise<FilesReply> {
    const requestId = msg.requestId ?? '';
    const runner = this.#runners.get(msg.instanceUuid ?? '');
    if (!runner || runner.state === 'TEARDOWN' || runner.state === 'REMOVED') {
      return { requestId, error: 'not_found', errorKind: 'not_found' };
    }
    const r = await listDirectory(runner.root, msg.path ?? '');
    if ('entries' in r) return { requestId, entries: r.entries };
    return { requestId, error: r.error, errorKind: r.kind };
  }

  get(uuid: string): InstanceRunner | undefined {
    return this.#runners.get(uuid);
  }

  runners(): IterableIterator<InstanceRunner> {
    return this.#runners.values();
  }

  get size(): number {
    return this.#runners.size;
  }

  countByState(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const r of this.#runners.values()) counts[r.state] = (counts[r.state] ?? 0) + 1;
    return counts;
  }

  /** Stops every instance (the --stop-instances-on-exit path); resolves when all are REMOVED. */
  async stopAll(reason: string): Promise<void> {
    await Promise.all([...this.#runners.values()].map((r) => r.stop({ reason })));
  }
}
