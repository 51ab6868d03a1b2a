/**
 * Test support: an InstanceManager on a temporary directory with the real isolation driver,
 * cgroups (off unless asked), an in-memory BlobSource (our own interface) and an outlet that
 * records reports and log lines; `options.steps` replaces the setup steps (default INSTANCE_STEPS).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { instanceStateName, type InstanceReport, type InstanceSpec, type LogLine } from '@platform/proto';
import { BwrapDriver, probeBwrap } from '../isolation/bwrap.js';
import { Cgroups } from '../isolation/cgroups.js';
import { canChangeIdentity, UidAllocator, type UidRange } from '../isolation/identity.js';
import type { IsolationDriver } from '../isolation/driver.js';
import { ProcessDriver } from '../isolation/process.js';
import { silentLogger, type Logger } from '@platform/proto/common';
import { LogShipper } from '../logs/shipper.js';
import { AgentMetrics } from '../metrics/metrics.js';
import { PackageCache, type BlobSource } from '../packages/cache.js';
import type { InstanceStep } from '../runner/context.js';
import { InstanceManager } from '../runner/manager.js';
import { PortAllocator } from '../runner/ports.js';
import { eventually } from './wait.js';
import { sha256Digest } from './tar.js';

export class Harness {
  readonly dir = mkdtempSync(join(tmpdir(), 'agent-runner-'));
  readonly reports: InstanceReport[] = [];
  readonly lines: LogLine[] = [];
  readonly blobs = new Map<string, Buffer>();
  readonly metrics = new AgentMetrics();
  readonly manager: InstanceManager;
  readonly shipper: LogShipper;
  open = true;

  readonly identities: UidAllocator | undefined;

  /**
   * `uids`: give instances their own uids (the agent as root does), from TEST_UIDS, one
   * allocator for every harness of the test process; the test must then run as root (see
   * `canChangeIdentity`).
   */
  constructor(readonly driver: IsolationDriver = new ProcessDriver(), readonly cgroups: Cgroups = Cgroups.disabled('tests'), uids = false, options: { steps?: readonly InstanceStep[]; log?: Logger } = {}) {
    const blobs = this.blobs;
    this.identities = uids ? testUids : undefined;
    // As the agent does with its data directory: the instances' uids must reach their roots.
    if (uids) chmodSync(this.dir, 0o711);
    const source: BlobSource = {
      async *fetch(digest: string) {
        const data = blobs.get(digest);
        if (!data) throw new Error('NOT_FOUND: no such blob');
        yield data;
      },
    };
    this.shipper = new LogShipper({ canSend: () => this.open, sendLogs: (l) => (this.open ? (this.lines.push(...l), true) : false) }, this.metrics, { intervalMs: 50 });
    this.manager = new InstanceManager({
      instancesDir: join(this.dir, 'instances'),
      driver,
      cgroups,
      identities: this.identities,
      cache: new PackageCache(join(this.dir, 'cache'), source, this.metrics),
      ports: new PortAllocator(),
      address: '127.0.0.1',
      log: options.log ?? silentLogger,
      metrics: this.metrics,
      now: Date.now,
      shipper: this.shipper,
      sendReport: (r) => (this.open ? (this.reports.push(r), true) : false),
      pollMs: 50,
      diskCheckMs: 100,
      ...(options.steps ? { steps: options.steps } : {}),
    });
    this.shipper.start();
  }

  /** Registers an archive; returns its package spec fields. */
  addPackage(archive: Buffer, installPath = '/'): { digest: string; length: number; installPath: string } {
    const digest = sha256Digest(archive);
    this.blobs.set(digest, archive);
    return { digest, length: archive.length, installPath };
  }

  spec(over: Partial<InstanceSpec> = {}): InstanceSpec {
    return { instanceUuid: randomUUID(), jobUuid: randomUUID(), jobFqn: 'job::/test::app', jobVersionId: 1, ...over };
  }

  states(uuid: string): string[] {
    return this.reports.filter((r) => r.instanceUuid === uuid).map((r) => instanceStateName(r.state) ?? '?');
  }

  last(uuid: string): InstanceReport | undefined {
    return this.reports.filter((r) => r.instanceUuid === uuid).at(-1);
  }

  text(uuid: string, stream = 'stdout'): string[] {
    return this.lines.filter((l) => l.instanceUuid === uuid && l.stream === stream).map((l) => l.text ?? '');
  }

  waitState(uuid: string, state: string, timeoutMs = 60_000): Promise<InstanceReport> {
    return eventually(() => this.reports.find((r) => r.instanceUuid === uuid && instanceStateName(r.state) === state), `${uuid} ${state} (seen ${this.states(uuid).join(',')})`, timeoutMs);
  }

  /** Stops every instance, then removes the harness's directory: tests leave nothing in /tmp. */
  async close(): Promise<void> {
    await this.manager.stopAll('test done');
    this.shipper.stop();
    await rm(this.dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

let seccompFiles = 0;
let seccompTmp: string | undefined;
/** One directory per test process for the drivers' seccomp filters, removed when the process exits. */
function seccompDir(): string {
  if (seccompTmp === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'agent-seccomp-'));
    seccompTmp = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return seccompTmp;
}

/** A bwrap driver for tests (its seccomp filter in a temporary directory), or undefined without bwrap. */
export function testBwrapDriver(): BwrapDriver | undefined {
  const probe = probeBwrap(canChangeIdentity() ? TEST_UIDS.first : undefined);
  if (!probe.ok) return undefined;
  return new BwrapDriver(probe.path, { seccompFile: join(seccompDir(), `seccomp-${++seccompFiles}.bpf`) });
}

/**
 * Instance uids for unit tests: a range of their own per test process (tests run in parallel
 * processes; two harnesses must never hand out the same uid).
 */
export const TEST_UIDS: UidRange = { first: 2_110_000_000 + (process.pid % 10_000) * 100, count: 100 };
const testUids = new UidAllocator(TEST_UIDS);
