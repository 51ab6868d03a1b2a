/** REST endpoints of jobs (spec: the /jobs rows of the endpoint table). */
import { baseUrl, changeContext, queryValue, queryValues, sendEmpty, sendJson, sendJsonText, v1, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { queryBool, queryFqn, queryInt, queryUuids } from '../api/query.js';
import { readJsonObject } from '../api/body.js';
import { InvalidRequestError } from '../errors.js';
import { requireUuid } from '../model/validate.js';
import { optional } from '../util/json.js';
import type { JobService } from './job-service.js';

export function jobEndpoints(jobs: JobService, maxBodyBytes: number): Endpoint[] {
  const param = (ctx: ApiContext) => requireUuid(ctx.params['uuid'] ?? '', 'job uuid');
  return [
    {
      method: 'GET',
      path: '/jobs',
      media: v1('jobs'),
      handler: async (ctx) => {
        const partial = queryBool(ctx, 'matchPartialFQN');
        const ids = queryUuids(ctx, 'ids');
        const packageId = queryValue(ctx, 'package_id');
        const name = queryValue(ctx, 'name');
        const list = await jobs.list({
          ...optional('fqn', queryFqn(ctx, 'fqn', 'job', partial)),
          matchPartialFqn: partial,
          ...optional('name', name === '' ? undefined : name),
          ...optional('ids', ids),
          ...optional('tags', ctx.query['tag'] === undefined ? undefined : queryValues(ctx, 'tag')),
          ...optional('bindingFqn', queryValue(ctx, 'BindingFQN') || undefined),
          ...optional('serviceFqn', queryValue(ctx, 'ServiceFQN') || undefined),
          ...optional('providerFqn', queryValue(ctx, 'ProviderFQN') || undefined),
          ...optional('packageId', packageId ? requireUuid(packageId, 'query package_id:') : undefined),
          ...optional('count', queryInt(ctx, 'count', 0)),
          ...optional('page', queryInt(ctx, 'page', 1)),
          health: queryBool(ctx, 'health'),
        });
        sendJson(ctx, v1('jobs'), list);
      },
    },
    {
      method: 'POST',
      path: '/jobs',
      media: v1('jobs'),
      handler: async (ctx) => {
        const job = await jobs.create(await readJsonObject(ctx.req, maxBodyBytes), changeContext(ctx));
        ctx.set('Location', `${baseUrl(ctx)}/v1/jobs/${job.uuid}`);
        sendJson(ctx, v1('jobs'), (await jobs.render([job], false))[0]);
      },
    },
    {
      method: 'GET',
      path: '/jobs/health',
      media: v1('jobhealth'),
      handler: async (ctx) => {
        const ids = queryUuids(ctx, 'ids');
        if (!ids || ids.length === 0) throw new InvalidRequestError('query ids: a comma-separated list of job uuids is required');
        sendJson(ctx, v1('jobhealth'), await jobs.health(ids));
      },
    },
    {
      method: 'GET',
      path: '/jobs/:uuid',
      media: v1('job'),
      handler: async (ctx) => sendJsonText(ctx, v1('job'), await jobs.getJson(param(ctx))),
    },
    {
      method: 'PUT',
      path: '/jobs/:uuid',
      media: v1('job'),
      handler: async (ctx) => {
        const id = param(ctx);
        const { job } = await jobs.update(id, await readJsonObject(ctx.req, maxBodyBytes), changeContext(ctx));
        sendJson(ctx, v1('job'), job);
      },
    },
    {
      method: 'DELETE',
      path: '/jobs/:uuid',
      handler: async (ctx) => {
        await jobs.delete(param(ctx), changeContext(ctx));
        sendEmpty(ctx);
      },
    },
  ];
}

