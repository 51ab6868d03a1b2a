/**
 * @platform/agent: the instance manager that runs on each host (`platform-agent`).
 *
 * `Agent` embeds an agent in a program (tests, `npm start`); the isolation driver names are
 * those of the system tags `isolation:<driver>` that the controller's scheduler matches.
 */
export { ISOLATION_DRIVERS, isIsolationDriver, type IsolationDriverName } from './isolation/driver.js';
export { Agent, AGENT_VERSION, type AgentOptions } from './agent.js';
export { JsonLogger, FdSink, MemorySink, silentLogger, type Logger, type LogLevel } from '@platform/proto/common';
