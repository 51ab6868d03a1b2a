/**
 * Content negotiation (spec: Versioning). Clients name a resource type and
 * version with `application/vnd.platform.<type>;version=<n>` in Accept and
 * Content-Type. An endpoint answers with its own type, in the version asked for
 * when it has it, else in its default version; a missing or unknown media type
 * is never an error.
 */
export const MEDIA_PREFIX = 'application/vnd.platform.';

export interface MediaSpec {
  /** Lower-case resource type name, e.g. `job`. */
  type: string;
  /** Versions served; the first is the default. */
  versions: readonly number[];
}

export interface VendorMedia {
  type: string;
  version: number | undefined;
}

/** The vendor media types in an Accept or Content-Type header, in order. */
export function parseVendorMedia(header: string | undefined): VendorMedia[] {
  if (!header) return [];
  const out: VendorMedia[] = [];
  for (const part of header.split(',')) {
    const [mime, ...params] = part.split(';').map((s) => s.trim());
    if (!mime || !mime.toLowerCase().startsWith(MEDIA_PREFIX)) continue;
    const type = mime.slice(MEDIA_PREFIX.length).toLowerCase().replace(/\+json$/, '');
    let version: number | undefined;
    for (const p of params) {
      const m = /^version\s*=\s*"?(\d{1,4})"?$/i.exec(p);
      if (m) version = Number(m[1]);
    }
    out.push({ type, version });
  }
  return out;
}

/** The version of `spec` to answer with, given the request's Accept header. */
export function negotiateVersion(spec: MediaSpec, accept: string | undefined): number {
  if (!accept || !accept.includes('vnd.platform.')) return spec.versions[0] ?? 1;
  for (const m of parseVendorMedia(accept)) {
    if (m.type === spec.type && m.version !== undefined && spec.versions.includes(m.version)) return m.version;
  }
  return spec.versions[0] ?? 1;
}

const formatted = new Map<string, string>();

export function formatMedia(type: string, version: number): string {
  const key = `${type};${version}`;
  let text = formatted.get(key);
  if (text === undefined) formatted.set(key, (text = `${MEDIA_PREFIX}${type};version=${version}`));
  return text;
}
