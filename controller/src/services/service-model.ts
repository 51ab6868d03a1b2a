/**
 * The resources of services/: gateways, providers, services and bindings as the controller keeps
 * them (records, with what only the controller sees: the gateway's ids and state headers, a
 * binding's url) and as the API shows them; and the request bodies, parsed here so that the
 * operations (catalog.ts) take parsed requests, whoever calls them (an endpoint, a manifest).
 *
 * Shapes follow the specification where it has them (Binding, CreateProviderRequest), the 2016
 * Swagger file where it says "not shown" (Provider, Service, ServiceRequestObject,
 * UnbindParameterObject, UnlinkParameterObject), and docs/api.md ("Services") for what we chose.
 */
import { z } from 'zod';
import { paramsOf, type MethodMap, type Tier } from '@platform/gateway-sdk';
import { InvalidRequestError } from '../errors.js';
import { parseFqn } from '../model/fqn.js';
import { bool, int, parseInput, str } from '../model/validate.js';

/** A service type names a gateway: lower case, digits, `_.-`. */
const TYPE = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
/** A binding or link name: the base of its environment variable. */
const BINDING_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

const typeField = () => str(64).regex(TYPE, { error: 'expected a service type: lower-case letters, digits and _.- (e.g. "postgres")' });
const params = () => z.record(str(256), z.unknown());
const scalarParams = () => z.record(str(256), z.union([str(65536), z.number(), bool()]));

// ---- gateways ---------------------------------------------------------------------------------

export interface GatewayRecord {
  type: string;
  job_uuid: string;
  job_fqn: string;
  tier: Tier;
  /** What the gateway's `GET /` answered at promotion. */
  method_map: MethodMap;
  created_at: string;
  created_by: string;
}

export const promoteSchema = z.object({ job_fqn: str(512), type: typeField() });
export interface PromoteRequest {
  jobFqn: string;
  type: string;
}
export function parsePromote(body: unknown): PromoteRequest {
  const input = parseInput(promoteSchema, body, 'gateway');
  parseFqn(input.job_fqn, { type: 'job', field: 'job_fqn' });
  return { jobFqn: input.job_fqn, type: input.type };
}

/** The required parameters of each collection, where `GET /` showed them in the spec's shape (names -> example). */
function requiredParameters(map: MethodMap): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const c of ['providers', 'services', 'bindings'] as const) {
    const p = paramsOf(map, `/${c}`);
    if (p) out[c] = p;
  }
  return out;
}

/** What the API shows of a gateway (the OpenAPI document's answer; renderGateway is checked against it). */
export const gatewayViewSchema = z.object({
  type: z.string(),
  job_fqn: z.string(),
  job_uuid: z.string(),
  tier: z.number().int(),
  parameters: z.record(z.string(), z.record(z.string(), z.unknown())),
  method_map: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  created_by: z.string(),
});

export function renderGateway(g: GatewayRecord): z.input<typeof gatewayViewSchema> {
  return {
    type: g.type,
    job_fqn: g.job_fqn,
    job_uuid: g.job_uuid,
    tier: g.tier,
    parameters: requiredParameters(g.method_map),
    method_map: g.method_map,
    created_at: g.created_at,
    created_by: g.created_by,
  };
}

// ---- providers --------------------------------------------------------------------------------

export interface ProviderRecord {
  uuid: string;
  fqn: string;
  name: string;
  type: string;
  description: string;
  /** As given, `url` (with its credentials) included: the API shows it without the password. */
  parameters: Record<string, unknown>;
  backing_job_fqn: string;
  backing_job_port: string;
  rootcerts: string;
  /** The gateway's id of the provider, and its X-Provider-State. */
  gateway_id: string;
  state?: string;
  created_at: string;
  created_by: string;
}

export const providerSchema = z.object({
  fqn: str(512),
  type: typeField(),
  parameters: params().refine((p) => typeof p['url'] === 'string' && p['url'] !== '', { error: 'must hold "url", the administrative connection url' }),
  name: str(256).optional(),
  description: str(4096).optional(),
  backing_job_fqn: str(512).optional(),
  backing_job_port: z.union([str(16), int(0, 65535)]).optional(),
  rootcerts: str(65536).optional(),
});
export type ProviderRequest = Omit<z.output<typeof providerSchema>, 'backing_job_port'> & { localName: string; backing_job_port?: string };

export function parseProvider(body: unknown): ProviderRequest {
  const input = parseInput(providerSchema, body, 'provider');
  const fqn = parseFqn(input.fqn, { type: 'provider' });
  if (input.backing_job_fqn) parseFqn(input.backing_job_fqn, { type: 'job', field: 'backing_job_fqn' });
  const port = input.backing_job_port === undefined ? undefined : String(input.backing_job_port);
  if (port !== undefined && port !== '' && !/^\d{1,5}$/.test(port)) throw new InvalidRequestError('backing_job_port: expected a port number');
  const { backing_job_port: _port, ...rest } = input;
  return { ...rest, localName: fqn.localName!, ...(port ? { backing_job_port: port } : {}) };
}

/** A url with its password replaced by `***`; other text as it is. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = '***';
    return u.href;
  } catch {
    return url;
  }
}

/** What the API shows of a provider: `parameters.url` without its password. */
export const providerViewSchema = z.object({
  uuid: z.string(),
  fqn: z.string(),
  name: z.string(),
  type: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  backing_job_fqn: z.string(),
  backing_job_port: z.string(),
  created_at: z.string(),
  created_by: z.string(),
});

export function renderProvider(p: ProviderRecord): z.input<typeof providerViewSchema> {
  const parameters = { ...p.parameters };
  if (typeof parameters['url'] === 'string') parameters['url'] = redactUrl(parameters['url']);
  return {
    uuid: p.uuid,
    fqn: p.fqn,
    name: p.name,
    type: p.type,
    description: p.description,
    parameters,
    backing_job_fqn: p.backing_job_fqn,
    backing_job_port: p.backing_job_port,
    created_at: p.created_at,
    created_by: p.created_by,
  };
}

// ---- services ---------------------------------------------------------------------------------

export interface ServiceRecord {
  uuid: string;
  fqn: string;
  name: string;
  type: string;
  provider_fqn: string;
  provider_uuid: string;
  description: string;
  parameters: Record<string, unknown>;
  gateway_id: string;
  state?: string;
  created_at: string;
  created_by: string;
}

export const serviceSchema = z.object({
  fqn: str(512),
  type: typeField().optional(),
  provider_fqn: str(512).optional(),
  name: str(256).optional(),
  description: str(4096).optional(),
  parameters: params().optional(),
});
export type ServiceRequest = z.output<typeof serviceSchema> & { localName: string };

export function parseService(body: unknown): ServiceRequest {
  const input = parseInput(serviceSchema, body, 'service');
  const fqn = parseFqn(input.fqn, { type: 'service' });
  if (input.provider_fqn) parseFqn(input.provider_fqn, { type: 'provider', field: 'provider_fqn' });
  if (!input.provider_fqn && !input.type) throw new InvalidRequestError('type: a service needs its type, or a provider_fqn whose type it takes');
  return { ...input, localName: fqn.localName! };
}

/** What the API shows of a service. */
export const serviceViewSchema = z.object({
  uuid: z.string(),
  fqn: z.string(),
  name: z.string(),
  type: z.string(),
  provider_fqn: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  created_by: z.string(),
  created_at: z.string(),
});

export function renderService(s: ServiceRecord): z.input<typeof serviceViewSchema> {
  return {
    uuid: s.uuid,
    fqn: s.fqn,
    name: s.name,
    type: s.type,
    provider_fqn: s.provider_fqn,
    description: s.description,
    parameters: s.parameters,
    created_by: s.created_by,
    created_at: s.created_at,
  };
}

// ---- bindings ---------------------------------------------------------------------------------

/** A job-to-service binding as the controller keeps it (the job's `bindings` map has its public part). */
export interface ServiceBindingRecord {
  uuid: string;
  fqn: string;
  name: string;
  job_uuid: string;
  job_fqn: string;
  service_uuid: string;
  service_fqn: string;
  /** The gateway's id of the binding and its X-Binding-State. */
  gateway_id: string;
  state?: string;
  /** The connection url the gateway answered (credentials included): what `*_URI` holds. */
  url: string;
  protocol: Record<string, unknown>;
  created_at: string;
  created_by: string;
}

const port = () => z.union([str(16), int(0, 65535)]);

export const bindingRequestSchema = z.object({
  fqn: str(512).optional(),
  name: str(128).optional(),
  job_fqn: str(512),
  service_fqn: str(512).optional(),
  target_job_fqn: str(512).optional(),
  target_job_port: port().optional(),
  target_job_bound_ip: str(64).optional(),
  target_job_bound_port: port().optional(),
  parameters: scalarParams().optional(),
});

export interface BindRequest {
  fqn?: string;
  name?: string;
  jobFqn: string;
  /** A job-to-service binding... */
  serviceFqn?: string;
  /** ...or a link to another job. */
  targetJobFqn?: string;
  targetJobPort: number;
  boundIp?: string;
  boundPort?: number;
  parameters: Record<string, string | number | boolean>;
}

function portNumber(value: string | number | undefined, field: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidRequestError(`${field}: expected a port number from 0 to 65535`);
  return n;
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;

export function parseBind(body: unknown): BindRequest {
  const input = parseInput(bindingRequestSchema, body, 'binding');
  parseFqn(input.job_fqn, { type: 'job', field: 'job_fqn' });
  if (input.fqn) parseFqn(input.fqn, { type: 'binding' });
  if (input.name !== undefined && !BINDING_NAME.test(input.name)) {
    throw new InvalidRequestError(`name: "${input.name}" must start with a letter or _ and hold letters, digits and _.- only (it names an environment variable)`);
  }
  if (!!input.service_fqn === !!input.target_job_fqn) throw new InvalidRequestError('a binding names either service_fqn (a service binding) or target_job_fqn (a link), not both or neither');
  if (input.service_fqn) {
    parseFqn(input.service_fqn, { type: 'service', field: 'service_fqn' });
    for (const f of ['target_job_port', 'target_job_bound_ip', 'target_job_bound_port'] as const) {
      if (input[f] !== undefined && input[f] !== '') throw new InvalidRequestError(`${f}: only for links (target_job_fqn)`);
    }
  }
  if (input.target_job_fqn) parseFqn(input.target_job_fqn, { type: 'job', field: 'target_job_fqn' });
  const boundPort = portNumber(input.target_job_bound_port, 'target_job_bound_port');
  const boundIp = input.target_job_bound_ip || undefined;
  if ((boundIp === undefined) !== (boundPort === undefined)) throw new InvalidRequestError('target_job_bound_ip and target_job_bound_port go together');
  if (boundIp !== undefined && !IPV4.test(boundIp)) throw new InvalidRequestError(`target_job_bound_ip: "${boundIp}" is not an IPv4 address`);
  if (boundPort === 0) throw new InvalidRequestError('target_job_bound_port: must not be 0');
  return {
    ...(input.fqn ? { fqn: input.fqn } : {}),
    ...(input.name ? { name: input.name } : {}),
    jobFqn: input.job_fqn,
    ...(input.service_fqn ? { serviceFqn: input.service_fqn } : {}),
    ...(input.target_job_fqn ? { targetJobFqn: input.target_job_fqn } : {}),
    targetJobPort: portNumber(input.target_job_port, 'target_job_port') ?? 0,
    ...(boundIp !== undefined ? { boundIp, boundPort: boundPort! } : {}),
    parameters: input.parameters ?? {},
  };
}

export const unbindSchema = z.object({ job: str(512), service: str(512), force: bool().optional() });
export interface UnbindRequest {
  jobFqn: string;
  serviceFqn: string;
  force: boolean;
}
export function parseUnbind(body: unknown): UnbindRequest {
  const input = parseInput(unbindSchema, body, 'unbind request');
  parseFqn(input.job, { type: 'job', field: 'job' });
  parseFqn(input.service, { type: 'service', field: 'service' });
  return { jobFqn: input.job, serviceFqn: input.service, force: input.force ?? false };
}

export const unlinkSchema = z.object({ from_job: str(512), to_job: str(512), port: int(0, 65535).optional() });
export interface UnlinkRequest {
  fromJobFqn: string;
  toJobFqn: string;
  port?: number;
}
export function parseUnlink(body: unknown): UnlinkRequest {
  const input = parseInput(unlinkSchema, body, 'unlink request');
  parseFqn(input.from_job, { type: 'job', field: 'from_job' });
  parseFqn(input.to_job, { type: 'job', field: 'to_job' });
  return { fromJobFqn: input.from_job, toJobFqn: input.to_job, ...(input.port === undefined ? {} : { port: input.port }) };
}

/** `<NAME>_URI`: the name upper-cased, characters other than letters, digits and _ as _. */
export function nameVariable(name: string): string {
  return `${name.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}_URI`;
}

/** `<UUID upper case without dashes>_URI`. It may start with a digit (see proto/common env.ts). */
export function uuidVariable(uuid: string): string {
  return `${uuid.replace(/-/g, '').toUpperCase()}_URI`;
}
