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
import { z } from 'zod';
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

/**
 * The body as documented: before `${VAR}` placeholders are filled any value may be one, so the
 * document describes the two forms and their top-level keys; the manifest's own rules are
 * checked after expansion (manifest.ts) and explained in docs/api.md.
 */
const section = z.record(z.string(), z.unknown());
const manifestBody = z.union([
  z.looseObject({ manifest: z.looseObject({ jobs: section, services: section.optional(), networks: section.optional() }), variables: z.record(z.string(), z.string()).optional() }),
  z.looseObject({ jobs: section, services: section.optional(), networks: section.optional() }),
]);

export function manifestEndpoints(manifests: ManifestService, maxBodyBytes: number): Endpoint[] {
  return [
    {
      method: 'POST',
      path: '/manifests',
      media: v1('manifestresponse'),
      doc: { summary: 'Deploys a manifest (jobs, services, networks) in a task; answers the task location', body: manifestBody },
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
      doc: { summary: 'The manifest expanded: variables filled, the job bodies it would make, and warnings; changes nothing', body: manifestBody },
      handler: async (ctx) => {
        const prepared = await manifests.prepare(await readJsonObject(ctx.req, maxBodyBytes), accessOf(ctx));
        sendJson(ctx, v1('manifestresponse'), manifests.expansion(prepared));
      },
    },
  ];
}
