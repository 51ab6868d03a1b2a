/**
 * Partial updates and optimistic concurrency, shared by the resources that have
 * a `version_id` (jobs, packages):
 *
 * - PATCH bodies are JSON Merge Patch (RFC 7396), `Content-Type:
 *   application/merge-patch+json`; any other type answers 415.
 * - `ETag` is the resource's `version_id` in quotes (`"7"`); `If-Match` on PUT
 *   and PATCH names the versions the change applies to (`"7"`, `7`, several
 *   comma-separated, or `*`), and a stale one answers 412. The ETag names the
 *   configuration's version: package states shown in a job are computed at read
 *   time and do not change it.
 */
import type { ApiContext } from './endpoint.js';
import { readJsonBody } from './body.js';
import { InvalidRequestError, UnsupportedMediaTypeError } from '../errors.js';

export const MERGE_PATCH_TYPE = 'application/merge-patch+json';

/** Reads a merge patch body (an object); 415 for another Content-Type. */
export async function readMergePatch(ctx: ApiContext, limit: number): Promise<Record<string, unknown>> {
  const type = (ctx.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== MERGE_PATCH_TYPE) {
    throw new UnsupportedMediaTypeError(
      `PATCH takes a JSON Merge Patch (RFC 7396) with Content-Type ${MERGE_PATCH_TYPE}; got ${type === '' ? 'no Content-Type' : `"${type}"`}`,
      { details: { accepted: [MERGE_PATCH_TYPE] } },
    );
  }
  const body = await readJsonBody(ctx.req, limit);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidRequestError('a merge patch of a job or package must be a JSON object: it names the fields to change (null removes one)');
  }
  return body as Record<string, unknown>;
}

/** The versions named by `If-Match`; undefined when absent or `*` (any version). */
export function ifMatchVersions(ctx: ApiContext): number[] | undefined {
  const raw = ctx.get('If-Match').trim();
  if (raw === '' || raw === '*') return undefined;
  return raw.split(',').map((part) => {
    const tag = part.trim();
    const m = /^(?:"(\d{1,15})"|(\d{1,15}))$/.exec(tag);
    if (!m) throw new InvalidRequestError(`If-Match: ${tag} is not an ETag of this API; send the version_id (or the ETag of a GET), e.g. If-Match: "3"`);
    return Number(m[1] ?? m[2]);
  });
}

/** Sets the ETag of a resource at `version`. */
export function setVersionTag(ctx: ApiContext, version: number): void {
  ctx.set('ETag', `"${version}"`);
}
