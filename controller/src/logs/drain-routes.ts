/**
 * GET/POST /jobs/{uuid}/logs/drains and DELETE /jobs/{uuid}/logs/drains/{drain_uuid}.
 *
 * A drain is part of its job (the job's `drains` field): adding or removing one is a change of
 * the job through its actor (version_id + 1, a `job.update` record with the patch, and a
 * `drain.add` / `drain.delete` record). Policy: listing needs `permit read` on the job, adding
 * and removing `permit update`. A bad drain (model/drain.ts) is refused with 400 and changes
 * nothing; the same url twice is 409; a host whose address the destination rule refuses
 * (loopback, link-local, the controller's own...: --allowed-destinations) is refused with 400 by
 * the job change (JobService.checkDestinations), and a host name that does not resolve now is
 * accepted (DNS may come later) with a warning there. The lines are sent by the agents holding
 * the job's instances (logs/drain-feed.ts tells them the new list; agent/src/logs/drains.ts
 * sends, judging each connection by the same rule).
 */
import type { Endpoint } from '../api/endpoint.js';
import { changeContext, sendJson, v1 } from '../api/endpoint.js';
import { readJsonObject } from '../api/body.js';
import { setVersionTag } from '../api/conditional.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { JobService } from '../jobs/job-service.js';
import { z } from 'zod';
import { drainInputSchema, drainViewSchema, normalizeDrain } from '../model/drain.js';
import { jobViewSchema } from '../model/job.js';
import { parseInput, requireUuid } from '../model/validate.js';
import { authorizeFound, references } from '../policy/access.js';

export function drainEndpoints(jobs: JobService, maxBodyBytes: number): Endpoint[] {
  const found = async (ctx: Parameters<Endpoint['handler']>[0], permission: string) => {
    const id = requireUuid(ctx.params['uuid'] ?? '', 'job uuid');
    const job = await jobs.find(id);
    if (!job) throw new NotFoundError(`job ${id} not found`);
    await authorizeFound(ctx, job.fqn, permission, `job ${id} not found`);
    return job;
  };
  return [
    {
      method: 'GET',
      path: '/jobs/:uuid/logs/drains',
      media: v1('drain'),
      doc: { summary: 'The job\'s log drains', response: z.array(drainViewSchema) },
      handler: async (ctx) => {
        const job = await found(ctx, 'read');
        sendJson(ctx, v1('drain'), job.drains);
      },
    },
    {
      method: 'POST',
      path: '/jobs/:uuid/logs/drains',
      media: v1('drain'),
      doc: { summary: 'Adds a log drain to the job (a change of the job)', body: drainInputSchema, response: drainViewSchema },
      handler: async (ctx) => {
        await found(ctx, 'update');
        const input = parseInput(drainInputSchema, await readJsonObject(ctx.req, maxBodyBytes), 'drain');
        const added = await jobs.serialized(requireUuid(ctx.params['uuid'] ?? '', 'job uuid'), async () => {
          const current = await found(ctx, 'update');
          if (current.drains.some((d) => d.url === input.url)) throw new ConflictError(`job ${current.uuid} already drains to ${input.url}`);
          const body = jobs.inputOf(current);
          body['drains'] = [...current.drains, normalizeDrain(input, '')].map(({ uuid: _uuid, ...d }) => d);
          const { job } = await jobs.update(current.uuid, body, changeContext(ctx), references(ctx), { mode: 'patch', ifMatch: [current.version_id] });
          setVersionTag(ctx, job.version_id);
          return job.drains.find((d) => d.url === input.url)!;
        });
        sendJson(ctx, v1('drain'), added);
      },
    },
    {
      method: 'DELETE',
      path: '/jobs/:uuid/logs/drains/:drain',
      media: v1('job'),
      doc: { summary: 'Removes a log drain; answers the job', response: jobViewSchema },
      handler: async (ctx) => {
        const drainId = requireUuid(ctx.params['drain'] ?? '', 'drain uuid');
        await found(ctx, 'update');
        const job = await jobs.serialized(requireUuid(ctx.params['uuid'] ?? '', 'job uuid'), async () => {
          const current = await found(ctx, 'update');
          if (!current.drains.some((d) => d.uuid === drainId)) throw new NotFoundError(`job ${current.uuid} has no drain ${drainId}`);
          const body = jobs.inputOf(current);
          body['drains'] = current.drains.filter((d) => d.uuid !== drainId).map(({ uuid: _uuid, ...d }) => d);
          return (await jobs.update(current.uuid, body, changeContext(ctx), references(ctx), { mode: 'patch', ifMatch: [current.version_id] })).job;
        });
        setVersionTag(ctx, job.version_id);
        sendJson(ctx, v1('job'), job);
      },
    },
  ];
}
