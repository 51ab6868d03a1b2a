/**
 * @platform/controller: the controller of the platform, as a library. The
 * `platform-controller` binary is the usual way to run it; tests and embedders
 * start it with `startController`.
 */
export { Controller, startController, resolveControllerOptions } from './controller.js';
export type { ControllerOptions, ResolvedControllerOptions, HostPort } from './controller.js';
export { parseHostPort } from '@platform/proto/common';
export { CONTROLLER_VERSION } from './cluster/version.js';
export type { ApiErrorBody } from './api/api-error.js';
export type { Job, JobSpec, JobState, JobHealth, PackageInfo } from './model/job.js';
export { JOB_DEFAULTS } from './model/job.js';
export type { Package, PackageResource, PackageState } from './model/package.js';
export type { StagingPipeline } from './model/pipeline.js';
export type { AuditLogItem } from './audit/audit-log.js';
export { AUDIT_EVENTS, type AuditEvent } from './model/audit-events.js';
export { RUNTIMES, type RuntimeEntry } from './staging/runtimes.js';
export { JsonLogger, MemorySink, FdSink, silentLogger, type Logger, type LogLevel } from '@platform/proto/common';
export type { Store, BatchOp, Range } from './store/store.js';
export { MemoryStore } from './store/memory-store.js';
export { RocksStore } from './store/rocks-store.js';
export { Mailbox, MailboxClosedError } from './actors/mailbox.js';
export { ManualClock, SystemClock, formatTimestampNs, type Clock } from './util/clock.js';
export type { LdapOptions } from './auth/ldap.js';
export { LATENCY_BUCKETS_MS, type JobRequestWindow, type RequestStatsSource } from './router/request-stats.js';
export { MetricStore, type SeriesPoint } from './metrics/metric-store.js';
export { DEFAULT_RESOLUTIONS, parseRetention, FIELD_INDEX, type Resolution } from './metrics/series.js';
export { drainInputSchema, drainsSchema, normalizeDrain, parseDrainUrl, DRAIN_DEFAULTS, type Drain, type DrainInput } from './model/drain.js';
