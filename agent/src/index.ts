/**
 * @platform/agent: the instance manager that runs on each host (`platform-agent`).
 *
 * The isolation driver names are shared with the controller's scheduler (system tags
 * `isolation:<driver>`); `Agent` embeds an agent in a program (tests, `npm start`).
 */

/** `bwrap`: bubblewrap namespaces (the default where installed); `process`: a plain child process. */
export const ISOLATION_DRIVERS = ['bwrap', 'process'] as const;
export type IsolationDriver = (typeof ISOLATION_DRIVERS)[number];

export function isIsolationDriver(s: string): s is IsolationDriver {
  return (ISOLATION_DRIVERS as readonly string[]).includes(s);
}

export { Agent, AGENT_VERSION, type AgentOptions } from './agent.js';
export { JsonLogger, FdSink, MemorySink, silentLogger, type Logger, type LogLevel } from './log/logger.js';
