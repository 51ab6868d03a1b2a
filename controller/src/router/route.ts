/**
 * Routes as the router understands them: the syntax of an endpoint, its canonical form, the
 * policy realm that guards it, and the default route of an application.
 *
 * HTTP endpoint: `<host name>[/<path>]`. The host is matched without port and case-insensitively,
 * so it is kept in lower case; the path (case-sensitive) selects by longest prefix on whole
 * segments and is kept without a trailing slash (`/` when absent). The host is the unit of
 * ownership: every job routed at one host lives in one namespace.
 */
import { isIP } from 'node:net';
import { customAlphabet } from 'nanoid';
import { InvalidRequestError } from '../errors.js';

export type RouteType = 'http' | 'tcp' | 'udp';

/** A route of a job port, as the API carries it (cluster-api.md, Port, Route). */
export interface RouteInput {
  type: RouteType;
  endpoint: string;
  weight?: number | undefined;
  auto_provision?: boolean | undefined;
  https_only?: boolean | undefined;
}

/** The pieces of a job the router reads: structurally a subset of the Job record. */
export interface RoutedJob {
  uuid: string;
  fqn: string;
  name: string;
  state: string;
  tags: Record<string, string>;
  weight: number;
  sticky_session_cookies: string[];
  ports: { number: number; routes: RouteInput[] }[];
}

export interface HttpEndpoint {
  host: string;
  path: string;
}

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const PATH = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/;

/** Why `host` is not a host name, or undefined. */
function hostProblem(host: string): string | undefined {
  if (host.length === 0) return 'the host name is empty';
  if (host.length > 253) return 'the host name is longer than 253 characters';
  for (const label of host.split('.')) {
    if (!LABEL.test(label)) return `"${label}" is not a host name label (letters, digits and inner hyphens, 1 to 63 characters)`;
  }
  if (/^[0-9.]+$/.test(host)) return 'an address is not a host name';
  return undefined;
}

/** Parses an HTTP endpoint (`host[/path]`), throwing a 400 that says what is wrong. */
export function parseHttpEndpoint(endpoint: string, field = 'endpoint'): HttpEndpoint {
  const slash = endpoint.indexOf('/');
  const rawHost = slash < 0 ? endpoint : endpoint.slice(0, slash);
  const rawPath = slash < 0 ? '/' : endpoint.slice(slash);
  const host = rawHost.toLowerCase();
  const problem = host.includes(':') ? 'an HTTP endpoint names a host without a port or scheme' : hostProblem(host);
  if (problem) throw new InvalidRequestError(`${field}: "${endpoint}" is not a host name: ${problem}`, { details: { field, value: endpoint } });
  if (!PATH.test(rawPath) || rawPath.includes('//') || /\/\.\.?(\/|$)/.test(rawPath)) {
    throw new InvalidRequestError(`${field}: "${rawPath}" is not a path (segments of URL characters, no "." or ".." segments)`, {
      details: { field, value: endpoint },
    });
  }
  const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  return { host, path };
}

export interface StreamEndpoint {
  /** An IP address, or undefined for `tcp://auto`. */
  ip: string | undefined;
  port: number;
}

/**
 * Parses a TCP endpoint (`tcp://auto` or `tcp://<ip>:<port>`) or a UDP one (`<ip>:<port>`, also
 * accepted as `udp://<ip>:<port>`), throwing a 400 that says what is wrong. `auto` gives port 0.
 */
export function parseStreamEndpoint(type: 'tcp' | 'udp', endpoint: string, field = 'endpoint'): StreamEndpoint {
  const fail = (why: string): never => {
    throw new InvalidRequestError(`${field}: "${endpoint}" ${why}`, { details: { field, value: endpoint } });
  };
  const scheme = `${type}://`;
  let rest = endpoint.toLowerCase().startsWith(scheme) ? endpoint.slice(scheme.length) : endpoint;
  if (type === 'tcp' && rest === endpoint) fail('is not a TCP endpoint: expected tcp://auto or tcp://<ip>:<port>');
  if (type === 'tcp' && rest.toLowerCase() === 'auto') return { ip: undefined, port: 0 };
  const colon = rest.lastIndexOf(':');
  if (colon < 0) fail(`is not <ip>:<port>`);
  let ip = rest.slice(0, colon);
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  rest = rest.slice(colon + 1);
  if (isIP(ip) === 0) fail(`does not name an IP address ("${ip}")`);
  if (!/^\d{1,5}$/.test(rest) || Number(rest) < 1 || Number(rest) > 65535) fail('has no port between 1 and 65535');
  return { ip, port: Number(rest) };
}

/** The canonical text of a TCP (`tcp://ip:port`) or UDP (`ip:port`) endpoint. */
export function formatStreamEndpoint(type: 'tcp' | 'udp', e: { ip: string; port: number }): string {
  const host = e.ip.includes(':') ? `[${e.ip}]` : e.ip;
  return type === 'tcp' ? `tcp://${host}:${e.port}` : `${host}:${e.port}`;
}

/** The canonical text of an HTTP endpoint: the host, then the path unless it is `/`. */
export function formatHttpEndpoint(e: HttpEndpoint): string {
  return e.path === '/' ? e.host : `${e.host}${e.path}`;
}

/** True when `path` is `prefix` or lies below it on segment boundaries. */
export function pathWithin(path: string, prefix: string): boolean {
  if (prefix === '/') return true;
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * The realm whose `permit map` lets a caller route at `host`: `route::/http/<reversed domain>`,
 * e.g. `route::/http/com/example/hello` for hello.example.com. A claim on a namespace covers
 * every name below it (`route::/http/com/example` maps all of example.com).
 */
export function routeRealm(host: string): string {
  return `route::/http/${host.split('.').reverse().join('/')}`;
}

const randomSuffix = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', 6);

/**
 * The default route of an application: `<name without dots>-<6 random [a-z0-9]>.<domain>`.
 * Characters a host name cannot hold are left out of the name (and it is cut to fit a label).
 */
export function defaultRouteHost(jobName: string, domain: string, random: () => string = randomSuffix): string {
  const base = jobName
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '')
    .replace(/^-+|-+$/g, '')
    .slice(0, 56);
  return `${base || 'app'}-${random()}.${domain}`;
}

/** The routes of a job, one per port and endpoint, in port order. */
export function routesOf(job: Pick<RoutedJob, 'ports'>): { port: number; route: RouteInput }[] {
  return job.ports.flatMap((p) => p.routes.map((route) => ({ port: p.number, route })));
}

/** The key that identifies a route across versions of a job: port, type and endpoint. */
export function routeKey(port: number, route: Pick<RouteInput, 'type' | 'endpoint'>): string {
  return `${port} ${route.type} ${route.endpoint}`;
}
