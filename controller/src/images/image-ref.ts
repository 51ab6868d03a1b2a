/**
 * Image references as CreateContainerJobRequest.image_url gives them:
 *
 *   [http[s]://][user:password@][registry/]name[:tag][@sha256:<hex>]
 *
 * `registry` is the first path segment when it has a `.` or a `:` or is `localhost`; without
 * one, the public registry (registry-1.docker.io, names without a `/` under `library/`). The
 * tag defaults to `latest`. Without a scheme a loopback registry is reached over HTTP and any
 * other over HTTPS (as Docker does). Credentials are kept out of `origin` (what the package and
 * job show).
 */
import { InvalidRequestError } from '../errors.js';

export const PUBLIC_REGISTRY = 'registry-1.docker.io';

export interface ImageRef {
  /** `http` or `https`. */
  scheme: 'http' | 'https';
  /** host[:port] */
  registry: string;
  /** Whether the URL named no registry (the public one). */
  publicRegistry: boolean;
  /** Repository name, e.g. `library/debian`, `team/app`. */
  name: string;
  tag: string;
  /** `sha256:<hex>` when the URL pins a manifest digest. */
  digest?: string;
  credentials?: { username: string; password: string };
}

const NAME_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

function isLoopback(host: string): boolean {
  const h = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Parses `image_url`; 400 naming `field` when malformed. */
export function parseImageRef(text: string, field = 'image_url'): ImageRef {
  const bad = (why: string) => new InvalidRequestError(`${field}: "${text}" ${why}`);
  if (text.length === 0 || text.length > 2048 || /\s/.test(text)) throw bad('is not an image reference ([registry/]name[:tag])');
  let rest = text;
  let scheme: 'http' | 'https' | undefined;
  const schemeMatch = /^([a-z]+):\/\//.exec(rest);
  if (schemeMatch) {
    if (schemeMatch[1] === 'http' || schemeMatch[1] === 'https') scheme = schemeMatch[1];
    else if (schemeMatch[1] !== 'docker') throw bad('has a scheme other than http, https or docker');
    rest = rest.slice(schemeMatch[0].length);
  }
  let credentials: ImageRef['credentials'];
  const at = rest.indexOf('@');
  const slash = rest.indexOf('/');
  // user:password@ comes before the first `/`; a later `@` is a digest.
  if (at >= 0 && (slash < 0 || at < slash) && !rest.slice(at + 1).startsWith('sha256:')) {
    const userinfo = rest.slice(0, at);
    rest = rest.slice(at + 1);
    const colon = userinfo.indexOf(':');
    try {
      credentials = {
        username: decodeURIComponent(colon < 0 ? userinfo : userinfo.slice(0, colon)),
        password: decodeURIComponent(colon < 0 ? '' : userinfo.slice(colon + 1)),
      };
    } catch {
      throw bad('has malformed percent-encoding in its credentials');
    }
  }
  let digest: string | undefined;
  const digestAt = rest.indexOf('@');
  if (digestAt >= 0) {
    digest = rest.slice(digestAt + 1);
    rest = rest.slice(0, digestAt);
    if (!DIGEST.test(digest)) throw bad('has a digest that is not sha256:<64 hex digits>');
  }
  const parts = rest.split('/');
  let registry = PUBLIC_REGISTRY;
  let publicRegistry = true;
  const first = parts[0] ?? '';
  if (parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost')) {
    registry = first;
    publicRegistry = false;
    parts.shift();
  }
  if (!/^[A-Za-z0-9.[\]:-]+$/.test(registry)) throw bad('names a malformed registry host');
  let last = parts.pop() ?? '';
  let tag = 'latest';
  const colon = last.indexOf(':');
  if (colon >= 0) {
    tag = last.slice(colon + 1);
    last = last.slice(0, colon);
    if (!TAG.test(tag)) throw bad('has a malformed tag');
  }
  parts.push(last);
  if (publicRegistry && parts.length === 1) parts.unshift('library');
  for (const p of parts) if (!NAME_COMPONENT.test(p)) throw bad(`has a malformed name component "${p}" (lower case letters, digits, separators)`);
  const name = parts.join('/');
  if (name.length > 255) throw bad('has a name over 255 characters');
  return {
    scheme: scheme ?? (isLoopback(registry) ? 'http' : 'https'),
    registry,
    publicRegistry,
    name,
    tag,
    ...(digest ? { digest } : {}),
    ...(credentials ? { credentials } : {}),
  };
}

/** The reference without credentials, as packages and jobs show it (`docker_origin`). */
export function originOf(ref: ImageRef): string {
  return `${ref.registry}/${ref.name}${ref.digest ? `@${ref.digest}` : `:${ref.tag}`}`;
}
