/**
 * The objects of the service gateway API (spec: stager-and-gateway-api.md,
 * "Provider (gateway)", "Service (gateway)", "Binding (gateway)", and the
 * `GET /` method map), with the checks both sides make: the server checks
 * requests (a failure is a 400), the client checks answers (a failure is a
 * malformed answer). One place, so both sides agree.
 */
import { urlTemplateProblem } from './url-template.js';

export type Params = Record<string, unknown>;

export interface ProviderRequest {
  name?: string;
  description?: string;
  /** Service type managed by the provider (required by the spec). */
  type: string;
  params?: Params;
}
export interface Provider extends ProviderRequest {
  id: string;
}

export interface ServiceRequest {
  name?: string;
  description?: string;
  /** Required by a three-tier gateway (one that manages providers). */
  provider_id?: string;
  params?: Params;
}
export interface Service extends ServiceRequest {
  id: string;
  name: string;
}

export interface BindingRequest {
  name?: string;
  description?: string;
  service_id: string;
  params?: Params;
}
export interface BindingProtocol {
  scheme: string;
  [key: string]: unknown;
}
export interface Binding extends BindingRequest {
  id: string;
  name: string;
  /** Connection data; the port is always given, 0 meaning "the port in $PORT". */
  url: string;
  url_template?: string;
  protocol: BindingProtocol;
}

export const ENDPOINTS = ['/providers', '/providers/:id', '/services', '/services/:id', '/bindings', '/bindings/:id'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];
export type Verb = 'POST' | 'DELETE';
/**
 * What `GET /` answers: endpoint -> HTTP verb -> a description of the verb. The spec's
 * description is `{}` or `{params: {<required parameter>: <example>}}`; gateways written for
 * the original platform give other JSON there (`{"GET": [{}]}`), which was accepted, so a
 * description is any JSON value: the verbs present are what count.
 */
export type MethodMap = Partial<Record<Endpoint, Record<string, unknown>>>;

export type Tier = 2 | 3;

/** Whether the method map offers `verb` on `endpoint` (whatever its description). */
export function offers(map: MethodMap, endpoint: Endpoint, verb: string): boolean {
  const verbs = map[endpoint];
  return isObject(verbs) && Object.hasOwn(verbs, verb);
}

/** The tier a method map describes: three when it offers POST /providers. */
export function tierOf(map: MethodMap): Tier {
  return offers(map, '/providers', 'POST') ? 3 : 2;
}

/** The required parameters of POST on a collection (names -> examples), when its description gives them in the spec's shape. */
export function paramsOf(map: MethodMap, collection: '/providers' | '/services' | '/bindings'): Params | undefined {
  const description = map[collection]?.['POST'];
  return isObject(description) && isObject(description['params']) ? description['params'] : undefined;
}

/** The required parameters of POST on a collection, as a method map shows them (names only). */
export function requiredParams(map: MethodMap, collection: '/providers' | '/services' | '/bindings'): string[] {
  return Object.keys(paramsOf(map, collection) ?? {});
}

/** Undefined when `value` is a JSON object (not an array, not null). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field problem: `[field, what is wrong]`. */
export type Problem = [field: string, message: string];

function optionalString(o: Record<string, unknown>, field: string, problems: Problem[]): void {
  if (o[field] !== undefined && typeof o[field] !== 'string') problems.push([field, 'must be a string']);
}
function requiredString(o: Record<string, unknown>, field: string, problems: Problem[]): void {
  if (typeof o[field] !== 'string' || o[field] === '') problems.push([field, 'is required (a non-empty string)']);
}
function optionalParams(o: Record<string, unknown>, problems: Problem[]): void {
  if (o['params'] !== undefined && !isObject(o['params'])) problems.push(['params', 'must be an object']);
}

/** Problems of a provider request body (`type` may be filled in by the server first). */
export function providerRequestProblems(body: unknown): Problem[] {
  if (!isObject(body)) return [['body', 'must be a JSON object']];
  const problems: Problem[] = [];
  optionalString(body, 'name', problems);
  optionalString(body, 'description', problems);
  requiredString(body, 'type', problems);
  optionalParams(body, problems);
  return problems;
}

export function serviceRequestProblems(body: unknown, tier: Tier): Problem[] {
  if (!isObject(body)) return [['body', 'must be a JSON object']];
  const problems: Problem[] = [];
  optionalString(body, 'name', problems);
  optionalString(body, 'description', problems);
  if (tier === 3) requiredString(body, 'provider_id', problems);
  else optionalString(body, 'provider_id', problems);
  optionalParams(body, problems);
  return problems;
}

export function bindingRequestProblems(body: unknown): Problem[] {
  if (!isObject(body)) return [['body', 'must be a JSON object']];
  const problems: Problem[] = [];
  optionalString(body, 'name', problems);
  optionalString(body, 'description', problems);
  requiredString(body, 'service_id', problems);
  optionalParams(body, problems);
  return problems;
}

/** Problems of a binding url: it must parse, and give a port (0 for "the port in $PORT"). */
export function bindingUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  // WHATWG URL drops a scheme's default port (http :80), so look at the text as well.
  const authority = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*):(\d+)(?:[/?#]|$)/i.exec(url);
  if (!authority && parsed.port === '') return 'must give a port (0 for the port in $PORT)';
  return undefined;
}

/** Problems of the answers: what a gateway sent back on 2xx. */
export function providerProblems(o: unknown): Problem[] {
  if (!isObject(o)) return [['body', 'must be a JSON object']];
  const problems: Problem[] = [];
  requiredString(o, 'id', problems);
  optionalString(o, 'name', problems);
  optionalString(o, 'type', problems);
  optionalParams(o, problems);
  return problems;
}

export function serviceProblems(o: unknown): Problem[] {
  if (!isObject(o)) return [['body', 'must be a JSON object']];
  const problems: Problem[] = [];
  requiredString(o, 'id', problems);
  optionalString(o, 'name', problems);
  optionalString(o, 'provider_id', problems);
  optionalParams(o, problems);
  return problems;
}

export function bindingProblems(o: unknown): Problem[] {
  if (!isObject(o)) return [['body', 'must be a JSON object']];
  const problems: Problem[] = [];
  requiredString(o, 'id', problems);
  optionalString(o, 'name', problems);
  requiredString(o, 'url', problems);
  if (typeof o['url'] === 'string' && o['url'] !== '') {
    const p = bindingUrlProblem(o['url']);
    if (p) problems.push(['url', p]);
  }
  if (o['url_template'] !== undefined) {
    if (typeof o['url_template'] !== 'string') problems.push(['url_template', 'must be a string']);
    else {
      const p = urlTemplateProblem(o['url_template']);
      if (p) problems.push(['url_template', p]);
    }
  }
  if (!isObject(o['protocol']) || typeof o['protocol']['scheme'] !== 'string' || o['protocol']['scheme'] === '') {
    problems.push(['protocol', 'is required: an object with a string "scheme"']);
  }
  optionalParams(o, problems);
  return problems;
}

/**
 * Problems of a `GET /` answer: what cannot work. An endpoint the cluster calls must be an
 * object keyed by verb; services and bindings must be offered (POST on the collection,
 * DELETE on `/:id`), and so must DELETE /providers/:id when POST /providers is. What a verb's
 * value is does not matter (see MethodMap); endpoints the cluster does not call are the
 * gateway's business.
 */
export function methodMapProblems(o: unknown): Problem[] {
  if (!isObject(o)) return [['body', 'must be a JSON object']];
  const problems: Problem[] = [];
  for (const endpoint of ENDPOINTS) {
    if (o[endpoint] !== undefined && !isObject(o[endpoint])) problems.push([endpoint, 'must be an object keyed by HTTP verb']);
  }
  const map = o as MethodMap;
  for (const [endpoint, verb] of [['/services', 'POST'], ['/services/:id', 'DELETE'], ['/bindings', 'POST'], ['/bindings/:id', 'DELETE']] as const) {
    // An endpoint that is not an object is reported above.
    if (!offers(map, endpoint, verb) && (o[endpoint] === undefined || isObject(o[endpoint]))) problems.push([endpoint, `must offer ${verb}`]);
  }
  if (offers(map, '/providers', 'POST') && !offers(map, '/providers/:id', 'DELETE')) problems.push(['/providers/:id', 'must offer DELETE when POST /providers is offered']);
  return problems;
}

/** "a: b; c: d" */
export function describeProblems(problems: Problem[]): string {
  return problems.map(([f, m]) => `${f} ${m}`).join('; ');
}

/**
 * A binding url with its port always written out (WHATWG `URL` drops a
 * scheme's default port, `https://h:443/` becomes `https://h/`, which the
 * spec does not allow). User name, password and path are percent-encoded.
 */
export function formatBindingUrl(parts: { scheme: string; host: string; port: number; username?: string; password?: string; path?: string; query?: Record<string, string> }): string {
  const enc = encodeURIComponent;
  const user = parts.username === undefined ? '' : `${enc(parts.username)}${parts.password === undefined ? '' : `:${enc(parts.password)}`}@`;
  const host = parts.host.includes(':') && !parts.host.startsWith('[') ? `[${parts.host}]` : parts.host;
  const path = parts.path === undefined ? '' : `/${parts.path.replace(/^\/+/, '').split('/').map(enc).join('/')}`;
  const query = parts.query && Object.keys(parts.query).length > 0 ? `?${new URLSearchParams(parts.query).toString()}` : '';
  return `${parts.scheme}://${user}${host}:${parts.port}${path}${query}`;
}
