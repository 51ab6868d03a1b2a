/** REST endpoints of packages and their archives. */
import { baseUrl, changeContext, queryValue, sendJson, sendEmpty, v1, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { contentLengthOf, readJsonObject } from '../api/body.js';
import { queryBool, queryFqn, queryInt, queryList, queryUuids } from '../api/query.js';
import { ifMatchVersions, readMergePatch, setVersionTag } from '../api/conditional.js';
import { InvalidRequestError, NotFoundError, PreconditionFailedError } from '../errors.js';
import { requireUuid } from '../model/validate.js';
import { authorize, authorizeFound, bodyFqn, canAccess, references } from '../policy/access.js';
import { applyMergePatch, optional } from '../util/json.js';
import type { PackageService } from './package-service.js';
import { packageInputSchema, packageViewSchema, REQUIREMENT_TYPES } from '../model/package.js';
import { z } from 'zod';

const PROVIDES_TYPES: ReadonlySet<string> = new Set(REQUIREMENT_TYPES);

/**
 * Policy: reads and archive downloads need `permit read` on the package's FQN,
 * a create `permit create`, a change (PUT, or PATCH with a JSON Merge Patch) or
 * an archive upload `permit update`, a delete `permit delete`. PUT and PATCH
 * honour If-Match on version_id; GET, PUT and PATCH send it as the ETag. Listings show only readable packages; a package the
 * caller may not read answers 404. The staging pipeline a create names needs
 * `permit use` on it (policy/references.ts).
 */
export function packageEndpoints(packages: PackageService, maxBodyBytes: number): Endpoint[] {
  const param = (ctx: ApiContext, name: string, what: string) => requireUuid(ctx.params[name] ?? '', what);

  /** Authorizes `permission` on the package named by a package (or resource) uuid. */
  const authorized = async (ctx: ApiContext, id: string, permission: string) => {
    const fqn = await packages.fqnOf(id);
    if (fqn === undefined) throw new NotFoundError(`package ${id} not found`);
    await authorizeFound(ctx, fqn, permission, `package ${id} not found`);
  };

  const upload = async (ctx: ApiContext, packageId: string, resourceId: string | undefined) => {
    await authorized(ctx, packageId, 'update');
    const pkg = await packages.upload(packageId, resourceId, ctx.req, contentLengthOf(ctx.req), changeContext(ctx));
    ctx.state.log.debug('upload answered', { package: pkg.uuid, state: pkg.state });
    sendJson(ctx, v1('package'), null);
  };

  const download = async (ctx: ApiContext, id: string, resourceId: string | undefined) => {
    await authorized(ctx, id, 'read');
    const { stream, size, digest } = await packages.download(id, resourceId, changeContext(ctx));
    const etag = `"${digest}"`;
    ctx.set('ETag', etag);
    if (ctx.get('If-None-Match') === etag) {
      stream.destroy();
      ctx.status = 304;
      return;
    }
    ctx.status = 200;
    ctx.type = 'application/octet-stream';
    ctx.length = size;
    ctx.set('X-Platform-Digest', digest);
    ctx.body = stream;
  };

  return [
    {
      method: 'GET',
      path: '/packages',
      doc: { summary: 'Lists the packages the caller may read', response: z.array(packageViewSchema) },
      media: v1('packages'),
      handler: async (ctx) => {
        const partial = queryBool(ctx, 'matchPartialFQN');
        const providesType = queryValue(ctx, 'provides_type') || undefined;
        if (providesType !== undefined && !PROVIDES_TYPES.has(providesType)) {
          throw new InvalidRequestError(`query provides_type: "${providesType}" is not one of file, package, runtime, os`);
        }
        const packageId = queryValue(ctx, 'package_id');
        const ids = queryUuids(ctx, 'ids');
        const list = await packages.list({
          ...optional('fqn', queryFqn(ctx, 'fqn', 'package', partial)),
          matchPartialFqn: partial,
          ...optional('name', queryValue(ctx, 'name') || undefined),
          ...optional('ids', packageId ? [requireUuid(packageId, 'query package_id:'), ...(ids ?? [])] : ids),
          ...optional('tags', queryList(ctx, 'tag')),
          ...optional('excludedTags', queryList(ctx, 'excluded_tags')),
          ...optional('providesType', providesType),
          ...optional('providesName', queryValue(ctx, 'provides_name') || undefined),
          ...optional('count', queryInt(ctx, 'count', 0)),
          ...optional('page', queryInt(ctx, 'page', 1)),
          visible: (fqn) => canAccess(ctx, fqn, 'read'),
        });
        sendJson(ctx, v1('packages'), list);
      },
    },
    {
      method: 'POST',
      path: '/packages',
      doc: { summary: 'Declares a package: its archives\' lengths and digests, its staging pipeline', body: packageInputSchema, response: packageViewSchema },
      media: v1('package'),
      handler: async (ctx) => {
        const body = await readJsonObject(ctx.req, maxBodyBytes);
        await authorize(ctx, bodyFqn(body, 'package'), 'create');
        const pkg = await packages.create(body, changeContext(ctx), references(ctx));
        ctx.set('Location', `${baseUrl(ctx)}/v1/packages/${pkg.uuid}`);
        sendJson(ctx, v1('package'), pkg);
      },
    },
    {
      method: 'GET',
      path: '/packages/resources/:uuid',
      doc: { summary: 'The archive of a package\'s first resource', responseMedia: ['application/octet-stream'] },
      handler: (ctx) => download(ctx, param(ctx, 'uuid', 'package uuid'), undefined),
    },
    {
      method: 'PUT',
      path: '/packages/resources/:uuid',
      doc: { summary: 'Uploads the archive of a package\'s first resource', bodyMedia: ['application/octet-stream'] },
      media: v1('package'),
      handler: (ctx) => upload(ctx, param(ctx, 'uuid', 'package uuid'), undefined),
    },
    {
      method: 'GET',
      path: '/packages/:uuid',
      doc: { summary: 'A package', response: packageViewSchema },
      media: v1('package'),
      handler: async (ctx) => {
        const id = param(ctx, 'uuid', 'package uuid');
        await authorized(ctx, id, 'read');
        const pkg = await packages.get(id);
        setVersionTag(ctx, pkg.version_id);
        sendJson(ctx, v1('package'), pkg);
      },
    },
    {
      method: 'PUT',
      path: '/packages/:uuid',
      doc: { summary: 'Replaces a package\'s metadata (If-Match)', body: packageInputSchema, response: packageViewSchema },
      media: v1('package'),
      handler: async (ctx) => {
        const id = param(ctx, 'uuid', 'package uuid');
        await authorized(ctx, id, 'update');
        const pkg = await packages.update(id, await readJsonObject(ctx.req, maxBodyBytes), changeContext(ctx), ifMatchVersions(ctx));
        setVersionTag(ctx, pkg.version_id);
        sendJson(ctx, v1('package'), pkg);
      },
    },
    {
      method: 'PATCH',
      path: '/packages/:uuid',
      doc: { summary: 'Changes the fields a JSON Merge Patch names (If-Match)', body: packageInputSchema.partial(), bodyMedia: ['application/merge-patch+json'], response: packageViewSchema },
      media: v1('package'),
      handler: async (ctx) => {
        const id = param(ctx, 'uuid', 'package uuid');
        await authorized(ctx, id, 'update');
        const patch = await readMergePatch(ctx, maxBodyBytes);
        const ifMatch = ifMatchVersions(ctx);
        // Merged onto the package as read, one PATCH of a package at a time; without If-Match,
        // another change in between (412 from the actor) means merging again.
        await packages.serialized(id, async () => {
          for (let attempt = 1; ; attempt++) {
            const current = await packages.get(id);
            try {
              const pkg = await packages.update(id, applyMergePatch(current, patch), changeContext(ctx), ifMatch ?? [current.version_id]);
              setVersionTag(ctx, pkg.version_id);
              return sendJson(ctx, v1('package'), pkg);
            } catch (err) {
              if (ifMatch || attempt >= 10 || !(err instanceof PreconditionFailedError)) throw err;
            }
          }
        });
      },
    },
    {
      method: 'DELETE',
      path: '/packages/:uuid',
      doc: { summary: 'Deletes a package' },
      handler: async (ctx) => {
        const id = param(ctx, 'uuid', 'package uuid');
        await authorized(ctx, id, 'delete');
        await packages.delete(id, changeContext(ctx));
        sendEmpty(ctx);
      },
    },
    {
      method: 'PUT',
      path: '/packages/:uuid/resources/:resource',
      doc: { summary: 'Uploads the archive of a resource: its length and digest as declared', bodyMedia: ['application/octet-stream'] },
      media: v1('package'),
      handler: (ctx) => upload(ctx, param(ctx, 'uuid', 'package uuid'), param(ctx, 'resource', 'resource uuid')),
    },
    {
      method: 'GET',
      path: '/packages/:uuid/resources/:resource',
      doc: { summary: 'The archive of a resource', responseMedia: ['application/octet-stream'] },
      handler: (ctx) => download(ctx, param(ctx, 'uuid', 'package uuid'), param(ctx, 'resource', 'resource uuid')),
    },
  ];
}
