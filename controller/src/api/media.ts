/**
 * Content negotiation (spec: Versioning). Clients name a resource type and
 * version with `application/vnd.platform.<type>;version=<n>` in Accept and
 * Content-Type. An endpoint answers with its own type, in the version asked for
 * when it has it, else in its default version; a missing or unknown media type
 * is never an error.
 *
 * One addition for the clients of the original platform (docs/api.md, "Clients
 * of the original platform"): the clients generated from its 2016 Swagger file
 * send `Accept: application/json` and refuse any other answer type. A request
 * whose Accept asks for `application/json` and names no `vnd.platform` type is
 * answered `application/json; charset=utf-8` with the same body (in the
 * endpoint's default version). Naming a vendor type, even an unknown one, keeps
 * the vendor answer; a missing Accept, `* / *` or any other type keeps rule 3.
 *
 *   Accept                                   answer Content-Type
 *   (none), * / *, text/html, application/*  vnd.platform.<endpoint type>;version=<default>
 *   application/vnd.platform.<t>;version=n   vnd.platform.<endpoint type>;version=<n if served, else default>
 *   application/json (no vnd.platform type)  application/json; charset=utf-8
 */
import type { ServerResponse } from 'node:http';

export const MEDIA_PREFIX = 'application/vnd.platform.';

/** The answer type of JSON endpoints for clients that ask for plain JSON. */
export const PLAIN_JSON = 'application/json; charset=utf-8';

export interface MediaSpec {
  /** Lower-case resource type name, e.g. `job`. */
  type: string;
  /** Versions served; the first is the default. */
  versions: readonly number[];
}

/** The type of every error body (spec: Errors). */
export const API_ERROR_MEDIA: MediaSpec = { type: 'apierror', versions: [1] };

export interface VendorMedia {
  type: string;
  version: number | undefined;
}

/** The media ranges of an Accept or Content-Type header: lower-case type and its parameters. */
function mediaRanges(header: string): { mime: string; params: string[] }[] {
  return header.split(',').map((part) => {
    const [mime = '', ...params] = part.split(';').map((s) => s.trim());
    return { mime: mime.toLowerCase(), params };
  });
}

/** The vendor media types in an Accept or Content-Type header, in order. */
export function parseVendorMedia(header: string | undefined): VendorMedia[] {
  if (!header) return [];
  const out: VendorMedia[] = [];
  for (const { mime, params } of mediaRanges(header)) {
    if (!mime.startsWith(MEDIA_PREFIX)) continue;
    const type = mime.slice(MEDIA_PREFIX.length).replace(/\+json$/, '');
    let version: number | undefined;
    for (const p of params) {
      const m = /^version\s*=\s*"?(\d{1,4})"?$/i.exec(p);
      if (m) version = Number(m[1]);
    }
    out.push({ type, version });
  }
  return out;
}

/**
 * True when Accept asks for `application/json` (with a quality above 0) and
 * names no vendor type: the client wants plain JSON.
 */
export function wantsPlainJson(accept: string | undefined): boolean {
  if (!accept || !/application\/json/i.test(accept)) return false;
  let json = false;
  for (const { mime, params } of mediaRanges(accept)) {
    if (mime.startsWith(MEDIA_PREFIX)) return false;
    if (mime !== 'application/json') continue;
    const q = params.map((p) => /^q\s*=\s*([\d.]+)$/i.exec(p)).find((m) => m !== null);
    if (!q || Number(q[1]) > 0) json = true;
  }
  return json;
}

/** The version of `spec` to answer with, given the request's Accept header. */
export function negotiateVersion(spec: MediaSpec, accept: string | undefined): number {
  if (!accept || !accept.includes('vnd.platform.')) return spec.versions[0] ?? 1;
  for (const m of parseVendorMedia(accept)) {
    if (m.type === spec.type && m.version !== undefined && spec.versions.includes(m.version)) return m.version;
  }
  return spec.versions[0] ?? 1;
}

/** The Content-Type of a JSON answer of `spec` to a request with this Accept header. */
export function negotiateMedia(spec: MediaSpec, accept: string | undefined): string {
  if (!accept) return formatMedia(spec.type, spec.versions[0] ?? 1);
  if (accept.length > NEGOTIATED_ACCEPT_MAX) return answerMedia(spec, accept);
  // Clients send the same few Accept headers again and again: the answer is parsed once per
  // spec object (endpoints keep theirs: `v1()` gives one object per type) and header text.
  // A bounded cache (client-chosen text).
  let bySpec = negotiated.get(spec);
  if (bySpec === undefined) negotiated.set(spec, (bySpec = new Map()));
  let media = bySpec.get(accept);
  if (media === undefined) {
    media = answerMedia(spec, accept);
    if (bySpec.size >= NEGOTIATED_MAX) bySpec.clear();
    bySpec.set(accept, media);
  }
  return media;
}

function answerMedia(spec: MediaSpec, accept: string): string {
  return wantsPlainJson(accept) ? PLAIN_JSON : formatMedia(spec.type, negotiateVersion(spec, accept));
}

/** Answers of negotiateMedia by spec object, then Accept header (at most NEGOTIATED_ACCEPT_MAX long, NEGOTIATED_MAX a spec). */
const negotiated = new WeakMap<MediaSpec, Map<string, string>>();
const NEGOTIATED_MAX = 1024;
const NEGOTIATED_ACCEPT_MAX = 256;

const formatted = new Map<string, string>();

export function formatMedia(type: string, version: number): string {
  const key = `${type};${version}`;
  let text = formatted.get(key);
  if (text === undefined) formatted.set(key, (text = `${MEDIA_PREFIX}${type};version=${version}`));
  return text;
}

/** Adds `Accept` to the answer's Vary header (Koa's `ctx.vary`, without parsing a header that is not there yet). */
export function varyOnAccept(ctx: { res: ServerResponse; vary(field: string): void }): void {
  if (ctx.res.headersSent) return;
  if (ctx.res.hasHeader('Vary')) ctx.vary('Accept');
  else ctx.res.setHeader('Vary', 'Accept');
}
