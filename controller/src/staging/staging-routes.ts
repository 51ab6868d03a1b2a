/** REST endpoints of staging pipelines and runtimes. */
import { baseUrl, changeContext, queryValue, sendEmpty, sendJson, v1, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { readJsonObject } from '../api/body.js';
import { requireUuid } from '../model/validate.js';
import type { PipelineService } from './pipeline.js';
import { RUNTIMES } from './runtimes.js';

export function stagingEndpoints(pipelines: PipelineService, maxBodyBytes: number): Endpoint[] {
  const param = (ctx: ApiContext) => requireUuid(ctx.params['uuid'] ?? '', 'staging pipeline uuid');
  const media = v1('stagingpipeline');
  return [
    {
      method: 'GET',
      path: '/stagingpipelines',
      media,
      handler: async (ctx) => sendJson(ctx, media, await pipelines.list(queryValue(ctx, 'fqn') || undefined)),
    },
    {
      method: 'POST',
      path: '/stagingpipelines',
      media,
      handler: async (ctx) => {
        const pipeline = await pipelines.create(await readJsonObject(ctx.req, maxBodyBytes), changeContext(ctx));
        ctx.set('Location', `${baseUrl(ctx)}/v1/stagingpipelines/${pipeline.uuid}`);
        sendJson(ctx, media, pipeline);
      },
    },
    {
      method: 'GET',
      path: '/stagingpipelines/:uuid',
      media,
      handler: async (ctx) => sendJson(ctx, media, await pipelines.get(param(ctx))),
    },
    {
      method: 'PUT',
      path: '/stagingpipelines/:uuid',
      media,
      handler: async (ctx) => {
        const id = param(ctx);
        sendJson(ctx, media, await pipelines.update(id, await readJsonObject(ctx.req, maxBodyBytes), changeContext(ctx)));
      },
    },
    {
      method: 'DELETE',
      path: '/stagingpipelines/:uuid',
      handler: async (ctx) => {
        await pipelines.delete(param(ctx), changeContext(ctx));
        sendEmpty(ctx);
      },
    },
    {
      method: 'GET',
      path: '/runtimes',
      media: v1('runtime'),
      handler: async (ctx) => sendJson(ctx, v1('runtime'), RUNTIMES),
    },
  ];
}
