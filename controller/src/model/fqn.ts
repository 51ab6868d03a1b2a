/**
 * Fully-qualified names: `<type>::<namespace>::<local_name>`, or `<type>::<namespace>`
 * for a namespace. A namespace starts with `/` and has `/`-separated segments;
 * `/` alone is the root.
 */
import { InvalidRequestError } from '../errors.js';

export const RESOURCE_TYPES = [
  'job',
  'package',
  'binding',
  'service',
  'provider',
  'stagpipe',
  'network',
  'route',
  'policy',
  'policydoc',
  'audit',
  'auth',
  'quota',
  'secret',
  'subnetpool',
  'gateway',
  'cluster',
  'sempiperule',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export interface Fqn {
  type: ResourceType;
  namespace: string;
  /** Absent for a namespace FQN. */
  localName?: string;
}

const MAX_FQN_LENGTH = 512;
const SEGMENT = /^[A-Za-z0-9_.@+-]+$/;
const LOCAL_NAME = /^[A-Za-z0-9_.@+-]+(\/[A-Za-z0-9_.@+-]+)*$/;

export function isResourceType(s: string): s is ResourceType {
  return (RESOURCE_TYPES as readonly string[]).includes(s);
}

/** Why `ns` is not a namespace, or undefined when it is one. */
export function namespaceProblem(ns: string): string | undefined {
  if (!ns.startsWith('/')) return `namespace "${ns}" must start with "/"`;
  if (ns === '/') return undefined;
  const segments = ns.slice(1).split('/');
  for (const seg of segments) {
    if (seg === '') return `namespace "${ns}" has an empty segment`;
    if (seg === '.' || seg === '..') return `namespace "${ns}" has a "${seg}" segment`;
    if (!SEGMENT.test(seg)) return `namespace "${ns}" has a segment with characters other than letters, digits and _.@+-`;
  }
  return undefined;
}

export interface ParseFqnOptions {
  /** The type the FQN must have. */
  type?: ResourceType;
  /** `required`: must name a resource; `forbidden`: must be a namespace; `optional`: either. */
  localName?: 'required' | 'forbidden' | 'optional';
  /** Names the field in error messages. */
  field?: string;
}

/** Parses and checks an FQN, throwing InvalidRequestError with the reason. */
export function parseFqn(input: string, options: ParseFqnOptions = {}): Fqn {
  const field = options.field ?? 'fqn';
  const fail = (why: string): never => {
    throw new InvalidRequestError(`${field}: ${why}`, { details: { field, value: input } });
  };
  if (input.length === 0) fail('must not be empty');
  if (input.length > MAX_FQN_LENGTH) fail(`is longer than ${MAX_FQN_LENGTH} characters`);
  const parts = input.split('::');
  if (parts.length < 2 || parts.length > 3) {
    fail(`"${input}" is not of the form <type>::<namespace>::<name>`);
  }
  const [type, namespace, localName] = parts as [string, string, string | undefined];
  if (!isResourceType(type)) fail(`"${type}" is not a resource type`);
  if (options.type && type !== options.type) fail(`"${input}" is a ${type} FQN, expected a ${options.type} FQN`);
  const nsProblem = namespaceProblem(namespace);
  if (nsProblem) fail(nsProblem);
  const wantLocal = options.localName ?? 'required';
  if (localName === undefined || localName === '') {
    if (localName === '') fail(`"${input}" has an empty name`);
    if (wantLocal === 'required') fail(`"${input}" has no name: expected <type>::<namespace>::<name>`);
  } else {
    if (wantLocal === 'forbidden') fail(`"${input}" must be a namespace FQN without a name`);
    if (!LOCAL_NAME.test(localName)) fail(`name "${localName}" has characters other than letters, digits and _.@+-/`);
  }
  return localName ? { type: type as ResourceType, namespace, localName } : { type: type as ResourceType, namespace };
}

export function formatFqn(fqn: Fqn): string {
  return fqn.localName === undefined ? `${fqn.type}::${fqn.namespace}` : `${fqn.type}::${fqn.namespace}::${fqn.localName}`;
}

/** True when namespace `ns` is `parent` or lies below it. */
export function namespaceWithin(ns: string, parent: string): boolean {
  if (parent === '/') return true;
  return ns === parent || ns.startsWith(parent + '/');
}

/**
 * Matches FQNs for list queries. Exact by default; with `partial`, a namespace
 * FQN matches everything in that namespace and below, and a local name matches
 * names that start with it.
 */
export function fqnMatcher(query: Fqn, partial: boolean): (candidate: Fqn) => boolean {
  if (!partial) {
    const text = formatFqn(query);
    return (c) => formatFqn(c) === text;
  }
  return (c) => {
    if (c.type !== query.type) return false;
    if (query.localName === undefined) return namespaceWithin(c.namespace, query.namespace);
    return c.namespace === query.namespace && (c.localName ?? '').startsWith(query.localName);
  };
}
