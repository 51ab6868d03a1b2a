/**
 * POST /manifests: validates the whole manifest (before any change) and deploys it in a task,
 * answering `{"location": <task>}` (ManifestResponse). POST /manifests/expansion: the same
 * validation, and the expanded manifest, the job bodies it would make and warnings, without
 * changing anything.
 *
 * The body is the manifest itself, or `{"manifest": <manifest>, "variables": {"NAME": "v"}}`.
 * Policy: `permit create` (new jobs) or `update` (existing ones) on each job, `start` for
 * those declared `started`, `use` on each package named, `create` on the package of each
 * docker job, `map` on the routes' realms. Audit: what each job change records.
 */
import { changeContext, sendJson, v1, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { readJsonObject } from '../api/body.js';
import { authorize, canAccess, references } from '../policy/access.js';
import { sendTaskRef } from '../tasks/task-routes.js';
import type { ManifestAccess, ManifestService } from './manifest-service.js';

function accessOf(ctx: ApiContext): ManifestAccess {
  return {
    authorize: (fqn, permission) => authorize(ctx, fqn, permission),
    readable: (fqn) => canAccess(ctx, fqn, 'read'),
    refs: references(ctx),
    mayMap: (realm) => authorize(ctx, realm, 'map'),
  };
}

export function manifestEndpoints(manifests: ManifestService, maxBodyBytes: number): Endpoint[] {
  return [
    {
      method: 'POST',
      path: '/manifests',
      media: v1('manifestresponse'),
      handler: async (ctx) => {
        const access = accessOf(ctx);
        const prepared = await manifests.prepare(await readJsonObject(ctx.req, maxBodyBytes), access);
        const task = await manifests.deploy(prepared, changeContext(ctx), access);
        sendTaskRef(ctx, task, v1('manifestresponse'));
      },
    },
    {
      method: 'POST',
      path: '/manifests/expansion',
      media: v1('manifestresponse'),
      handler: async (ctx) => {
        const prepared = await manifests.prepare(await readJsonObject(ctx.req, maxBodyBytes), accessOf(ctx));
        sendJson(ctx, v1('manifestresponse'), manifests.expansion(prepared));
      },
    },
  ];
}
