/**
 * Instance identities: the unprivileged host uid each instance runs as.
 *
 * When the agent runs as root, every instance gets a uid (and the gid of the same number) of its
 * own from a range the agent owns (--instance-uids, default 2000000000-2000065535: far above
 * normal users, above systemd's container range 524288-1879048191, below 2^31 where some tools
 * misread ids as negative). Nothing else on the host may use that range. The instance's files are
 * owned by its uid and its root is mode 0700, so no other instance (another uid) can read them;
 * the uid holds no privilege in the host's user namespace, so a kernel check of capabilities
 * there (open_by_handle_at, mount, raw I/O...) fails even where a filter would let it through.
 *
 * Allocation lives in each instance's record (instance.json in the data directory): a restarted
 * agent reserves the uids of the instances it re-attaches to before it allocates any new one.
 * A uid is handed out again only after its instance is REMOVED, and never while any process
 * still runs as it (the allocator skips such uids), so a straggler never shares an identity.
 *
 * When the agent is not root it cannot change identity: instances run as the agent's user.
 */
import { spawnSync } from 'node:child_process';
import { lchownSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { procPids } from './procfs.js';

export const DEFAULT_INSTANCE_UIDS = '2000000000-2000065535';

export interface UidRange {
  first: number;
  /** How many uids (first .. first+count-1). */
  count: number;
}

/** An instance's host identity. */
export interface HostIdentity {
  uid: number;
  gid: number;
}

/** Parses `FIRST-LAST`; throws with a message fit for a usage error. */
export function parseUidRange(text: string): UidRange {
  const m = /^(\d{1,10})-(\d{1,10})$/.exec(text.trim());
  if (!m) throw new Error(`"${text}" is not FIRST-LAST (for example ${DEFAULT_INSTANCE_UIDS})`);
  const first = Number(m[1]);
  const last = Number(m[2]);
  if (first < 1000) throw new Error(`"${text}": the range must start at 1000 or above (system and login users live below)`);
  if (last < first) throw new Error(`"${text}": the last uid is below the first`);
  // 65534 is nobody/overflow; 4294967295 is (uid_t)-1; both have meanings to the kernel.
  if (last >= 4294967295) throw new Error(`"${text}": uids end at 4294967294`);
  if (first <= 65534 && last >= 65534) throw new Error(`"${text}": the range holds 65534 (nobody)`);
  return { first, count: last - first + 1 };
}

/** The uids of live processes (from /proc/<pid>/status, real uid). */
export function liveUids(): Set<number> {
  const out = new Set<number>();
  for (const pid of procPids()) {
    try {
      const m = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
      if (m) out.add(Number(m[1]));
    } catch {
      // gone
    }
  }
  return out;
}

/**
 * How long one look at the live processes' uids serves further allocations (ms). A uid of the
 * range only comes to life through this allocator (the agent alone, as root, gives it) or from a
 * process that already has it, so a look a moment old can only hold uids that have since gone
 * free: one is skipped, never given twice. Each look reads every process's status (milliseconds
 * with a few hundred processes): 50 instances starting at once looked 50 times.
 */
export const BUSY_REUSE_MS = 1_000;

/**
 * Hands out uids of a range. Round-robin from the last allocation, so that a uid just released
 * is the last to come back. Not persistent by itself: the instance records are (see above).
 */
export class UidAllocator {
  readonly #used = new Set<number>();
  #next: number;
  #busy: { at: number; uids: Set<number> } | undefined;

  constructor(
    readonly range: UidRange,
    /** The uids in use by processes right now (injected for tests). */
    private readonly busy: () => Set<number> = liveUids,
    private readonly now: () => number = Date.now,
  ) {
    this.#next = range.first;
  }

  /** Marks `uid` as taken (an instance found on disk). Out-of-range uids are ignored. */
  reserve(uid: number): void {
    if (this.contains(uid)) this.#used.add(uid);
  }

  contains(uid: number): boolean {
    return uid >= this.range.first && uid < this.range.first + this.range.count;
  }

  /** A free uid; throws when the range is exhausted. */
  allocate(): number {
    const { first, count } = this.range;
    if (this.#used.size >= count) throw new Error(`no free instance uid: all ${count} of the range are in use`);
    const now = this.now();
    if (!this.#busy || now - this.#busy.at >= BUSY_REUSE_MS || now < this.#busy.at) this.#busy = { at: now, uids: this.busy() };
    const busy = this.#busy.uids;
    for (let i = 0; i < count; i++) {
      const uid = first + ((this.#next - first + i) % count);
      if (this.#used.has(uid) || busy.has(uid)) continue;
      this.#used.add(uid);
      this.#next = uid + 1 >= first + count ? first : uid + 1;
      return uid;
    }
    throw new Error('no free instance uid: every free uid of the range still has running processes');
  }

  release(uid: number): void {
    this.#used.delete(uid);
  }

  get inUse(): number {
    return this.#used.size;
  }
}

/**
 * Gives the whole tree under `root` (root included) to `id`, without following symlinks (a link
 * is re-owned itself, never its target). Called before the instance's first process starts.
 */
export function chownTree(root: string, id: HostIdentity): void {
  const walk = (path: string): void => {
    lchownSync(path, id.uid, id.gid);
    const st = lstatSync(path);
    if (!st.isDirectory()) return;
    for (const entry of readdirSync(path)) walk(join(path, entry));
  };
  walk(root);
}

/**
 * True when a process of uid `uid` (not in the file's group, no capabilities) can reach `path`:
 * search permission on every directory above it and, for a directory, read and search on it
 * (`search`: search only, to pass through it). ACLs are not read (hosts that rely on them for
 * this are rare; bwrap would then fail clearly).
 */
export function reachableBy(path: string, uid: number, need: 'read' | 'search' = 'read'): boolean {
  const can = (p: string, bits: number): boolean => {
    try {
      const st = statSync(p);
      if (st.uid === uid) return ((st.mode >> 6) & bits) === bits;
      return (st.mode & bits) === bits;
    } catch {
      return false;
    }
  };
  let dir = dirname(path);
  for (;;) {
    if (!can(dir, 0o1)) return false;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  let st;
  try {
    st = statSync(path);
  } catch {
    return false;
  }
  return can(path, st.isDirectory() ? (need === 'read' ? 0o5 : 0o1) : 0o4);
}

/** True when this process may change identity (it is root). */
export function canChangeIdentity(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/**
 * SIGKILLs every process running as `uid` (a helper process of that uid calls kill(-1), which
 * reaches exactly the processes that uid may signal: its own). Used at teardown, so that no
 * process of an instance survives it even when it left the instance's process group and
 * cgroups (the `process` driver on a host without cgroups). Never call it for uid 0.
 */
export function killAllOfUid(uid: number): void {
  if (uid === 0) throw new Error('refusing to kill every process of uid 0');
  spawnSync('/bin/sh', ['-c', 'kill -9 -1'], { uid, gid: uid, stdio: 'ignore', timeout: 5000 });
}

/**
 * A job's `user`/`group` (a name or a number) as ids inside the instance: numbers as they are,
 * names from the instance's own /etc/passwd and /etc/group (its packages), else the host's when
 * the instance sees it (os package or the default system directories). Empty: 0, root inside the
 * user namespace, which holds no capability (the spec's default user is root).
 */
export function resolveInsideIds(user: string, group: string, files: { passwd: string[]; group: string[] }): { uid: number; gid: number } {
  const lookup = (name: string, kind: 'passwd' | 'group'): { id: number; gid?: number } => {
    if (/^\d{1,10}$/.test(name)) {
      const id = Number(name);
      if (id > 4294967294) throw new Error(`${kind === 'passwd' ? 'user' : 'group'} ${name} is out of range`);
      return { id };
    }
    for (const file of files[kind]) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n')) {
        const f = line.split(':');
        if (f[0] === name && f[2] !== undefined && /^\d+$/.test(f[2])) {
          return kind === 'passwd' && f[3] !== undefined && /^\d+$/.test(f[3]) ? { id: Number(f[2]), gid: Number(f[3]) } : { id: Number(f[2]) };
        }
      }
    }
    throw new Error(`${kind === 'passwd' ? 'user' : 'group'} "${name}" is not known in the instance (no ${kind} entry)`);
  };
  const u = user ? lookup(user, 'passwd') : { id: 0, gid: 0 };
  const g = group ? lookup(group, 'group').id : (u.gid ?? u.id);
  return { uid: u.id, gid: g };
}
