/**
 * The resources of the REST API as the client sees them. Requests and the answers whose
 * schema the controller's OpenAPI document declares (jobs, packages, services...) are taken
 * from it (api-types.ts over the generated openapi.ts); the answers it leaves open are
 * described here with the fields the CLI and most scripts use, and keep the rest of their
 * fields (index signatures), so nothing the controller adds is lost.
 */

import type { Answer, RequestBody } from './api-types.js';

// ---- from the OpenAPI document (openapi.ts): requests and answers it declares schemas of ----

/**
 * `T` where every optional field may also be null: the controller reads a null field of a
 * request body as absent, so an answer (whose empty fields are null) can be sent back.
 */
export type NullsAllowed<T> = T extends readonly (infer E)[]
  ? NullsAllowed<E>[]
  : T extends object
    ? { [K in keyof T]: undefined extends T[K] ? NullsAllowed<T[K]> | null : NullsAllowed<T[K]> }
    : T;

/** What a client sends to create or replace a job. */
export type JobInput = NullsAllowed<RequestBody<'/v1/jobs', 'post'>>;
/** A JSON Merge Patch (RFC 7396) of `T`: every field may be left out, and null removes one. */
export type MergePatch<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: MergePatch<T[K]> | null } : T;
/** A JSON Merge Patch of a job (the document's PATCH body, with null to remove a field). */
export type JobPatch = MergePatch<RequestBody<'/v1/jobs/{uuid}', 'patch'>>;
export type Job = Answer<'/v1/jobs/{uuid}', 'get'>;
export type JobState = Job['state'];
export type Port = NonNullable<RequestBody<'/v1/jobs', 'post'>['ports']>[number];
export type Route = NonNullable<Port['routes']>[number];
export type Process = NonNullable<RequestBody<'/v1/jobs', 'post'>['processes']>[string];
export type Resources = NonNullable<RequestBody<'/v1/jobs', 'post'>['resources']>;
export type Rollout = NonNullable<RequestBody<'/v1/jobs', 'post'>['rollout']>;
export type PackageInput = RequestBody<'/v1/packages', 'post'>;
export type Package = Answer<'/v1/packages/{uuid}', 'get'>;
export type PackageState = Package['state'];
export type PackageResource = Package['resources'][number];
export type PipelineInput = RequestBody<'/v1/stagingpipelines', 'post'>;
export type PolicyUpdate = RequestBody<'/v1/policy', 'put'>;

/** A job promoted to the gateway of a service type (`tier` 3 when it makes providers). */
export type Gateway = Answer<'/v1/gateways', 'post'>;
/** A provider; `parameters.url` is shown without its password. */
export type Provider = Answer<'/v1/providers/{uuid}', 'get'>;
export type ProviderInput = RequestBody<'/v1/providers', 'post'>;
export type Service = Answer<'/v1/services/{uuid}', 'get'>;
export type ServiceInput = RequestBody<'/v1/services', 'post'>;
/** A binding to a service or a link to another job, as the job's `bindings` map holds it. */
export type Binding = Answer<'/v1/bindings', 'post'>;
export type BindingInput = RequestBody<'/v1/bindings', 'post'>;
export type UnbindInput = RequestBody<'/v1/unbind', 'post'>;
export type UnlinkInput = RequestBody<'/v1/unlink', 'post'>;
/** A log drain: a syslog collector a job's log lines are sent to. */
export type Drain = Answer<'/v1/jobs/{uuid}/logs/drains', 'post'>;
export type DrainInput = RequestBody<'/v1/jobs/{uuid}/logs/drains', 'post'>;
/** A virtual network with its endpoints (member jobs and, unless ipam=false, their instances' addresses). */
export type Network = Answer<'/v1/networks/{uuid}', 'get'>;
export type NetworkInput = RequestBody<'/v1/networks', 'post'>;
export type JoinInput = RequestBody<'/v1/networks/{uuid}/join', 'post'>;

// ---- described here: answers the document leaves open -------------------------------------

export interface JobHealth {
  job_uuid?: string;
  uuid?: string;
  state?: string;
  num_instances?: number;
  num_running?: number;
  messages?: string[];
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

/** An identity provider users may log in with (GET /v1/oauth2/providers). */
export interface IdentityProviderInfo {
  name: string;
  display_name: string;
  issuer: string;
  device_flow: boolean;
}

/** A device-flow login started at an identity provider (getcode). */
export interface DeviceCodeGrant {
  device_code: string;
  user_code: string;
  verification_url: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval: number;
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
