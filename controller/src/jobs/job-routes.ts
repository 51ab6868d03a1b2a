/** REST endpoints of jobs (spec: the /jobs rows of the endpoint table). */
import { baseUrl, changeContext, queryValue, sendEmpty, sendJson, sendJsonText, v1, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { queryBool, queryFqn, queryInt, queryList, queryUuids } from '../api/query.js';
import { readJsonObject } from '../api/body.js';
import { ifMatchVersions, readMergePatch, setVersionTag } from '../api/conditional.js';
import { InvalidRequestError, NotFoundError, PreconditionFailedError } from '../errors.js';
import { requireUuid } from '../model/validate.js';
import { authorize, authorizeFound, bodyFqn, canAccess, references } from '../policy/access.js';
import { applyMergePatch, optional } from '../util/json.js';
import { jobInputSchema, jobViewSchema, type Job } from '../model/job.js';
import { z } from 'zod';
import type { JobService } from './job-service.js';

/**
 * Policy: reads need `permit read` on the job's FQN, a create `permit create`
 * (and `start` when it asks for state `started`), a PUT `permit update` (and
 * `start` or `stop` when it changes the state), a delete `permit delete`.
 * Listings show only readable jobs; a job the caller may not read answers 404.
 * The packages a body names need `permit use` (policy/references.ts).
 * Every route a create, PUT or PATCH adds needs `permit map` on `route::/http/<reversed domain>`.
 */
/** Each route a change adds needs `permit map` on its realm (`route::/http/<reversed domain>`). */
const mapCheck = (ctx: ApiContext) => (realm: string) => authorize(ctx, realm, 'map');

export function jobEndpoints(jobs: JobService, maxBodyBytes: number): Endpoint[] {
  const param = (ctx: ApiContext) => requireUuid(ctx.params['uuid'] ?? '', 'job uuid');
  /** The job addressed by the path, once the caller may do `permission` on it. */
  const authorized = async (ctx: ApiContext, permission: string) => {
    const id = param(ctx);
    const job = await jobs.find(id);
    if (!job) throw new NotFoundError(`job ${id} not found`);
    await authorizeFound(ctx, job.fqn, permission, `job ${id} not found`);
    return job;
  };
  /** A PUT or PATCH once its body is the whole job: the same checks, actor and audit path. */
  const change = async (ctx: ApiContext, current: Job, body: Record<string, unknown>, mode: 'put' | 'patch', ifMatch: readonly number[] | undefined) => {
    if (body['state'] === 'started' && current.state !== 'started') await authorize(ctx, current.fqn, 'start');
    if (body['state'] === 'stopped' && current.state === 'started') await authorize(ctx, current.fqn, 'stop');
    const { job } = await jobs.update(current.uuid, body, changeContext(ctx), references(ctx), { mode, ...optional('ifMatch', ifMatch), mayMap: mapCheck(ctx) });
    setVersionTag(ctx, job.version_id);
    sendJson(ctx, v1('job'), job);
  };
  return [
    {
      method: 'GET',
      path: '/jobs',
      doc: { summary: 'Lists the jobs the caller may read', response: z.array(jobViewSchema), query: { fqn: 'an FQN or, with matchPartialFQN, a prefix', matchPartialFQN: 'presence flag', name: 'local name', ids: 'comma-separated uuids', tag: 'a tag (repeatable)', package_id: 'jobs running this package', count: 'page size', page: 'page number', health: 'presence flag: add each job\'s health' } },
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
          ...optional('tags', queryList(ctx, 'tag')),
          ...optional('bindingFqn', queryValue(ctx, 'BindingFQN') || undefined),
          ...optional('serviceFqn', queryValue(ctx, 'ServiceFQN') || undefined),
          ...optional('providerFqn', queryValue(ctx, 'ProviderFQN') || undefined),
          ...optional('packageId', packageId ? requireUuid(packageId, 'query package_id:') : undefined),
          ...optional('count', queryInt(ctx, 'count', 0)),
          ...optional('page', queryInt(ctx, 'page', 1)),
          health: queryBool(ctx, 'health'),
          visible: (fqn) => canAccess(ctx, fqn, 'read'),
        });
        sendJson(ctx, v1('jobs'), list);
      },
    },
    {
      method: 'POST',
      path: '/jobs',
      doc: { summary: 'Creates a job', body: jobInputSchema, response: jobViewSchema },
      media: v1('jobs'),
      handler: async (ctx) => {
        const body = await readJsonObject(ctx.req, maxBodyBytes);
        const fqn = bodyFqn(body, 'job');
        await authorize(ctx, fqn, 'create');
        if (body['state'] === 'started') await authorize(ctx, fqn, 'start');
        const job = await jobs.create(body, changeContext(ctx), references(ctx), mapCheck(ctx));
        ctx.set('Location', `${baseUrl(ctx)}/v1/jobs/${job.uuid}`);
        sendJson(ctx, v1('jobs'), (await jobs.render([job], false))[0]);
      },
    },
    {
      method: 'GET',
      path: '/jobs/health',
      doc: { summary: 'The health of started jobs', query: { ids: 'comma-separated job uuids (required)' } },
      media: v1('jobhealth'),
      handler: async (ctx) => {
        const ids = queryUuids(ctx, 'ids');
        if (!ids || ids.length === 0) throw new InvalidRequestError('query ids: a comma-separated list of job uuids is required');
        sendJson(ctx, v1('jobhealth'), await jobs.health(ids, (fqn) => canAccess(ctx, fqn, 'read')));
      },
    },
    {
      method: 'GET',
      path: '/jobs/:uuid',
      doc: { summary: 'A job; its version_id is the ETag', response: jobViewSchema },
      media: v1('job'),
      handler: async (ctx) => {
        const job = await authorized(ctx, 'read');
        const { json, version } = await jobs.versionedOf(job);
        setVersionTag(ctx, version);
        sendJsonText(ctx, v1('job'), json);
      },
    },
    {
      method: 'PUT',
      path: '/jobs/:uuid',
      doc: { summary: 'Replaces a job (If-Match: "<version_id>")', body: jobInputSchema, response: jobViewSchema },
      media: v1('job'),
      handler: async (ctx) => {
        const current = await authorized(ctx, 'update');
        const body = await readJsonObject(ctx.req, maxBodyBytes);
        await change(ctx, current, body, 'put', ifMatchVersions(ctx));
      },
    },
    {
      method: 'PATCH',
      path: '/jobs/:uuid',
      doc: { summary: 'Changes the fields a JSON Merge Patch names (If-Match: "<version_id>")', body: jobInputSchema.partial(), bodyMedia: ['application/merge-patch+json'], response: jobViewSchema },
      media: v1('job'),
      handler: async (ctx) => {
        const first = await authorized(ctx, 'update');
        const patch = await readMergePatch(ctx, maxBodyBytes);
        const ifMatch = ifMatchVersions(ctx);
        // Merged onto the job as read, one PATCH of a job at a time; without If-Match, a PUT
        // in between (412 from the actor) means merging again onto the newer job.
        await jobs.serialized(first.uuid, async () => {
          for (let attempt = 1; ; attempt++) {
            const current = await authorized(ctx, 'update');
            const body = applyMergePatch(jobs.inputOf(current), patch) as Record<string, unknown>;
            try {
              return await change(ctx, current, body, 'patch', ifMatch ?? [current.version_id]);
            } catch (err) {
              if (ifMatch || attempt >= 10 || !(err instanceof PreconditionFailedError)) throw err;
            }
          }
        });
      },
    },
    {
      method: 'DELETE',
      path: '/jobs/:uuid',
      doc: { summary: 'Deletes a job and stops its instances' },
      handler: async (ctx) => {
        const job = await authorized(ctx, 'delete');
        await jobs.delete(job.uuid, changeContext(ctx));
        sendEmpty(ctx);
      },
    },
  ];
}

