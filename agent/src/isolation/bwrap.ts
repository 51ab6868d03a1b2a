/**
 * The `bwrap` driver: bubblewrap namespaces.
 *
 * Each instance gets new mount, PID, IPC and UTS namespaces. Its root `/` is the instance root
 * directory (read-write, holding its packages at their paths, e.g. /app); on top of it:
 * - the host directories that its packages name (PackageSpec.host_paths, e.g. an `os` package),
 *   bound read-only at the same path; when no package names any, the host's system directories
 *   /usr /bin /lib /lib64 /sbin /etc (those that exist) so that `sh` and common tools work;
 * - a fresh /proc (of its PID namespace), a minimal /dev, and an empty tmpfs at /tmp;
 * - for a stager instance, /stagerfs made ready for chroot (`stagerfsArgs`).
 * The network namespace is shared with the host: ports listen on the host's addresses.
 *
 * No `--die-with-parent`: the sandbox must outlive the agent so that an agent restart or upgrade
 * does not restart applications (the agent re-attaches). No `--new-session` either: the sandbox
 * stays in the wrapper's process group, which is how the agent finds and signals it.
 * Inside the group, bwrap's own two processes (the monitor on the host, the PID-namespace init)
 * are left out of stop signals: the monitor would die at once and report the wrong exit code
 * while the application is still shutting down. When the application exits, the namespace init
 * exits and the kernel kills whatever else ran in the namespace: nothing is left behind.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, lstatSync, readlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { HostCommand, IsolationDriver, LaunchRequest } from './driver.js';
import type { ProcStat } from './procfs.js';

/** Host directories bound when no package gives host paths. */
export const DEFAULT_SYSTEM_DIRS = ['/usr', '/bin', '/lib', '/lib64', '/sbin', '/etc'] as const;

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

/** Whether bubblewrap is installed and can create the namespaces the driver uses. */
export function probeBwrap(): BwrapProbe {
  const path = findExecutable('bwrap');
  if (!path) return { ok: false, reason: 'bwrap is not installed (Debian package bubblewrap)' };
  const args = [...systemBinds(DEFAULT_SYSTEM_DIRS), '--proc', '/proc', '--dev', '/dev',
    '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--', '/bin/sh', '-c', 'exit 0'];
  const r = spawnSync(path, args, { encoding: 'utf8', timeout: 10_000 });
  if (r.status === 0) return { ok: true, path };
  return { ok: false, reason: `bwrap does not work here: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim()}` };
}

/** Binds each of `dirs` read-only at `under` + its own path. */
function systemBinds(dirs: readonly string[], under = ''): string[] {
  const args: string[] = [];
  for (const dir of dirs) {
    let st;
    try {
      st = lstatSync(dir);
    } catch {
      continue;
    }
    // Merged-/usr hosts have /bin -> usr/bin: recreate the link rather than bind its target twice.
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), under + dir);
    else args.push('--ro-bind', dir, under + dir);
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
export function stagerfsArgs(hostPaths: readonly string[]): string[] {
  const host = hostPaths.length ? hostPaths : DEFAULT_SYSTEM_DIRS;
  return [
    ...systemBinds(host.filter((p) => existsSync(p)), STAGERFS),
    '--proc', `${STAGERFS}/proc`,
    '--dev', `${STAGERFS}/dev`,
    '--tmpfs', `${STAGERFS}/tmp`,
    '--cap-add', 'CAP_SYS_CHROOT',
  ];
}

export class BwrapDriver implements IsolationDriver {
  readonly name = 'bwrap' as const;

  constructor(
    private readonly bwrapPath: string,
    private readonly nsenterPath: string | undefined = findExecutable('nsenter'),
  ) {}

  /** The bwrap arguments for `req` (exported for tests and for operators reading the docs). */
  args(req: LaunchRequest): string[] {
    const host = req.hostPaths.length ? req.hostPaths : DEFAULT_SYSTEM_DIRS;
    return [
      '--bind', req.root, '/',
      // The fresh /proc, /dev and /tmp come before the host binds, so that a host path below
      // one of them (a package bound from /tmp/...) lands on top instead of being hidden.
      '--proc', '/proc',
      '--dev', '/dev',
      '--tmpfs', '/tmp',
      ...systemBinds(host.filter((p) => existsSync(p))),
      ...(req.stagerfs ? stagerfsArgs(req.stagerfs.hostPaths) : []),
      '--unshare-pid', '--unshare-ipc', '--unshare-uts',
      '--hostname', `i-${req.instanceUuid.slice(0, 8)}`,
      '--chdir', req.workdir,
      '--',
      ...req.argv,
    ];
  }

  command(req: LaunchRequest): HostCommand {
    return { argv: [this.bwrapPath, ...this.args(req)], cwd: req.root };
  }

  commandInside(req: LaunchRequest, appPid: number | undefined, argv: string[]): HostCommand {
    if (appPid !== undefined && this.nsenterPath) {
      // Enter the application's namespaces, root and working directory.
      return { argv: [this.nsenterPath, '-t', String(appPid), '-m', '-p', '-i', '-u', '-r', '-w', '--', ...argv], cwd: '/' };
    }
    // Without nsenter: a new sandbox over the same root (its own PID namespace).
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
