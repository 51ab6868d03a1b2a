/**
 * The `process` driver: a plain child process, for TRUSTED hosts without bubblewrap.
 *
 * The command runs with the instance's environment in `<root><START_PATH>`. What it isolates:
 * - when the agent is root, the instance runs as its own unprivileged uid (identity.ts) via
 *   setpriv, with no capability, no supplementary group and no-new-privileges; its root is 0700
 *   of that uid, so other instances cannot read its files, and it cannot signal their processes;
 *   root instances only with --allow-root-instances (then nothing at all is isolated);
 * - cgroup limits, as with bwrap.
 * What it does NOT isolate: there is no namespace and no seccomp filter. The instance sees the
 * host's whole file system (with the rights of its uid: world-readable files, /tmp), every
 * process on the host in /proc (their command lines, not their environments), the host's
 * network, and every system call; a kernel bug is a host compromise. The agent says so when it
 * starts. Absolute paths (in the start command, in environment values such as PATH, in symlinks)
 * are HOST paths, not paths inside the instance root: packages that rely on their files being at
 * `/app` or `/opt/...` need the bwrap driver; relative paths work with both. A job's user/group
 * cannot be honoured (there is no user namespace to map them into).
 *
 * Stager instances (stager rule 3): the staged package's dependencies are laid out in
 * `<root>/stagerfs`, named by STAGERFS, as plain files: no host directories, /proc or /dev inside,
 * and no chroot (it needs privileges this driver does not give). A stager that changes root into
 * /stagerfs needs a bwrap host (`isolation:bwrap` in its job's scheduling tags).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { findExecutable, setprivArgs } from './bwrap.js';
import { envCommand } from './host-env.js';
import type { HostCommand, IsolationDriver, LaunchRequest } from './driver.js';
import type { ProcStat } from './procfs.js';

/** What the process driver leaves open, for the agent's start-up log and the docs. */
export const PROCESS_DRIVER_GAPS =
  'no namespaces and no seccomp: instances see the host file system (as their uid), all host processes and the host network, and may make any system call';

export class ProcessDriver implements IsolationDriver {
  readonly name = 'process' as const;

  constructor(
    private readonly setprivPath: string | undefined = findExecutable('setpriv'),
    private readonly envPath: string = findExecutable('env') ?? '/usr/bin/env',
  ) {}

  command(req: LaunchRequest): HostCommand {
    return { argv: this.#as(req, req.argv), cwd: this.#cwd(req) };
  }

  commandInside(req: LaunchRequest, _appPid: number | undefined, argv: string[]): HostCommand {
    return { argv: this.#as(req, argv), cwd: this.#cwd(req) };
  }

  infrastructure(wrapperPid: number, _members: readonly ProcStat[]): Set<number> {
    return new Set([wrapperPid]);
  }

  /** `argv` as the instance's uid (setpriv), with exactly the instance's environment (env -i, after setpriv). */
  #as(req: LaunchRequest, argv: string[]): string[] {
    const withEnv = [...envCommand(this.envPath, req.env), ...argv];
    const id = req.identity?.host;
    if (!id) return withEnv;
    if (!this.setprivPath) throw new Error('setpriv is not installed (Debian package util-linux): cannot run the instance as its own uid');
    return [this.setprivPath, ...setprivArgs(id), ...withEnv];
  }

  #cwd(req: LaunchRequest): string {
    const cwd = join(req.root, req.workdir);
    let ok: boolean;
    try {
      ok = statSync(cwd).isDirectory();
    } catch {
      ok = false;
    }
    if (!ok) throw new Error(`START_PATH ${req.workdir} is not a directory in the instance root`);
    return cwd;
  }
}
