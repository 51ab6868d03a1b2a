/**
 * The resources of the REST API as the client sees them: the fields the CLI and most
 * scripts use, typed; every answer keeps the rest of its fields (index signatures), so
 * nothing the controller adds is lost. The controller's OpenAPI document (GET /openapi.json)
 * describes each request body in full.
 */

export type JobState = 'invalid' | 'unknown' | 'created' | 'errored' | 'staging' | 'staging_failed' | 'ready' | 'started' | 'stopped' | 'finished';

export interface Route {
  type: 'http' | 'tcp' | 'udp';
  endpoint?: string;
  weight?: number;
  auto_provision?: boolean;
  https_only?: boolean;
}

export interface Port {
  number: number;
  optional?: boolean;
  routes?: Route[];
}

export interface Process {
  start_command?: string;
  start_command_raw?: string[];
  environment?: Record<string, string>;
  [field: string]: unknown;
}

export interface Resources {
  cpu?: number;
  memory?: number;
  disk?: number;
  network?: number;
  netmax?: number;
}

export interface Rollout {
  rolling_mode?: boolean;
  force_stop_old_instances_after?: number;
  failure_threshold?: number;
  [field: string]: unknown;
}

/** What a client sends to create or replace a job. */
export interface JobInput {
  fqn: string;
  num_instances?: number;
  packages?: { uuid: string; source?: string }[];
  processes?: Record<string, Process>;
  ports?: Port[];
  resources?: Resources;
  rollout?: Rollout;
  tags?: Record<string, string>;
  state?: JobState;
  [field: string]: unknown;
}

export interface Job extends JobInput {
  uuid: string;
  name: string;
  version_id: number;
  state: JobState;
  num_instances: number;
  created_by?: string;
  updated_by?: string;
  created_time?: string;
  updated_time?: string;
  /** Its service bindings and links, by binding FQN. */
  bindings?: Record<string, Binding>;
}

export interface JobHealth {
  job_uuid?: string;
  uuid?: string;
  state?: string;
  num_instances?: number;
  num_running?: number;
  messages?: string[];
  [field: string]: unknown;
}

export type PackageState = 'uploading' | 'staging' | 'ready' | 'failed' | string;

export interface PackageResource {
  uuid: string;
  length: number;
  digest: string;
}

export interface PackageInput {
  fqn: string;
  resources?: { length: number; digest: string }[];
  staging_pipeline?: { uuid: string } | string;
  staging_pipeline_fqn?: string;
  environment?: Record<string, string>;
  tags?: Record<string, string>;
  [field: string]: unknown;
}

export interface Package {
  uuid: string;
  fqn: string;
  name: string;
  state: PackageState;
  version_id: number;
  resources: PackageResource[];
  environment?: Record<string, string>;
  error_message?: string;
  staging_pipeline_fqn?: string;
  [field: string]: unknown;
}

export interface Instance {
  uuid: string;
  job_uuid?: string;
  state: string;
  host?: string;
  instance_manager_uuid?: string;
  job_version_id?: number;
  exited?: boolean;
  exit_code?: number;
  failed?: boolean;
  reason?: string;
  ports?: Record<string, string>;
  announced_routes?: boolean;
  [field: string]: unknown;
}

export interface Runtime {
  runtime: string;
  patterns: string[];
}

export interface StagingPipeline {
  uuid: string;
  fqn: string;
  name?: string;
  stagers: { uuid?: string; fqn?: string }[];
  [field: string]: unknown;
}

export interface InstanceManager {
  uuid: string;
  hostname: string;
  status: string;
  num_instances: number;
  [field: string]: unknown;
}

export interface AuditEntry {
  uuid: string;
  event_type: string;
  fqn: string;
  principal_name: string;
  on_behalf_of?: string;
  /** UNIX time in seconds. */
  timestamp: number;
  audit_payload?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface User {
  name: string;
  [field: string]: unknown;
}

export interface PolicyDocument {
  name: string;
  text?: string;
  [field: string]: unknown;
}

export interface VersionInfo {
  version: string;
  build_id: string;
  build_number: string;
  download_urls: Record<string, { url: string; size: number; sha256: string }>;
  [field: string]: unknown;
}

export interface ClusterInfo {
  name: string;
  url: string;
  cluster_domain: string;
}

export interface FileEntry {
  name: string;
  size: number | '-';
}

/** One line of a log stream (Server-Sent Events of GET /jobs/{uuid}/logs?tail). */
export interface LogEvent {
  seq: number;
  time: string;
  instance_uuid: string;
  stream: string;
  line: string;
}

/** What the token endpoint answers, with the user information it sets in its cookie. */
export interface TokenGrant {
  access_token: string;
  expires_in: string;
  token_type: string;
  user?: { name: string; principal: string; mechanism: string; expires_in: number; default_namespace: string };
}

/** One event of a task (a manifest's deploy): `eos` ends it, `error` ends it failed. */
export interface TaskEvent {
  uuid: string;
  task_event_type: 'event' | 'error' | 'eos' | 'disconnect' | 'cancel';
  stage: string;
  subtask: { index: number; name: string; total: number; progress?: { current: number; progress: number } };
  payload: Record<string, string>;
  /** UNIX nanoseconds. */
  time: number;
}

export interface Task {
  uuid: string;
  state: 'running' | 'stopped' | 'complete';
  errored: 'unerrored' | 'errored';
  events: TaskEvent[];
  time_started: number;
  time_completed: number;
}

/** The answer of a metric query: per query text, per entity, a series; or per query text an error. */
export interface MetricAnswer {
  metrics: Record<string, Record<string, { times: number[]; values: number[] }>>;
  errors: Record<string, string>;
}

// ---- services, providers, bindings, gateways ------------------------------------------------

/** A job promoted to the gateway of a service type. */
export interface Gateway {
  type: string;
  job_fqn: string;
  job_uuid: string;
  /** 3 when it makes providers, else 2. */
  tier: number;
  /** The required parameters of each collection, as the gateway's GET / shows them. */
  parameters: Record<string, Record<string, unknown>>;
  method_map: Record<string, unknown>;
  created_at: string;
  created_by: string;
}

export interface Provider {
  uuid: string;
  fqn: string;
  name: string;
  type: string;
  description: string;
  /** `url` with its password shown as `***`. */
  parameters: Record<string, unknown>;
  backing_job_fqn: string;
  backing_job_port: string;
  created_at: string;
  created_by: string;
}

export interface ProviderInput {
  fqn: string;
  type: string;
  parameters: Record<string, unknown> & { url: string };
  name?: string;
  description?: string;
  backing_job_fqn?: string;
  backing_job_port?: string;
}

export interface Service {
  uuid: string;
  fqn: string;
  name: string;
  type: string;
  provider_fqn: string;
  description: string;
  parameters: Record<string, unknown>;
  created_at: string;
  created_by: string;
}

export interface ServiceInput {
  fqn: string;
  type?: string;
  provider_fqn?: string;
  name?: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

/** A binding to a service or a link to another job, as the job's `bindings` map holds it. */
export interface Binding {
  name: string;
  uuid: string;
  fqn: string;
  job_fqn: string;
  env_var: string[];
  parameters: Record<string, string | number | boolean>;
  service_fqn?: string;
  provider_fqn?: string;
  target_job_uuid?: string;
  target_job_port?: number | string;
  target_job_bound_ip?: string;
  target_job_bound_port?: number | string;
  [field: string]: unknown;
}

export interface BindingInput {
  job_fqn: string;
  fqn?: string;
  name?: string;
  service_fqn?: string;
  target_job_fqn?: string;
  target_job_port?: string | number;
  target_job_bound_ip?: string;
  target_job_bound_port?: string | number;
  parameters?: Record<string, string | number | boolean>;
}
