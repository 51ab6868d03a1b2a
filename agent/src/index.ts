/**
 * @platform/agent: the instance manager that runs on each host.
 *
 * The agent process (`platform-agent`) arrives with its capability; this entry
 * already fixes the isolation drivers of the operator contract, which the
 * controller's scheduler and the agent share.
 */

/** `bwrap`: bubblewrap namespaces (the default where installed); `process`: a plain child process. */
export const ISOLATION_DRIVERS = ['bwrap', 'process'] as const;
export type IsolationDriver = (typeof ISOLATION_DRIVERS)[number];

export function isIsolationDriver(s: string): s is IsolationDriver {
  return (ISOLATION_DRIVERS as readonly string[]).includes(s);
}
