/**
 * The `bwrap` driver: bubblewrap namespaces, an unprivileged identity, no capabilities, seccomp.
 *
 * Each instance gets new user, mount, PID, IPC, UTS and cgroup namespaces. bwrap itself runs as
 * the instance's own host uid (identity.ts; set by `setpriv` in the launch wrapper, which stays
 * root only to join the cgroups first), never as root: the user namespace maps one id, the job's
 * user inside (root by default) to that uid outside, so nothing in the instance holds privilege
 * over the host. On top: `--cap-drop ALL` (no capability even inside its namespace),
 * no-new-privileges (bwrap sets it; setpriv too), and the seccomp filter of seccomp.ts, loaded
 * by bwrap from fd 3 just before it runs the command.
 *
 * Its root `/` is the instance root directory (owned by its uid, mode 0700, read-write, holding
 * its packages at their paths, e.g. /app); on top of it:
 * - the host directories that its packages name (PackageSpec.host_paths, e.g. an `os` package),
 *   bound read-only at the same path; when no package names any, the host's system directories
 *   /usr /bin /lib /lib64 /sbin /etc (those that exist) so that `sh` and common tools work;
 *   except for an own root (a package made from a container image, PackageSpec.root_filesystem):
 *   the image is the whole file system (its /bin/sh, its libc, its /etc/passwd), and only the
 *   host's /etc/hosts and /etc/resolv.conf are bound over it, read-only (the network is the host's);
 * - a fresh /proc (of its PID namespace: no host process is visible), a minimal /dev, an empty
 *   tmpfs at /tmp. No /sys: nothing of the host's devices, cgroups or kernel settings.
 * The agent's and the controller's data directories are never bound (host paths are the
 * controller's built-in packages only), and other instances' roots are 0700 of other uids.
 * A host path that the instance's uid cannot reach on the host (a runtime under /root, mode 0700)
 * is bound by root into a private mount namespace first (unshare), at a path the uid can reach;
 * bwrap binds it from there.
 * For a stager instance, /stagerfs is made ready for chroot (`stagerfsArgs`).
 * The network namespace is shared with the host: ports listen on the host's addresses; except
 * for an instance on a virtual network, which runs in a namespace of its own (entered by nsenter
 * before bwrap, driver.ts inNetwork) with its own hosts file bound over /etc/hosts.
 *
 * No `--die-with-parent`: the sandbox must outlive the agent so that an agent restart or upgrade
 * does not restart applications (the agent re-attaches). No `--new-session` either: the sandbox
 * stays in the wrapper's process group, which is how the agent finds and signals it (the filter
 * refuses TIOCSTI, the reason for a new session, and stdin is /dev/null).
 * Inside the group, bwrap's own two processes (the monitor on the host, the PID-namespace init)
 * are left out of stop signals: the monitor would die at once and report the wrong exit code
 * while the application is still shutting down. When the application exits, the namespace init
 * exits and the kernel kills whatever else ran in the namespace: nothing is left behind.
 *
 * A stop command runs in a second bwrap that joins the instance's user and PID namespaces
 * (`--userns`, `--pidns`): it sees and may signal the application's processes, with the same
 * identity, binds, capabilities (none) and filter; only its /tmp is its own.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, lstatSync, readlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import type { HostCommand, IsolationDriver, LaunchRequest } from './driver.js';
import { bwrapEnvArgs } from './host-env.js';
import { reachableBy } from './identity.js';
import type { ProcStat } from './procfs.js';
import { hostSeccompFilter } from './seccomp.js';

/** Host directories bound when no package gives host paths. */
export const DEFAULT_SYSTEM_DIRS = ['/usr', '/bin', '/lib', '/lib64', '/sbin', '/etc'] as const;

/** Host files bound read-only over an instance's own root (LaunchRequest.ownRoot). */
export const HOST_NETWORK_FILES = ['/etc/hosts', '/etc/resolv.conf'] as const;

/** An executable named `name` in PATH, or undefined. */
export function findExecutable(name: string, path = process.env['PATH'] ?? '/usr/bin:/bin'): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // next
    }
  }
  return undefined;
}

export type BwrapProbe = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Whether bubblewrap is installed and can create the namespaces the driver uses, as `probeUid`
 * when given (the agent is root: its first instance uid; this checks that the kernel lets
 * unprivileged users create user namespaces), with the seccomp filter of this host.
 */
export function probeBwrap(probeUid?: number): BwrapProbe {
  const path = findExecutable('bwrap');
  if (!path) return { ok: false, reason: 'bwrap is not installed (Debian package bubblewrap)' };
  if (!hostSeccompFilter()) return { ok: false, reason: `no seccomp filter for this architecture (${process.arch}); x64 and arm64 have one` };
  let setpriv: string | undefined;
  if (probeUid !== undefined) {
    setpriv = findExecutable('setpriv');
    if (!setpriv) return { ok: false, reason: 'setpriv is not installed (Debian package util-linux)' };
  }
  const args = ['--unshare-user', ...systemBinds(DEFAULT_SYSTEM_DIRS), '--proc', '/proc', '--dev', '/dev',
    '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--cap-drop', 'ALL', '--', '/bin/sh', '-c', 'exit 0'];
  const argv = setpriv && probeUid !== undefined ? [setpriv, ...setprivArgs({ uid: probeUid, gid: probeUid }), path, ...args] : [path, ...args];
  const r = spawnSync(argv[0] as string, argv.slice(1), { encoding: 'utf8', timeout: 10_000, cwd: '/' });
  if (r.status === 0) return { ok: true, path };
  const why = (r.stderr || r.error?.message || `exit ${r.status}`).trim();
  return { ok: false, reason: `bwrap does not work here${probeUid !== undefined ? ` as uid ${probeUid} (unprivileged user namespaces allowed? sysctl user.max_user_namespaces, kernel.unprivileged_userns_clone)` : ''}: ${why}` };
}

/** setpriv's arguments that become `id`, with no supplementary group, no capability and no-new-privileges. */
export function setprivArgs(id: { uid: number; gid: number }): string[] {
  return ['--reuid', String(id.uid), '--regid', String(id.gid), '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--'];
}

/**
 * The shell that starts bwrap: as root, binds the host paths that the instance's uid cannot
 * reach (when there are any, it runs in a private mount namespace made by unshare), opens the
 * seccomp filter as fd 3, the namespace files as fds 4 and 5 (/dev/null when unused) and the
 * instance's environment file (envArgsFile) as fd 6, and execs the rest of its arguments. Its own
 * environment is HOST_ENV (host-env.ts), never the instance's.
 * Arguments: <filter> <userns file> <pidns file> <env args file> <stage count> (<source> <stage>)... <command...>
 */
const PRELUDE = [
  'f3=$1; f4=$2; f5=$3; f6=$4; n=$5; shift 5',
  'while [ "$n" -gt 0 ]; do',
  '  if [ -d "$1" ]; then mkdir -p "$2"; else mkdir -p "${2%/*}" && : > "$2"; fi || exit 125',
  '  mount --bind "$1" "$2" || exit 125',
  '  shift 2; n=$((n-1))',
  'done',
  'exec "$@" 3<"$f3" 4<"$f4" 5<"$f5" 6<"$f6"',
].join('\n');

/**
 * Where the instance's environment is written for bwrap (`--args 6`): beside its root, in the
 * instance's directory, root's and mode 0600 (the instance never sees it). One file for the
 * instance's command and one for stop commands.
 */
export function envArgsFile(req: Pick<LaunchRequest, 'root'>, stop: boolean): string {
  return join(dirname(req.root), stop ? 'stop-env.args' : 'env.args');
}

/** Binds each of `dirs` read-only at `under` + its own path (from `source(dir)`, where root staged it). */
function systemBinds(dirs: readonly string[], source: (dir: string) => string = (d) => d, root?: string, under = ''): string[] {
  const args: string[] = [];
  for (const dir of dirs) {
    let st;
    try {
      st = lstatSync(dir);
    } catch {
      continue;
    }
    // Merged-/usr hosts have /bin -> usr/bin: recreate the link rather than bind its target twice.
    // bwrap (before 0.9) fails on a link that an earlier sandbox over the same root left there.
    if (st.isSymbolicLink()) {
      const target = readlinkSync(dir);
      if (root === undefined || readLink(join(root, under + dir)) !== target) args.push('--symlink', target, under + dir);
    } else args.push('--ro-bind', source(dir), under + dir);
  }
  return args;
}

/** Where a stager finds its package's dependencies, and may chroot into (stager rule 3). */
export const STAGERFS = '/stagerfs';

/**
 * The part of a stager instance's sandbox that makes /stagerfs a root to chroot into: the
 * dependencies' host directories (else the host system dirs) bound read-only below it, a /proc
 * and a minimal /dev inside, an empty /tmp; and CAP_SYS_CHROOT, the one capability chroot(2)
 * needs (in the instance's own user namespace where the driver makes one). The dependencies'
 * files are in the instance root's /stagerfs already (the root is bound at /).
 */
export function stagerfsArgs(hostPaths: readonly string[], source: (dir: string) => string = (d) => d, root?: string): string[] {
  return [
    ...systemBinds(stagerfsDirs(hostPaths), source, root, STAGERFS),
    '--proc', `${STAGERFS}/proc`,
    '--dev', `${STAGERFS}/dev`,
    '--tmpfs', `${STAGERFS}/tmp`,
    '--cap-add', 'CAP_SYS_CHROOT',
  ];
}

/** The host directories bound below /stagerfs: the dependencies' (else the host system dirs). */
function stagerfsDirs(hostPaths: readonly string[]): string[] {
  return (hostPaths.length ? hostPaths : DEFAULT_SYSTEM_DIRS).filter((p) => existsSync(p));
}

function readLink(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

export interface BwrapOptions {
  /** Where the agent keeps the seccomp filter it hands to bwrap (written by the constructor, 0600). */
  seccompFile: string;
  /** setpriv, needed when instances have identities (the agent is root). */
  setprivPath?: string | undefined;
  /** unshare, needed when a host path is out of an instance uid's reach. */
  unsharePath?: string | undefined;
}

export class BwrapDriver implements IsolationDriver {
  readonly name = 'bwrap' as const;
  readonly #opts: BwrapOptions;

  constructor(
    private readonly bwrapPath: string,
    opts: BwrapOptions,
  ) {
    const filter = hostSeccompFilter();
    if (!filter) throw new Error(`no seccomp filter for this architecture (${process.arch})`);
    writeFileSync(opts.seccompFile, filter, { mode: 0o600 });
    this.#opts = { setprivPath: findExecutable('setpriv'), unsharePath: findExecutable('unshare'), ...opts };
  }

  /**
   * The host paths of `req` that its uid cannot reach, each with the stage path (in the instance
   * directory, which the uid can traverse) where root binds it first.
   */
  #staged(req: LaunchRequest, dirs: readonly string[]): Map<string, string> {
    const staged = new Map<string, string>();
    const uid = req.identity?.host.uid;
    if (uid === undefined) return staged;
    for (const dir of dirs) {
      let link: boolean;
      try {
        link = lstatSync(dir).isSymbolicLink();
      } catch {
        continue;
      }
      if (!link && !reachableBy(dir, uid)) staged.set(dir, join(dirname(req.root), 'host', String(staged.size)));
    }
    return staged;
  }

  /** Every host directory the sandbox binds: the packages' (else the system dirs), and /stagerfs's. */
  #hostDirs(req: LaunchRequest): string[] {
    const dirs = this.#rootDirs(req);
    return req.stagerfs ? [...new Set([...dirs, ...stagerfsDirs(req.stagerfs.hostPaths)])] : dirs;
  }

  /** The host directories bound over the root: the packages', else (not for an own root) the system dirs. */
  #rootDirs(req: LaunchRequest): string[] {
    return (req.hostPaths.length || req.ownRoot ? req.hostPaths : DEFAULT_SYSTEM_DIRS).filter((p) => existsSync(p));
  }

  /**
   * The bwrap arguments for `req` (exported for tests and for operators reading the docs).
   * `join` makes the stop command's sandbox: in the user and PID namespaces opened as fds 4, 5.
   */
  args(req: LaunchRequest, staged = this.#staged(req, this.#hostDirs(req)), join = false): string[] {
    const inside = req.identity?.inside ?? { uid: 0, gid: 0 };
    return [
      // The instance's environment, from the file the prelude opened as fd 6 (envArgsFile).
      '--args', '6',
      ...(join ? ['--userns', '4', '--pidns', '5'] : ['--unshare-user', '--unshare-pid', '--unshare-cgroup-try']),
      '--uid', String(inside.uid), '--gid', String(inside.gid),
      '--bind', req.root, '/',
      // The fresh /proc, /dev and /tmp come before the host binds, so that a host path below
      // one of them (a package bound from /tmp/...) lands on top instead of being hidden.
      '--proc', '/proc',
      '--dev', '/dev',
      '--tmpfs', '/tmp',
      ...systemBinds(this.#rootDirs(req), (d) => staged.get(d) ?? d, req.root),
      // An own root shares the host's network, so it names hosts and resolves as the host does
      // (what a container on the host network gets); the image's own files stay below.
      ...(req.ownRoot ? HOST_NETWORK_FILES.filter((f) => !(req.network && (f === '/etc/hosts' || (f === '/etc/resolv.conf' && req.network.resolvConf)))).flatMap((f) => ['--ro-bind-try', f, f]) : []),
      // In a namespace of its own: its names (on a virtual network the members', rewritten in
      // place by the agent), and the resolver the agent gives it.
      ...(req.network ? ['--ro-bind', req.network.hostsFile, '/etc/hosts'] : []),
      ...(req.network?.resolvConf ? ['--ro-bind', req.network.resolvConf, '/etc/resolv.conf'] : []),
      // Its secrets as files and its app token, which it reads and cannot change.
      ...(req.platformFiles ? ['--ro-bind', req.platformFiles, '/run/platform'] : []),
      '--unshare-ipc', '--unshare-uts',
      '--cap-drop', 'ALL',
      // After the drop: bwrap applies capability options in order.
      ...(req.stagerfs ? stagerfsArgs(req.stagerfs.hostPaths, (d) => staged.get(d) ?? d, req.root) : []),
      '--seccomp', '3',
      '--hostname', `i-${req.instanceUuid.slice(0, 8)}`,
      '--chdir', req.workdir,
      '--',
      ...req.argv,
    ];
  }

  #command(req: LaunchRequest, nsFiles: [string, string] | undefined): HostCommand {
    const staged = this.#staged(req, this.#hostDirs(req));
    const o = this.#opts;
    const id = req.identity?.host;
    if (id && !o.setprivPath) throw new Error('setpriv is not installed (Debian package util-linux): cannot run the instance as its own uid');
    if (staged.size && !o.unsharePath) throw new Error('unshare is not installed (Debian package util-linux): cannot bind host paths out of the instance uid\'s reach');
    const bwrap = [this.bwrapPath, ...this.args(req, staged, nsFiles !== undefined)];
    const envFile = envArgsFile(req, nsFiles !== undefined);
    writeFileSync(envFile, bwrapEnvArgs(req.env), { mode: 0o600 });
    chmodSync(envFile, 0o600);
    const argv = [
      ...(staged.size ? [o.unsharePath as string, '--mount', '--propagation', 'private', '--'] : []),
      // Root's shell: its environment is HOST_ENV (host-env.ts), never the instance's.
      '/bin/sh', '-c', PRELUDE, 'platform-bwrap',
      o.seccompFile, nsFiles?.[0] ?? '/dev/null', nsFiles?.[1] ?? '/dev/null', envFile,
      String(staged.size), ...[...staged].flat(),
      ...(id ? [o.setprivPath as string, ...setprivArgs(id)] : []),
      ...bwrap,
    ];
    return { argv, cwd: '/' };
  }

  command(req: LaunchRequest): HostCommand {
    return this.#command(req, undefined);
  }

  commandInside(req: LaunchRequest, appPid: number | undefined, argv: string[]): HostCommand {
    if (appPid !== undefined) {
      // Join the application's user and PID namespaces (a new mount namespace over the same root).
      return this.#command({ ...req, argv }, [`/proc/${appPid}/ns/user`, `/proc/${appPid}/ns/pid`]);
    }
    // The application's process is gone: a new sandbox over the same root.
    return this.command({ ...req, argv });
  }

  infrastructure(wrapperPid: number, members: readonly ProcStat[]): Set<number> {
    const infra = new Set([wrapperPid]);
    const monitor = members.filter((m) => m.ppid === wrapperPid);
    for (const m of monitor) {
      infra.add(m.pid);
      for (const init of members) if (init.ppid === m.pid) infra.add(init.pid);
    }
    return infra;
  }
}
