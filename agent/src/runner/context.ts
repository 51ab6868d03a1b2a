/**
 * What an instance's runner and its setup steps share: the runner's dependencies, the record
 * persisted in `<dir>/instance.json` (and how it is read and written), and the context each
 * step receives.
 */
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InstanceReport, InstanceStateName } from '@platform/proto';
import type { Logger } from '@platform/proto/common';
import type { Cgroups } from '../isolation/cgroups.js';
import type { IsolationDriver, LaunchRequest } from '../isolation/driver.js';
import type { HostIdentity, UidAllocator } from '../isolation/identity.js';
import type { LogTailer } from '../logs/tailer.js';
import type { AgentMetrics } from '../metrics/metrics.js';
import type { PackageCache } from '../packages/cache.js';
import type { HostNetworks, NetworkAttachment } from '../network/host-networks.js';
import type { PortAllocator } from './ports.js';
import type { RunSpec } from './spec.js';
import type { Step } from './steps/step.js';

export interface RunnerDeps {
  driver: IsolationDriver;
  cgroups: Cgroups;
  /**
   * The instance uids (identity.ts) when the agent gives each instance its own; undefined when
   * instances run as the agent's user (an agent that is not root, or --allow-root-instances).
   */
  identities?: UidAllocator | undefined;
  cache: PackageCache;
  ports: PortAllocator;
  /** Host address at which instance ports are reachable (reported in `ports`). */
  address: string;
  /** Virtual networks on this host; absent: instances on a network are refused (steps/network.ts). */
  networks?: HostNetworks | undefined;
  log: Logger;
  metrics: AgentMetrics;
  now: () => number;
  /** Called on every state change, in order. */
  onReport(report: InstanceReport): void;
  /** Called once at teardown, before the directory is removed: take the last log lines. */
  onFinalLogs(tailer: LogTailer): void;
  /** How often readiness and (after a re-attach) liveness are checked. */
  pollMs?: number;
  /** How often the disk use of a running instance is measured (default 2000 ms; disk-monitor.ts). */
  diskCheckMs?: number;
  /** The setup steps, in order (default INSTANCE_STEPS, steps/index.ts). */
  steps?: readonly InstanceStep[];
}

/** What instance.json holds. */
export interface InstanceRecord {
  version: 1;
  spec: RunSpec;
  state: InstanceStateName;
  createdMs: number;
  stateTimeMs: number;
  /** When the process was started: files changed after it are what a snapshot takes. */
  processStartedMs?: number;
  launch?: LaunchRequest;
  /** The instance's own host uid/gid, from the agent's range (kept here so a restart reserves it). */
  identity?: HostIdentity;
  pid?: number;
  pidStart?: number;
  cgroups: string[];
  ports: Record<string, string>;
  allocatedPorts: number[];
  /** What the instance holds on its virtual network (steps/network.ts). */
  network?: NetworkAttachment;
  stopRequested: boolean;
  exited: boolean;
  exitCode: number;
  failed: boolean;
  reason: string;
}

/**
 * What a setup step works on. Steps hand their products to later steps here (`portEnv`, `env`,
 * and the record's `launch`); what must survive an agent restart goes into `rec` and is saved
 * with `persist()`.
 */
export interface InstanceContext {
  readonly spec: RunSpec;
  /** The record, saved to instance.json by `persist()` and at every state change. */
  readonly rec: InstanceRecord;
  /** `<instances>/<uuid>`: the record, the exit file, logs/ and root/. */
  readonly dir: string;
  /** The instance's root file system (what it sees as `/` under bwrap). */
  readonly root: string;
  readonly logsDir: string;
  readonly deps: RunnerDeps;
  /** Bound to the instance and its job. */
  readonly log: Logger;
  /** Aborted when a stop arrives during setup: long steps (fetches) give up. */
  readonly signal: AbortSignal;
  readonly tailer: LogTailer | undefined;
  persist(): void;
  /** PORT and PORT_<n> (the ports step). */
  portEnv: Record<string, string>;
  /** The process's environment (the environment step; STAGERFS added by the launch step). */
  env: Record<string, string>;
}

export type InstanceStep = Step<InstanceContext>;

const RECORD_FILE = 'instance.json';

/**
 * Reads `<dir>/instance.json`, or, when there is none, the new record that was to replace it
 * (`instance.json.tmp`: writeRecord stopped between removing the old and renaming the new);
 * undefined when neither is there and whole.
 */
export function readRecord(dir: string): InstanceRecord | undefined {
  const file = join(dir, RECORD_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    try {
      text = readFileSync(`${file}.tmp`, 'utf8');
    } catch {
      return undefined;
    }
  }
  try {
    const rec = JSON.parse(text) as InstanceRecord;
    return rec.version === 1 && rec.spec?.instanceUuid ? rec : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Replaces `<dir>/instance.json` with `rec` (whenever the agent is killed, a reader finds the old
 * record or the new one: readRecord). The new one is written beside it, the old one removed,
 * the new one renamed into its place: renamed over an existing file instead, on ext4 (its
 * auto_da_alloc, on by default) the rename starts writing the new file's blocks out and waits
 * for the disk's queue, on the agent's thread (0.5 ms a write on an idle disk, several on a
 * busy one, against 0.08 ms).
 */
export function writeRecord(dir: string, rec: InstanceRecord): void {
  const file = join(dir, RECORD_FILE);
  // 0600: the record holds the instance's environment, which may carry credentials.
  writeFileSync(`${file}.tmp`, JSON.stringify(rec), { mode: 0o600 });
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  renameSync(`${file}.tmp`, file);
}

/** A setup failure whose message is the instance's reason. */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}
