/**
 * The `process` driver: a plain child process, for hosts without bubblewrap.
 *
 * The command runs with the instance's environment in `<root><START_PATH>`. There is no mount
 * namespace: absolute paths (in the start command, in environment values such as PATH, in
 * symlinks) are HOST paths, not paths inside the instance root. Packages that rely on their files
 * being at `/app` or `/opt/...` need the bwrap driver; relative paths work with both.
 *
 * Stager instances (stager rule 3): the staged package's dependencies are laid out in
 * `<root>/stagerfs`, named by STAGERFS, as plain files: no host directories, /proc or /dev inside,
 * and no chroot (it needs privileges this driver does not give). A stager that changes root into
 * /stagerfs needs a bwrap host (`isolation:bwrap` in its job's scheduling tags).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { HostCommand, IsolationDriver, LaunchRequest } from './driver.js';
import type { ProcStat } from './procfs.js';

export class ProcessDriver implements IsolationDriver {
  readonly name = 'process' as const;

  command(req: LaunchRequest): HostCommand {
    return { argv: req.argv, cwd: this.#cwd(req) };
  }

  commandInside(req: LaunchRequest, _appPid: number | undefined, argv: string[]): HostCommand {
    return { argv, cwd: this.#cwd(req) };
  }

  infrastructure(wrapperPid: number, _members: readonly ProcStat[]): Set<number> {
    return new Set([wrapperPid]);
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
