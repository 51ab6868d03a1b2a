/**
 * Names as users type them. A full FQN (`job::/sandbox/admin::hello`) is taken as it is;
 * `/sandbox/admin::hello` gets the type; a bare `hello` is the local name in the user's
 * default namespace (from the token grant, `/sandbox/<user>` on a new cluster).
 */
import { UsageError } from './config.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(s: string): boolean {
  return UUID.test(s);
}

export function resolveFqn(name: string, type: string, namespace: string): string {
  if (name === '') throw new UsageError(`a ${type} name is required`);
  const typed = /^([a-z]+)::(.*)$/.exec(name);
  if (typed) {
    if (typed[1] !== type) throw new UsageError(`"${name}" is a ${typed[1]} FQN, not a ${type}`);
    return name;
  }
  if (name.startsWith('/')) {
    if (!name.includes('::')) throw new UsageError(`"${name}" names a namespace but no ${type} (write ${name}::<name>)`);
    return `${type}::${name}`;
  }
  if (name.includes('::') || name.includes('/')) throw new UsageError(`"${name}" is neither a name nor an FQN such as ${type}::/sandbox/me::${name.split(/[:/]/).pop() || 'name'}`);
  return `${type}::${namespace}::${name}`;
}

/** The local name of an FQN: `job::/a/b::hello` -> `hello`. */
export function localName(fqn: string): string {
  const i = fqn.lastIndexOf('::');
  return i < 0 ? fqn : fqn.slice(i + 2);
}
