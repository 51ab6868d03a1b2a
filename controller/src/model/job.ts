/**
 * The Job resource: its wire shape, the schema of what a client may set, and the
 * defaults of `spec/behaviour-notes.md` that fill what a create omits.
 *
 * A Job splits into the spec (what clients set, normalized so that two equal
 * specs serialize equally) and the server-assigned fields.
 */
import { z } from 'zod';
import { parseCidr } from '@platform/proto/common';
import { InvalidRequestError } from '../errors.js';
import { drainsSchema, normalizeDrain, type Drain } from './drain.js';
import { parseFqn } from './fqn.js';
import { bool, envMap, int, parseInput, str, stringMap, uuid } from './validate.js';
import { sortedRecord } from '../util/json.js';

export const JOB_STATES = [
  'invalid',
  'unknown',
  'created',
  'errored',
  'staging',
  'staging_failed',
  'ready',
  'started',
  'stopped',
  'finished',
] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Who changes a job when nobody asked: the scheduler putting a crash loop in `errored`. */
export const SCHEDULER_PRINCIPAL = 'scheduler@platform.local';
/** Who changes num_instances of a job with `autoscaling` (metrics/autoscaler.ts). */
export const AUTOSCALER_PRINCIPAL = 'autoscaler@platform.local';

/**
 * Whose rights choose the packages that satisfy a job's dependencies (policy/references.ts,
 * UsableBy): the last principal who changed the job, or its creator when the last change was
 * the scheduler's own (errored, finished) or the autoscaler's, which stand for no user.
 */
export function dependencyPrincipal(job: Pick<Job, 'created_by' | 'updated_by'>): string {
  return job.updated_by === SCHEDULER_PRINCIPAL || job.updated_by === AUTOSCALER_PRINCIPAL ? job.created_by : job.updated_by;
}

const MiB = 1024 * 1024;

/** Defaults of an application job (behaviour notes, "Packages and runtimes"). */
export const JOB_DEFAULTS = {
  resources: { cpu: 0, memory: 256 * MiB, disk: 1024 * MiB, network: 5_000_000, netmax: 0 },
  restart: { restart_mode: 'always' as const, maximum_attempts: 0 },
  rollout: {
    errored_state_window: 0,
    flapping_minimum_restarts: 3,
    flapping_percent: 0.5,
    flapping_window: 300,
    force_stop_old_instances_after: 120,
    rolling_mode: false,
    failure_threshold: 0,
  },
  startCommandTimeout: 30,
  stopTimeout: 5,
  logs: [
    { file: '/logs/stdout.*.log', channel: 'job.$JOB_UUID.$INSTANCE_UUID.stdout' },
    { file: '/logs/stderr.*.log', channel: 'job.$JOB_UUID.$INSTANCE_UUID.stderr' },
  ],
  maxInstances: 10_000,
} as const;

// ---- input schema: only the fields a client may set -------------------------------------

const routeSchema = z.object({
  type: z.enum(['http', 'tcp', 'udp'], { error: 'expected "http", "tcp" or "udp"' }),
  // Empty (or absent) with auto_provision: the platform picks the app's default route.
  endpoint: str(1024).optional(),
  weight: z.number({ error: 'expected a number' }).min(0, { error: 'must not be negative' }).max(100, { error: 'must be at most 100' }).optional(),
  auto_provision: bool().optional(),
  https_only: bool().optional(),
});

const portSchema = z.object({
  number: int(0, 65535),
  optional: bool().optional(),
  routes: z.array(routeSchema).max(256).optional(),
});

const udpPortSchema = z.object({ number: int(0, 65535), optional: bool().optional() });

const processSchema = z.object({
  start_command: str(65536).optional(),
  start_command_raw: z.array(str(65536)).max(1024).optional(),
  start_command_timeout: int(0, 86_400).optional(),
  stop_command: str(65536).optional(),
  stop_command_raw: z.array(str(65536)).max(1024).optional(),
  stop_timeout: int(0, 86_400).optional(),
  environment: envMap().optional(),
  heavy: bool().optional(),
  // Who the process runs as inside the instance (a container job: the image's user); empty: root.
  user: str(256).optional(),
  group: str(256).optional(),
});

const resourceSchema = z.object({
  cpu: int(0).optional(),
  memory: int(0).optional(),
  disk: int(0).optional(),
  network: int(0).optional(),
  netmax: int(0).optional(),
});

const restartSchema = z.object({
  restart_mode: z.enum(['always', 'failure', 'no'], { error: 'expected "always", "failure" or "no"' }).optional(),
  maximum_attempts: int(0).optional(),
});

const rolloutSchema = z.object({
  errored_state_window: int(0).optional(),
  flapping_minimum_restarts: int(0).optional(),
  flapping_percent: z.number().min(0).max(1).optional(),
  flapping_window: int(0).optional(),
  force_stop_old_instances_after: int(0).optional(),
  rolling_mode: bool().optional(),
  failure_threshold: int(0).optional(),
});

const packageInfoSchema = z.object({
  uuid: uuid(),
  source: z.enum(['user', 'system', ''], { error: 'expected "user" or "system"' }).optional(),
  install_path: str(1024)
    .refine((p) => !p.split('/').includes('..') && !p.includes('\0'), { error: 'install_path must not have a ".." component or NUL' })
    .optional(),
});

const logSchema = z.object({ channel: str(1024), file: str(1024), jobid: str(64).optional() });

/** A binding or link in a job's `bindings` map (and the answer of POST /bindings). */
export const bindingSchema = z.object({
  name: str(512).optional(),
  uuid: str(64).optional(),
  fqn: str(512).optional(),
  job_fqn: str(512).optional(),
  env_var: z.array(str(256)).max(256).optional(),
  parameters: z.record(str(256), z.union([str(65536), z.number(), bool()])).optional(),
  service_fqn: str(512).optional(),
  provider_fqn: str(512).optional(),
  target_job_fqn: str(512).optional(),
  target_job_uuid: str(64).optional(),
  target_job_port: str(16).optional(),
  target_job_bound_ip: str(64).optional(),
  target_job_bound_port: str(16).optional(),
});

const schedulingTagSchema = z.object({
  hard: z.array(str(256)).max(256).optional(),
  soft: z.array(str(256)).max(256).optional(),
});

const containerOriginSchema = z.object({
  RegistryUrl: str(2048).optional(),
  ImageName: str(1024).optional(),
  ImageTag: str(256).optional(),
  Volumes: z.array(str(1024)).max(256).optional(),
});

/**
 * Where an http_metric is read: `http[s]://$INSTANCE[:port][/path]` on every running instance
 * of the job (at its first port; addresses the platform itself gave), or a URL polled as
 * written (its host judged by the destination rule, at creation and at each poll).
 */
export type MetricUrl = { instance: true; scheme: 'http://' | 'https://'; path: string } | { instance: false; url: URL; host: string; port: number };

/** The http_metric url `text`, or the reason it is not one. */
export function parseMetricUrl(text: string): MetricUrl | { error: string } {
  const m = /^(https?:\/\/)\$INSTANCE(?::\d+)?(\/.*)?$/.exec(text);
  if (m) return { instance: true, scheme: m[1] as 'http://' | 'https://', path: m[2] ?? '/' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: `"${text}" is not a URL: expected http[s]://<host>[:port]/<path> or http[s]://$INSTANCE[:port]/<path>` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: `scheme "${url.protocol.slice(0, -1)}" is not supported: expected http or https` };
  return { instance: false, url, host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
}

const monitoringSchema = z.object({
  type: z.literal('http_metric', { error: 'expected "http_metric"' }),
  config: z.object({
    url: str(2048).superRefine((url, ctx) => {
      const r = parseMetricUrl(url);
      if ('error' in r) ctx.addIssue({ code: 'custom', message: r.error });
    }),
  }),
});

const autoscalingSchema = z
  .object({
    min_instances: int(1, JOB_DEFAULTS.maxInstances).optional(),
    max_instances: int(2, JOB_DEFAULTS.maxInstances).optional(),
    observation_interval_secs: int(10).optional(),
    scale_timeout_secs: int(10).optional(),
    warmup_secs: int(0).optional(),
    rule: z
      .object({
        type: z.enum(['pid', 'threshold'], { error: 'expected "pid" or "threshold"' }),
        metric: str(256).optional(),
        config: z
          .object({
            setpoint: z.number().positive().optional(),
            kp: z.number().optional(),
            ki: z.number().optional(),
            kd: z.number().optional(),
            lower_threshold: z.number().optional(),
            upper_threshold: z.number().optional(),
            scale_up_delta: int(1).optional(),
            scale_down_delta: int(1).optional(),
            monitoring_window_secs: int(0).optional(),
          })
          .optional(),
      })
      .optional(),
  })
  .refine((a) => a.max_instances === undefined || (a.min_instances ?? 1) <= a.max_instances, {
    error: 'min_instances must not exceed max_instances',
  });

/**
 * A secret installed in the job (secrets/): by its FQN, as an environment variable or as a file
 * under the instance's `$PLATFORM_FILES/secrets/`. `uuid` and `version` are the controller's
 * (the secret the FQN named, and its version the instances run with): what a body says of them
 * is ignored.
 */
const jobSecretSchema = z
  .object({
    fqn: str(512),
    env: str(256)
      .refine((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n), { error: 'an environment variable name is letters, digits and _, not starting with a digit' })
      .optional(),
    file: str(255)
      .refine((f) => /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(f), { error: 'a file name of letters, digits, "_", "." and "-" (no "/"), not starting with "." or "-"' })
      .optional(),
    uuid: str(64).optional(),
    version: z.number().optional(),
  })
  .refine((s) => (s.env === undefined) !== (s.file === undefined), { error: 'give exactly one of env and file' });

/** An IPv4 block in CIDR notation (aggregate_network_routes: multicast and broadcast ranges). */
const cidrText = () =>
  str(64).refine(
    (v) => {
      try {
        parseCidr(v);
        return true;
      } catch {
        return false;
      }
    },
    { error: (i) => `"${String(i.input)}" is not an IPv4 block in CIDR notation (e.g. 239.1.0.0/16) without host bits` },
  );

export const jobInputSchema = z.object({
  fqn: str(512),
  name: str(512).optional(),
  num_instances: int(0, JOB_DEFAULTS.maxInstances).optional(),
  packages: z.array(packageInfoSchema).max(256).optional(),
  ports: z.array(portSchema).max(256).optional(),
  udp_ports: z.array(udpPortSchema).max(256).optional(),
  processes: z.record(str(256), processSchema).optional(),
  resources: resourceSchema.optional(),
  restart: restartSchema.optional(),
  rollout: rolloutSchema.optional(),
  rolling_mode_paused: bool().optional(),
  state: str(64).optional(),
  tags: stringMap().optional(),
  scheduling_tags: z.array(schedulingTagSchema).max(64).optional(),
  hard_scheduling_tags: z.record(str(256), bool()).optional(),
  soft_scheduling_tags: z.record(str(256), bool()).optional(),
  logs: z.array(logSchema).max(64).optional(),
  bindings: z.record(str(512), bindingSchema).optional(),
  drains: drainsSchema.optional(),
  docker_origin: containerOriginSchema.optional(),
  monitoring: z.record(str(256), monitoringSchema).optional(),
  // Answers show these as null when unset, and a body read back and sent again may hold that null.
  autoscaling: autoscalingSchema.nullable().optional(),
  network_ref: z.object({ uuid: uuid() }).nullable().optional(),
  aggregate_network_routes: z.record(str(256), z.union([cidrText(), z.array(cidrText()).max(256)])).nullable().optional(),
  sticky_session_cookies: z.array(str(256)).max(64).optional(),
  weight: int(0, 100).optional(),
  secrets: z.array(jobSecretSchema).max(64).optional(),
  // The job's instances get a token of its own principal (auth/app-tokens.ts).
  app_token: bool().optional(),
});
export type JobInput = z.output<typeof jobInputSchema>;

/**
 * The served job, for the OpenAPI document and the clients that check answers: what a client
 * may set (each field as jobInputSchema types it) and the fields the server assigns.
 */
export const jobViewSchema = jobInputSchema.extend({
  uuid: z.string(),
  name: z.string(),
  state: z.enum(JOB_STATES),
  num_instances: z.number().int(),
  version_id: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  created_by: z.string(),
  updated_by: z.string(),
});

// ---- the stored and served shape ------------------------------------------------------------

export type Route = Omit<z.output<typeof routeSchema>, 'endpoint'> & { endpoint: string };
export type Port = { number: number; optional: boolean; routes: Route[] };
export type Process = z.output<typeof processSchema> & { start_command_timeout: number; stop_timeout: number };
export type Resource = { cpu: number; memory: number; disk: number; network: number; netmax: number };
export type Restart = { restart_mode: 'always' | 'failure' | 'no'; maximum_attempts: number };
export type Rollout = {
  errored_state_window: number;
  flapping_minimum_restarts: number;
  flapping_percent: number;
  flapping_window: number;
  force_stop_old_instances_after: number;
  rolling_mode: boolean;
  failure_threshold: number;
};
export type PackageInfo = { uuid: string; source: 'user' | 'system'; install_path?: string; state?: string };
/** An entry of a job's `bindings` map (key: the binding's FQN): a service binding or a link to another job. */
export type JobBinding = z.output<typeof bindingSchema>;
export type JobLog = { channel: string; file: string; jobid?: string };
/** A secret installed in a job: env or file, and the secret's uuid and version (`uuid` '' until resolved). */
export type JobSecret = { fqn: string; uuid: string; version: number; env?: string; file?: string };
export type { Drain } from './drain.js';
export type JobHealth = {
  uuid: string;
  flapping: boolean;
  score: number;
  instance_state_count: Record<string, number>;
  /** Why the job does not run as configured (waiting for room, crash loop); absent when it does. */
  message?: string;
};

/** The part of a job that clients set. */
export interface JobSpec {
  num_instances: number;
  packages: PackageInfo[];
  ports: Port[];
  udp_ports: { number: number; optional: boolean }[];
  processes: Record<string, Process>;
  resources: Resource;
  restart: Restart;
  rollout: Rollout;
  rolling_mode_paused: boolean;
  tags: Record<string, string>;
  scheduling_tags: z.output<typeof schedulingTagSchema>[];
  hard_scheduling_tags: Record<string, boolean>;
  soft_scheduling_tags: Record<string, boolean>;
  logs: JobLog[];
  /** Kept by the controller (POST /bindings, /unbind, /unlink): what a body holds is ignored. */
  bindings: Record<string, JobBinding>;
  drains: Drain[];
  monitoring: Record<string, z.output<typeof monitoringSchema>>;
  autoscaling: z.output<typeof autoscalingSchema> | null;
  network_ref: { uuid: string } | null;
  aggregate_network_routes: Record<string, string | string[]> | null;
  sticky_session_cookies: string[];
  weight: number;
  /** Absent on jobs written before secrets existed: read as none. */
  secrets: JobSecret[];
  /** Its instances get an app token of the job's principal; absent on older jobs: false. */
  app_token: boolean;
}

/** A job as stored and served (health is added only when asked for). */
export interface Job extends JobSpec {
  uuid: string;
  fqn: string;
  name: string;
  state: JobState;
  docker_origin?: z.output<typeof containerOriginSchema>;
  version_id: number;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
  /**
   * The version_id at which `app_token` was last turned on (absent while it is off, and on jobs
   * written before it was kept): app tokens carry it, so that a token of an earlier turn stays
   * dead when the setting is removed and given again (auth/app-tokens.ts). Kept, not served.
   */
  app_token_since?: number;
  health?: JobHealth;
}

/**
 * What the API shows of a stored job: the record without the fields the controller keeps for
 * itself (app_token_since). The answers and the audit log's patches of a job both come from it,
 * so that neither shows more than the other.
 */
export function servedJob(job: Job): Omit<Job, 'app_token_since'> {
  const { app_token_since: _since, ...served } = job;
  return served;
}

/** What a client asks for with `state` in a body: a start, a stop, or nothing. */
export type StateRequest = 'start' | 'stop' | undefined;

export interface ParsedJobInput {
  fqn: string;
  localName: string;
  spec: JobSpec;
  stateRequest: StateRequest;
  dockerOrigin: JobInput['docker_origin'];
}

function nonZero(value: number | undefined, fallback: number): number {
  return value === undefined || value === 0 ? fallback : value;
}

/**
 * Validates a job body and normalizes it into a spec with every default applied.
 * `existingDrains` keeps the uuid of a drain whose url is unchanged.
 */
export function parseJobInput(body: unknown, newUuid: () => string, existingDrains: Drain[] = []): ParsedJobInput {
  const input = parseInput(jobInputSchema, body, 'job');
  const fqn = parseFqn(input.fqn, { type: 'job' });
  const localName = fqn.localName!;
  if (input.name && input.name !== localName) {
    throw new InvalidRequestError(`name: "${input.name}" does not match the name in fqn "${input.fqn}"`);
  }

  let stateRequest: StateRequest;
  if (input.state === 'started') stateRequest = 'start';
  else if (input.state === 'stopped') stateRequest = 'stop';
  else if (input.state !== undefined && input.state !== '' && !(JOB_STATES as readonly string[]).includes(input.state)) {
    throw new InvalidRequestError(`state: "${input.state}" is not a job state`);
  }

  const seenPackages = new Set<string>();
  const packages: PackageInfo[] = [];
  for (const p of input.packages ?? []) {
    if (p.source === 'system') continue; // computed by the controller, ignored on input
    const id = p.uuid.toLowerCase();
    if (seenPackages.has(id)) throw new InvalidRequestError(`packages: package ${id} is listed twice`);
    seenPackages.add(id);
    packages.push(p.install_path ? { uuid: id, source: 'user', install_path: p.install_path } : { uuid: id, source: 'user' });
  }

  const processes: Record<string, Process> = {};
  for (const [name, p] of Object.entries(sortedRecord(input.processes))) {
    processes[name] = {
      ...p,
      ...(p.environment ? { environment: sortedRecord(p.environment) } : {}),
      start_command_timeout: nonZero(p.start_command_timeout, JOB_DEFAULTS.startCommandTimeout),
      stop_timeout: nonZero(p.stop_timeout, JOB_DEFAULTS.stopTimeout),
    };
  }

  const r = input.resources ?? {};
  const d = JOB_DEFAULTS.resources;
  const drainsByUrl = new Map(existingDrains.map((dr) => [dr.url, dr.uuid]));

  const spec: JobSpec = {
    num_instances: input.num_instances ?? 1,
    packages,
    ports: (input.ports ?? []).map((p) => ({ number: p.number, optional: p.optional ?? false, routes: (p.routes ?? []).map((r) => ({ ...r, endpoint: r.endpoint ?? '' })) })),
    udp_ports: (input.udp_ports ?? []).map((p) => ({ number: p.number, optional: p.optional ?? true })),
    processes,
    resources: {
      cpu: r.cpu ?? d.cpu,
      memory: nonZero(r.memory, d.memory),
      disk: nonZero(r.disk, d.disk),
      network: nonZero(r.network, d.network),
      netmax: r.netmax ?? d.netmax,
    },
    restart: {
      restart_mode: input.restart?.restart_mode ?? JOB_DEFAULTS.restart.restart_mode,
      maximum_attempts: input.restart?.maximum_attempts ?? JOB_DEFAULTS.restart.maximum_attempts,
    },
    rollout: { ...JOB_DEFAULTS.rollout, ...definedOnly(input.rollout ?? {}) },
    rolling_mode_paused: input.rolling_mode_paused ?? false,
    tags: sortedRecord(input.tags),
    scheduling_tags: input.scheduling_tags ?? [],
    hard_scheduling_tags: sortedRecord(input.hard_scheduling_tags),
    soft_scheduling_tags: sortedRecord(input.soft_scheduling_tags),
    logs: input.logs && input.logs.length > 0 ? input.logs : JOB_DEFAULTS.logs.map((l) => ({ ...l })),
    bindings: sortedRecord(input.bindings),
    drains: (input.drains ?? []).map((dr) => normalizeDrain(dr, drainsByUrl.get(dr.url) ?? newUuid())),
    monitoring: sortedRecord(input.monitoring),
    autoscaling: input.autoscaling ? normalizeAutoscaling(input.autoscaling, input.monitoring ?? {}) : null,
    network_ref: input.network_ref ? { uuid: input.network_ref.uuid.toLowerCase() } : null,
    aggregate_network_routes: input.aggregate_network_routes ? sortedRecord(input.aggregate_network_routes) : null,
    sticky_session_cookies: input.sticky_session_cookies ?? [],
    weight: input.weight ?? 0,
    secrets: parseSecrets(input.secrets ?? []),
    app_token: input.app_token ?? false,
  };
  return { fqn: input.fqn, localName, spec, stateRequest, dockerOrigin: input.docker_origin };
}

/** The secrets of a body: FQNs checked, each env name and file name once; uuid and version left for the controller. */
function parseSecrets(input: z.output<typeof jobSecretSchema>[]): JobSecret[] {
  const seen = new Set<string>();
  return input.map((s, i) => {
    parseFqn(s.fqn, { type: 'secret', localName: 'required', field: `secrets.${i}.fqn` });
    const target = s.env !== undefined ? `env ${s.env}` : `file ${s.file}`;
    if (seen.has(target)) throw new InvalidRequestError(`secrets.${i}: ${target} is given twice`);
    seen.add(target);
    return { fqn: s.fqn, uuid: '', version: 0, ...(s.env !== undefined ? { env: s.env } : { file: s.file! }) };
  });
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const SETPOINT_DEFAULTS: Record<string, number> = {
  cpu_per_second: 100,
  requests_per_second: 1.0,
  request_latency: 1.0,
};

function normalizeAutoscaling(
  a: z.output<typeof autoscalingSchema>,
  monitoring: Record<string, unknown>,
): z.output<typeof autoscalingSchema> {
  const metric = a.rule?.metric ?? 'cpu_per_second';
  if (!(metric in SETPOINT_DEFAULTS) && !(metric in monitoring)) {
    throw new InvalidRequestError(
      `autoscaling.rule.metric: "${metric}" is neither a built-in metric nor a name in the job's monitoring map`,
    );
  }
  const type = a.rule?.type ?? 'pid';
  const c = a.rule?.config ?? {};
  const fallback = SETPOINT_DEFAULTS[metric] ?? 1.0;
  const config =
    type === 'pid'
      ? { setpoint: c.setpoint ?? fallback, kp: c.kp ?? 0.45, ki: c.ki ?? 0.0013, kd: c.kd ?? 0 }
      : {
          lower_threshold: c.lower_threshold ?? fallback,
          ...(c.upper_threshold === undefined ? {} : { upper_threshold: c.upper_threshold }),
          scale_up_delta: c.scale_up_delta ?? 1,
          scale_down_delta: c.scale_down_delta ?? 1,
          monitoring_window_secs: c.monitoring_window_secs ?? 0,
        };
  return {
    min_instances: a.min_instances ?? 1,
    // The manifest form's default, raised to min_instances when that is larger.
    max_instances: a.max_instances ?? Math.max(5, a.min_instances ?? 1),
    observation_interval_secs: a.observation_interval_secs ?? 10,
    scale_timeout_secs: a.scale_timeout_secs ?? 10,
    warmup_secs: a.warmup_secs ?? 0,
    rule: { type, metric, config },
  };
}

/** The spec part of a stored job, in the key order that `parseJobInput` produces. */
export function specOf(job: Job): JobSpec {
  return {
    num_instances: job.num_instances,
    packages: job.packages.filter((p) => p.source === 'user').map(({ state: _state, ...p }) => p),
    ports: job.ports,
    udp_ports: job.udp_ports,
    processes: job.processes,
    resources: job.resources,
    restart: job.restart,
    rollout: job.rollout,
    rolling_mode_paused: job.rolling_mode_paused,
    tags: job.tags,
    scheduling_tags: job.scheduling_tags,
    hard_scheduling_tags: job.hard_scheduling_tags,
    soft_scheduling_tags: job.soft_scheduling_tags,
    logs: job.logs,
    bindings: job.bindings,
    drains: job.drains,
    monitoring: job.monitoring,
    autoscaling: job.autoscaling,
    network_ref: job.network_ref,
    aggregate_network_routes: job.aggregate_network_routes,
    sticky_session_cookies: job.sticky_session_cookies,
    weight: job.weight,
    secrets: job.secrets ?? [],
    app_token: job.app_token ?? false,
  };
}
