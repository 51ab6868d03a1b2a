/** REST endpoints of staging pipelines and runtimes. */
import { baseUrl, changeContext, queryValue, sendEmpty, sendJson, v1, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { readJsonObject } from '../api/body.js';
import { NotFoundError } from '../errors.js';
import { requireUuid } from '../model/validate.js';
import { authorize, authorizeFound, bodyFqn, readable, references } from '../policy/access.js';
import { pipelineInputSchema, type PipelineService } from './pipeline.js';
import { RUNTIMES } from './runtimes.js';

/**
 * Policy (the `stagpipe` realm): reads need `permit read` on the pipeline's
 * FQN, a create `permit create`, a change `permit update`, a delete `permit
 * delete`. The listing shows only readable pipelines; a pipeline the caller
 * may not read answers 404. GET /runtimes is open to every user. The stager
 * jobs a body names need `permit start` on each (policy/references.ts).
 */
export function stagingEndpoints(pipelines: PipelineService, maxBodyBytes: number): Endpoint[] {
  const param = (ctx: ApiContext) => requireUuid(ctx.params['uuid'] ?? '', 'staging pipeline uuid');
  /** The pipeline addressed by the path, once the caller may do `permission` on it. */
  const authorized = async (ctx: ApiContext, permission: string) => {
    const id = param(ctx);
    const pipeline = await pipelines.get(id).catch((err: unknown) => {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    });
    if (!pipeline) throw new NotFoundError(`staging pipeline ${id} not found`);
    await authorizeFound(ctx, pipeline.fqn, permission, `staging pipeline ${id} not found`);
    return pipeline;
  };
  const media = v1('stagingpipeline');
  return [
    {
      method: 'GET',
      path: '/stagingpipelines',
      doc: { summary: 'Lists the staging pipelines' },
      media,
      handler: async (ctx) => sendJson(ctx, media, readable(ctx, await pipelines.list(queryValue(ctx, 'fqn') || undefined), (p) => p.fqn)),
    },
    {
      method: 'POST',
      path: '/stagingpipelines',
      doc: { summary: 'Creates a staging pipeline', body: pipelineInputSchema },
      media,
      handler: async (ctx) => {
        const body = await readJsonObject(ctx.req, maxBodyBytes);
        await authorize(ctx, bodyFqn(body, 'stagpipe'), 'create');
        const pipeline = await pipelines.create(body, changeContext(ctx), references(ctx));
        ctx.set('Location', `${baseUrl(ctx)}/v1/stagingpipelines/${pipeline.uuid}`);
        sendJson(ctx, media, pipeline);
      },
    },
    {
      method: 'GET',
      path: '/stagingpipelines/:uuid',
      doc: { summary: 'A staging pipeline' },
      media,
      handler: async (ctx) => sendJson(ctx, media, await authorized(ctx, 'read')),
    },
    {
      method: 'PUT',
      path: '/stagingpipelines/:uuid',
      doc: { summary: 'Replaces a staging pipeline', body: pipelineInputSchema },
      media,
      handler: async (ctx) => {
        const { uuid } = await authorized(ctx, 'update');
        sendJson(ctx, media, await pipelines.update(uuid, await readJsonObject(ctx.req, maxBodyBytes), changeContext(ctx), references(ctx)));
      },
    },
    {
      method: 'DELETE',
      path: '/stagingpipelines/:uuid',
      doc: { summary: 'Deletes a staging pipeline' },
      handler: async (ctx) => {
        const { uuid } = await authorized(ctx, 'delete');
        await pipelines.delete(uuid, changeContext(ctx));
        sendEmpty(ctx);
      },
    },
    {
      method: 'GET',
      path: '/runtimes',
      doc: { summary: 'The runtimes of the built-in pipelines with the file patterns that recognize them' },
      media: v1('runtime'),
      handler: async (ctx) => sendJson(ctx, v1('runtime'), RUNTIMES),
    },
  ];
}
