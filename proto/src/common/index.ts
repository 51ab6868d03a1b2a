/**
 * @platform/proto/common: what the controller and the agent (and the stager SDK) share beyond the
 * wire contract: the environment of an instance's process, host:port and digest parsing, the
 * stager API's status codes, the structured logger, the binaries' signal handling, the guarded
 * state machines, the options of the programs' default process metrics and the rule for the
 * addresses users can make the platform reach (destinations.ts).
 */
export { BASE_PATH, applyLayer, buildEnvironment, expand, isShellName, mainProcessName, shellFor, startArgv, type EnvInputs, type StartCommands } from './env.js';
export { HostPortError, formatHostPort, parseHostPort, type HostPort } from './host-port.js';
export { DIGEST_ALGORITHMS, DigestError, formatDigest, parseDigest, type Digest, type DigestAlgorithm } from './digest.js';
export { STAGER_STATUS, type StagerStatusCode } from './stager-status.js';
export { FdSink, JsonLogger, MemorySink, isLogLevel, silentLogger, type LogFields, type LogLevel, type LogSink, type Logger } from './logger.js';
export { exitOnUncaughtException, stopOnSignals, type StopOnSignalsOptions } from './signals.js';
export { commonFlags, type CommonFlags } from './cli.js';
export { GuardedState, IllegalTransitionError, StateMachine, type TransitionTable } from './state-machine.js';
export { SyslogSender, formatSyslog, parseDrainUrl, type DrainTarget, type SenderEvents, type SyslogFields } from './syslog.js';
export { Ipv4Error, cidrContains, cidrSize, cidrsOverlap, formatCidr, formatIpv4, isMulticastCidr, parseCidr, parseIpv4, prefixMask, type Cidr } from './ipv4.js';
export { FLOOR_ENFORCED_TAG, FLOOR_NOT_ENFORCED_TAG, HOST_NETWORK_TAG, NETWORK_AGENT_TAG, OWN_NETWORK_TAG } from './networks.js';
export {
  DestinationListError,
  DestinationPolicy,
  DestinationRefusedError,
  destinationRefusal,
  parseAllowList,
  type AllowEntry,
  type DestinationPolicyOptions,
  type LookupFunction,
  type RefusalReason,
} from './destinations.js';
export { EVENT_LOOP_SAMPLE_MS, defaultMetricsOptions, type DefaultMetricsOptions } from './process-metrics.js';
