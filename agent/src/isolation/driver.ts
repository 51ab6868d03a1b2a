/**
 * Isolation drivers: how an instance's command runs on the host.
 *
 * Every driver's command is started by the same tiny wrapper shell (launch.ts), detached in its
 * own session and process group, writing its own stdout/stderr straight to the instance's log
 * files. The driver only says which host command runs the instance's argv, and which members of
 * the process group are its own machinery (they must not receive the stop signal).
 */
import type { HostIdentity } from './identity.js';
import type { ProcStat } from './procfs.js';

/**
 * The driver names, shared with the controller's scheduler through system tags
 * (`isolation:<driver>`). `bwrap`: bubblewrap namespaces (the default where installed);
 * `process`: a plain child process.
 */
export const ISOLATION_DRIVERS = ['bwrap', 'process'] as const;
export type IsolationDriverName = (typeof ISOLATION_DRIVERS)[number];

export function isIsolationDriver(s: string): s is IsolationDriverName {
  return (ISOLATION_DRIVERS as readonly string[]).includes(s);
}

export interface LaunchRequest {
  instanceUuid: string;
  /** Host path of the instance root (its packages are extracted here). */
  root: string;
  /** The command as the instance sees it (argv[0] is looked up in PATH of `env`). */
  argv: string[];
  /** The complete environment of the instance (nothing of the agent's leaks in). */
  env: Record<string, string>;
  /** Working directory in the instance's view (START_PATH), absolute. */
  workdir: string;
  /** Host directories bound read-only at the same path (bwrap); empty = the host system dirs. */
  hostPaths: readonly string[];
  /**
   * The root is a whole file system of its own (a package made from a container image): bwrap
   * binds no host system directory over it (only `hostPaths`, when a package names some), and
   * the host's /etc/hosts and /etc/resolv.conf (the network is the host's). Only bwrap can run it.
   */
  ownRoot?: boolean;
  /**
   * Who the instance runs as (identity.ts): `host` is its own unprivileged uid/gid on the host,
   * `inside` the ids it has inside its user namespace (bwrap; the job's user/group). Absent: the
   * agent's own user (an agent that is not root, or a `process` agent allowed root instances).
   */
  identity?: { host: HostIdentity; inside: { uid: number; gid: number } };
  /**
   * Stager instances (stager rule 3): `<root>/stagerfs` holds the staged package's dependencies.
   * bwrap also binds their host directories (`hostPaths`; empty = the host system dirs) below
   * /stagerfs, mounts /proc and /dev there, and keeps CAP_SYS_CHROOT so the stager may chroot
   * into it. The process driver leaves the directory as it is (see process.ts).
   */
  stagerfs?: { hostPaths: readonly string[] };
  /**
   * The instance has a network namespace of its own (network/host-networks.ts: on a virtual
   * network, or its own): its command runs in the namespace at `netns` (a /run/netns path, joined
   * with nsenter by root before anything else), and bwrap binds `hostsFile` over its /etc/hosts
   * and `resolvConf`, when given, over its /etc/resolv.conf (the resolver the agent gives it).
   */
  network?: { netns: string; hostsFile: string; resolvConf?: string };
  /** The instance's platform files (runner/platform-files.ts): bwrap binds them read-only at /run/platform. */
  platformFiles?: string;
}

export interface HostCommand {
  /** argv run on the host (argv[0] absolute or found in PATH). */
  argv: string[];
  /** Host working directory to spawn in. */
  cwd: string;
}

/** `command` run inside the instance's network namespace, when it has one (LaunchRequest.network). */
export function inNetwork(command: HostCommand, req: LaunchRequest, nsenter = 'nsenter'): HostCommand {
  if (!req.network) return command;
  return { ...command, argv: [nsenter, `--net=${req.network.netns}`, '--', ...command.argv] };
}

export interface IsolationDriver {
  readonly name: IsolationDriverName;
  /** The host command that runs `req.argv` isolated. Throws when the request cannot run (clear message). */
  command(req: LaunchRequest): HostCommand;
  /**
   * The host command that runs `argv` inside the running instance whose application process is
   * `appPid` (used for stop commands): same root, namespaces and working directory.
   */
  commandInside(req: LaunchRequest, appPid: number | undefined, argv: string[]): HostCommand;
  /**
   * The pids among `members` (the instance's process group, wrapper included) that belong to
   * the driver and the wrapper, not to the application. Signals for a graceful stop go to the rest.
   */
  infrastructure(wrapperPid: number, members: readonly ProcStat[]): Set<number>;
}
