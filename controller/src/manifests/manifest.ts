/**
 * The multi-resource manifest (cluster-api.md, "Multi-resource manifest shape"): its schema,
 * `${VAR}` variables, resource strings with unit suffixes, and the job body each declaration
 * becomes. Pure functions: what changes the cluster is in manifest-service.ts.
 */
import { z } from 'zod';
import { InvalidRequestError } from '../errors.js';
import { parseFqn } from '../model/fqn.js';
import { bool, int, parseInput, str, stringMap } from '../model/validate.js';

// ---- variables -----------------------------------------------------------------------------

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The manifest and its variables from a request body: the manifest itself, or
 * `{"manifest": <manifest>, "variables": {"NAME": "value"}}`.
 */
export function splitBody(body: Record<string, unknown>): { manifest: unknown; variables: Record<string, string> } {
  if (!('manifest' in body)) return { manifest: body, variables: {} };
  const extra = Object.keys(body).filter((k) => k !== 'manifest' && k !== 'variables');
  if (extra.length > 0) throw new InvalidRequestError(`unknown key(s) ${extra.map((k) => `"${k}"`).join(', ')} beside "manifest" and "variables"`);
  const variables = body['variables'] ?? {};
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) throw new InvalidRequestError('variables: expected an object of NAME -> string');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(variables)) {
    if (!NAME.test(k)) throw new InvalidRequestError(`variables: "${k}" is not a variable name (letters, digits, _; not starting with a digit)`);
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new InvalidRequestError(`variables.${k}: expected a string`);
    out[k] = String(v);
  }
  return { manifest: body['manifest'], variables: out };
}

/**
 * Fills every `${NAME}` in the manifest's strings (keys included) from `variables`; `$${` stands
 * for a literal `${`. An unset variable is an error naming it (every one, with where it is).
 */
export function expandVariables(value: unknown, variables: Record<string, string>): unknown {
  const unset = new Map<string, string>();
  const fill = (text: string, where: string): string =>
    text
      .split('$${')
      .map((part) =>
        part.replace(VARIABLE, (_m, name: string) => {
          const v = variables[name];
          if (v === undefined) {
            if (!unset.has(name)) unset.set(name, where);
            return '';
          }
          return v;
        }),
      )
      .join('${');
  const walk = (v: unknown, where: string): unknown => {
    if (typeof v === 'string') return fill(v, where);
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${where}[${i}]`));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const key = fill(k, where);
        out[key] = walk(x, where ? `${where}.${key}` : key);
      }
      return out;
    }
    return v;
  };
  const expanded = walk(value, '');
  if (unset.size > 0) {
    const list = [...unset].map(([name, where]) => `\${${name}} (in ${where || 'the manifest'})`).join(', ');
    throw new InvalidRequestError(`variable(s) not set: ${list}; give them in "variables"`, { details: { unset_variables: [...unset.keys()] } });
  }
  return expanded;
}

// ---- units ---------------------------------------------------------------------------------

const BYTE_UNITS: Record<string, number> = {
  '': 1, b: 1,
  k: 1024, kb: 1024, kib: 1024,
  m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2,
  g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3,
  t: 1024 ** 4, tb: 1024 ** 4, tib: 1024 ** 4,
};
const BIT_RATE_UNITS: Record<string, number> = {
  '': 1, bps: 1, kbps: 1_000, mbps: 1_000_000, gbps: 1_000_000_000, kbit: 1_000, mbit: 1_000_000, gbit: 1_000_000_000,
};

/**
 * A size such as `256MiB`, `1GB`, `512m` or a plain number of bytes. KB, MB, GB (and K, M, G)
 * are binary multiples, as the original platform read them (`256MB` is 268435456 bytes).
 */
export function parseBytes(value: string | number, field: string): number {
  return parseUnit(value, field, BYTE_UNITS, 'a size such as 256MiB, 1GB or a number of bytes');
}

/** A bit rate such as `5Mbps`, `1Gbps`, `500Kbps` or a plain number of bits per second. */
export function parseBitRate(value: string | number, field: string): number {
  return parseUnit(value, field, BIT_RATE_UNITS, 'a rate such as 5Mbps, 1Gbps or a number of bits per second');
}

function parseUnit(value: string | number, field: string, units: Record<string, number>, what: string): number {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new InvalidRequestError(`${field}: ${value} is not ${what}`);
    return value;
  }
  const m = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$/.exec(value);
  const factor = m ? units[m[2]!.toLowerCase()] : undefined;
  if (!m || factor === undefined) throw new InvalidRequestError(`${field}: "${value}" is not ${what}`);
  const n = Math.round(Number(m[1]) * factor);
  if (!Number.isSafeInteger(n)) throw new InvalidRequestError(`${field}: "${value}" is too large`);
  return n;
}

// ---- schema --------------------------------------------------------------------------------

const quantity = z.union([str(64), int(0)]);
const fqnList = z.array(str(512)).max(256);

const routeConfigTarget = z.strictObject({
  port: int(0, 65535),
  https_only: bool().optional(),
  weight: z.number().min(0).max(100).optional(),
});

const manifestJobSchema = z.strictObject({
  affinity: z
    .strictObject({
      repel: z.strictObject({ hard: fqnList.optional(), soft: fqnList.optional() }).optional(),
      attract: z.strictObject({ hard: fqnList.optional(), soft: fqnList.optional() }).optional(),
    })
    .optional(),
  autoscaling: z.record(str(64), z.unknown()).optional(),
  docker: z
    .strictObject({
      image: str(2048),
      pull: bool().optional(),
      username: str(256).optional(),
      password: str(1024).optional(),
    })
    .optional(),
  drains: z.array(z.strictObject({ url: str(1024), max_size: int(0).optional() })).max(64).optional(),
  env: stringMap().optional(),
  exposed_ports: z.array(int(0, 65535)).max(256).optional(),
  exposed_udp_ports: z.array(int(0, 65535)).max(256).optional(),
  required_ports: z.array(int(0, 65535)).max(256).optional(),
  group: str(256).optional(),
  user: str(256).optional(),
  instances: int(0, 10_000).optional(),
  links: z
    .record(
      str(256),
      z.strictObject({ fqn: str(512), port: int(0, 65535).optional(), bound_ip: str(64).optional(), bound_port: int(0, 65535).optional(), delete: bool().optional() }),
    )
    .optional(),
  monitoring: z.record(str(256), z.strictObject({ type: z.literal('http_metric'), config: z.strictObject({ url: str(2048) }) })).optional(),
  packages: z.array(z.strictObject({ fqn: str(512) })).max(256).optional(),
  resources: z
    .strictObject({
      cpu: quantity.optional(),
      disk_space: quantity.optional(),
      memory: quantity.optional(),
      network_bandwidth: quantity.optional(),
      network_max: quantity.optional(),
    })
    .optional(),
  restart_mode: z.enum(['always', 'failure', 'no'], { error: 'expected "always", "failure" or "no"' }).optional(),
  routes: z
    .array(
      z.strictObject({
        type: z.enum(['http', 'tcp', 'udp'], { error: 'expected "http", "tcp" or "udp"' }),
        endpoint: str(1024),
        config: z.union([z.record(str(1024), z.array(routeConfigTarget).max(64)), z.array(routeConfigTarget).max(64)]),
      }),
    )
    .max(256)
    .optional(),
  scheduling_tags: z.strictObject({ soft: z.array(str(256)).max(256).optional(), hard: z.array(str(256)).max(256).optional() }).optional(),
  services: z.record(str(256), z.strictObject({ fqn: str(512), params: z.record(str(256), z.unknown()).optional(), delete: bool().optional() })).optional(),
  // Secrets installed in the job, as a job body gives them ({fqn, env} or {fqn, file}; secrets/).
  secrets: z.array(z.strictObject({ fqn: str(512), env: str(256).optional(), file: str(255).optional() })).max(64).optional(),
  // The job's instances get a token of its own principal (auth/app-tokens.ts).
  app_token: bool().optional(),
  ssh: bool().optional(),
  start: z.strictObject({ cmd: str(65536), timeout: int(0, 86_400).optional() }).optional(),
  stop: z.strictObject({ cmd: str(65536), timeout: int(0, 86_400).optional() }).optional(),
  state: z.enum(['started', 'ready'], { error: 'expected "started" or "ready"' }).optional(),
});
export type ManifestJob = z.output<typeof manifestJobSchema>;

const manifestSchema = z.strictObject({
  jobs: z.record(str(512), manifestJobSchema),
  services: z.record(str(512), z.record(str(64), z.unknown())).optional(),
  networks: z.record(str(512), z.record(str(64), z.unknown())).optional(),
});
export type Manifest = z.output<typeof manifestSchema>;

/** The manifest, checked: shape, FQNs, one of `docker` or `packages` per job. */
export function parseManifest(value: unknown): { manifest: Manifest; warnings: string[] } {
  const manifest = parseInput(manifestSchema, value, 'manifest');
  const warnings: string[] = [];
  const names = Object.keys(manifest.jobs);
  if (names.length === 0) throw new InvalidRequestError('manifest: "jobs" declares no job');
  for (const [fqn, job] of Object.entries(manifest.jobs)) {
    const parsed = parseFqn(fqn, { type: 'job', field: `jobs."${fqn}"` });
    if (parsed.localName === undefined) throw new InvalidRequestError(`jobs."${fqn}": names no job (job::<namespace>::<name>)`);
    if (!job.docker && !job.packages) throw new InvalidRequestError(`jobs."${fqn}": declares neither "docker" nor "packages" (rule 4: one of them)`);
    if (job.docker && job.packages) warnings.push(`jobs."${fqn}": "packages" ignored, "docker" wins (rule 4)`);
    if (job.packages) for (const p of job.packages) parseFqn(p.fqn, { type: 'package', field: `jobs."${fqn}".packages` });
    for (const port of job.required_ports ?? []) {
      if (!(job.exposed_ports ?? []).includes(port)) throw new InvalidRequestError(`jobs."${fqn}".required_ports: ${port} is not among exposed_ports`);
    }
  }
  return { manifest, warnings };
}

// ---- job bodies ----------------------------------------------------------------------------

/**
 * The jobs in deployment order: a job after the jobs of the manifest it links to (link
 * targets first). A cycle of links is refused.
 */
export function deploymentOrder(manifest: Manifest): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (fqn: string, path: string[]) => {
    if (state.get(fqn) === 'done') return;
    if (state.get(fqn) === 'visiting') throw new InvalidRequestError(`jobs: the links form a cycle: ${[...path, fqn].join(' -> ')}`);
    state.set(fqn, 'visiting');
    for (const link of Object.values(manifest.jobs[fqn]?.links ?? {})) if (manifest.jobs[link.fqn]) visit(link.fqn, [...path, fqn]);
    state.set(fqn, 'done');
    order.push(fqn);
  };
  for (const fqn of Object.keys(manifest.jobs).sort()) visit(fqn, []);
  return order;
}

/** What the image of a docker job gives its job (images/image-config.ts, ImagePlan). */
export interface ImageDefaults {
  startCommand: string[];
  user: string;
  exposedPorts: number[];
  udpPorts: number[];
}

/**
 * The job fields that manifest job `fqn` declares (its packages resolved to `packageUuids`,
 * the image's defaults when it is a docker job): the body of a create, or what an update
 * changes (rule 1: what the manifest does not declare is kept).
 */
export function jobBodyOf(fqn: string, job: ManifestJob, packageUuids: string[], image?: ImageDefaults): Record<string, unknown> {
  const at = (field: string) => `jobs."${fqn}".${field}`;
  const exposed = job.exposed_ports ?? image?.exposedPorts ?? [];
  const required = job.required_ports;
  const routesByPort = new Map<number, Record<string, unknown>[]>();
  for (const [i, route] of (job.routes ?? []).entries()) {
    const targets: { path: string; t: z.output<typeof routeConfigTarget> }[] = Array.isArray(route.config)
      ? route.config.map((t) => ({ path: '/', t }))
      : Object.entries(route.config).flatMap(([path, ts]) => ts.map((t) => ({ path, t })));
    if (route.type !== 'http' && !Array.isArray(route.config)) throw new InvalidRequestError(`${at(`routes[${i}].config`)}: a ${route.type} route's config is a list of {port, weight}`);
    for (const { path, t } of targets) {
      if (!path.startsWith('/')) throw new InvalidRequestError(`${at(`routes[${i}].config`)}: path "${path}" does not start with /`);
      if (t.port !== 0 && !exposed.includes(t.port)) throw new InvalidRequestError(`${at(`routes[${i}]`)}: port ${t.port} is not among exposed_ports (${exposed.join(', ') || 'none'})`);
      const auto = route.type === 'http' && route.endpoint === 'auto';
      const endpoint = route.type === 'http' ? (auto ? '' : `${route.endpoint}${path === '/' ? '' : path}`) : route.endpoint;
      const entry: Record<string, unknown> = { type: route.type, endpoint, ...(auto ? { auto_provision: true } : {}) };
      if (t.weight !== undefined) entry['weight'] = t.weight;
      if (t.https_only !== undefined) entry['https_only'] = t.https_only;
      const port = t.port === 0 ? (exposed[0] ?? 0) : t.port;
      routesByPort.set(port, [...(routesByPort.get(port) ?? []), entry]);
    }
  }
  const ports = exposed.map((number) => ({ number, optional: required ? !required.includes(number) : false, routes: routesByPort.get(number) ?? [] }));
  for (const port of routesByPort.keys()) if (!exposed.includes(port)) ports.push({ number: port, optional: false, routes: routesByPort.get(port)! });
  const process: Record<string, unknown> = { environment: job.env ?? {} };
  if (job.start) {
    process['start_command'] = job.start.cmd;
    if (job.start.timeout !== undefined) process['start_command_timeout'] = job.start.timeout;
  } else if (image && image.startCommand.length > 0) {
    process['start_command_raw'] = image.startCommand;
  }
  if (job.stop) {
    process['stop_command'] = job.stop.cmd;
    if (job.stop.timeout !== undefined) process['stop_timeout'] = job.stop.timeout;
  }
  const user = job.user ?? image?.user;
  if (user) process['user'] = user;
  if (job.group) process['group'] = job.group;
  const resources: Record<string, number> = {};
  const r = job.resources;
  if (r?.cpu !== undefined) resources['cpu'] = parseUnit(r.cpu, at('resources.cpu'), { '': 1, ms: 1 }, 'milliseconds of CPU per second (a number, or 100ms)');
  if (r?.memory !== undefined) resources['memory'] = parseBytes(r.memory, at('resources.memory'));
  if (r?.disk_space !== undefined) resources['disk'] = parseBytes(r.disk_space, at('resources.disk_space'));
  if (r?.network_bandwidth !== undefined) resources['network'] = parseBitRate(r.network_bandwidth, at('resources.network_bandwidth'));
  if (r?.network_max !== undefined) resources['netmax'] = parseBitRate(r.network_max, at('resources.network_max'));
  const udp = job.exposed_udp_ports ?? image?.udpPorts ?? [];
  const declaresPorts = job.exposed_ports !== undefined || job.routes !== undefined || job.required_ports !== undefined || image !== undefined;
  return {
    fqn,
    ...(job.instances !== undefined ? { num_instances: job.instances } : {}),
    packages: packageUuids.map((uuid) => ({ uuid })),
    processes: { app: process },
    ...(declaresPorts ? { ports } : {}),
    ...(udp.length > 0 ? { udp_ports: udp.map((number) => ({ number, optional: false })) } : {}),
    ...(Object.keys(resources).length > 0 ? { resources } : {}),
    ...(job.restart_mode ? { restart: { restart_mode: job.restart_mode } } : {}),
    ...(job.scheduling_tags ? { scheduling_tags: [{ ...(job.scheduling_tags.hard ? { hard: job.scheduling_tags.hard } : {}), ...(job.scheduling_tags.soft ? { soft: job.scheduling_tags.soft } : {}) }] } : {}),
    ...(job.monitoring ? { monitoring: job.monitoring } : {}),
    ...(job.drains ? { drains: job.drains.map((d) => ({ url: d.url, ...(d.max_size !== undefined ? { max_size: d.max_size } : {}) })) } : {}),
    ...(job.autoscaling ? { autoscaling: job.autoscaling } : {}),
    ...(job.secrets ? { secrets: job.secrets } : {}),
    ...(job.app_token !== undefined ? { app_token: job.app_token } : {}),
    ...(job.state ? { state: job.state === 'started' ? 'started' : 'stopped' } : {}),
  };
}
