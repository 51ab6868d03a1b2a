/**
 * What an instance's runner and its setup steps share: the runner's dependencies, the record
 * persisted in `<dir>/instance.json` (and how it is read and written), and the context each
 * step receives.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
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

const TEMP = /^instance\.json\.(\d+)\.tmp$/;

/**
 * Reads `<dir>/instance.json`, or, when there is none, the newest whole record that was to
 * replace it (`instance.json.<n>.tmp`: a RecordFile write stopped between removing the old one
 * and renaming the new one); undefined when there is none.
 */
export function readRecord(dir: string): InstanceRecord | undefined {
  const parse = (file: string) => {
    try {
      const rec = JSON.parse(readFileSync(join(dir, file), 'utf8')) as InstanceRecord;
      return rec.version === 1 && rec.spec?.instanceUuid ? rec : undefined;
    } catch {
      return undefined;
    }
  };
  if (existsSync(join(dir, RECORD_FILE))) return parse(RECORD_FILE);
  for (const [file] of tempRecords(dir)) {
    const rec = parse(file);
    if (rec) return rec;
  }
  return undefined;
}

/** The records being written in `dir` (file name and number), newest first. */
function tempRecords(dir: string): [string, number][] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((n): [string, number][] => {
    const m = TEMP.exec(n);
    return m ? [[n, Number(m[1])]] : [];
  }).sort((a, b) => b[1] - a[1]);
}

/**
 * An instance's record on disk, `<dir>/instance.json`, replaced whole at each write: whenever
 * the agent is killed, readRecord finds the record of the last write done or of a later one.
 *
 * A write puts the record in a file of its own beside it (`instance.json.<n>.tmp`, numbered in
 * the order of the writes), then removes the old record and renames the new one into its place;
 * a write done after a later one (writeSoon) is dropped. Renamed over the old record instead, on
 * ext4 (auto_da_alloc, on by default) the rename starts writing the new file's blocks out and
 * waits for the disk's queue, on the agent's thread: 0.5 ms a write on an idle disk and several
 * on a busy one, against 0.1 ms.
 *
 * `writeNow` writes at once (the record is on disk when it returns: the pid of a process just
 * started, a stop). `writeSoon` writes the record as it is now from the thread pool, then renames
 * it into place on the agent's thread: making a file is what waits most for a busy disk, and a
 * start that writes its record several times would hold the agent's thread for all of them.
 */
export class RecordFile {
  #last = 0;
  #done = 0;
  readonly #pending = new Set<Promise<void>>();

  constructor(
    readonly dir: string,
    private readonly onError: (err: unknown) => void,
  ) {
    // Numbers after those an earlier run left (readRecord takes the highest).
    this.#last = tempRecords(dir)[0]?.[1] ?? 0;
  }

  writeNow(rec: InstanceRecord): void {
    const n = ++this.#last;
    const temp = this.#temp(n);
    // 0600: the record holds the instance's environment, which may carry credentials.
    writeFileSync(temp, JSON.stringify(rec), { mode: 0o600 });
    this.#replace(n, temp);
  }

  writeSoon(rec: InstanceRecord): void {
    const n = ++this.#last;
    const temp = this.#temp(n);
    const written: Promise<void> = writeFile(temp, JSON.stringify(rec), { mode: 0o600 })
      .then(() => this.#replace(n, temp))
      .catch((err: unknown) => {
        rmSync(temp, { force: true });
        this.onError(err);
      })
      .finally(() => this.#pending.delete(written));
    this.#pending.add(written);
  }

  /** Resolves once every write begun is done (or dropped). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  #temp(n: number): string {
    return join(this.dir, `${RECORD_FILE}.${n}.tmp`);
  }

  /** Puts write `n` in place, unless a later one is there already (then it is dropped). */
  #replace(n: number, temp: string): void {
    if (n < this.#done) {
      rmSync(temp, { force: true });
      return;
    }
    const file = join(this.dir, RECORD_FILE);
    rmSync(file, { force: true });
    renameSync(temp, file);
    this.#done = n;
  }
}

/** A setup failure whose message is the instance's reason. */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}
