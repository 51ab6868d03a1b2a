/**
 * REST endpoints of secrets (secret-service.ts). Policy, on the secret's FQN: `create` for POST,
 * `read` for the GETs (listings show only readable secrets), `update` for PUT, `delete` for
 * DELETE; installing one in a job needs `install` on it (checked with the job's references).
 * A secret the caller may not read answers 404, as one that does not exist.
 *
 *   POST   /secrets           {fqn, value | value_base64, description}   Secret (never the value)
 *   GET    /secrets[?fqn=&matchPartialFQN]                             Secret[]
 *   GET    /secrets/{uuid}                                             Secret
 *   PUT    /secrets/{uuid}    {value | value_base64, description}      Secret (a new version)
 *   DELETE /secrets/{uuid}                                             409 while installed in a job
 */
import { z } from 'zod';
import { readJsonObject } from '../api/body.js';
import { baseUrl, changeContext, sendEmpty, sendJson, v1, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { queryBool, queryFqn } from '../api/query.js';
import { NotFoundError } from '../errors.js';
import { requireUuid } from '../model/validate.js';
import { authorize, authorizeFound, bodyFqn, canAccess } from '../policy/access.js';
import { secretCreateSchema, secretUpdateSchema, secretViewSchema, type Secret, type SecretService } from './secret-service.js';

export function secretEndpoints(secrets: SecretService, maxBodyBytes: number): Endpoint[] {
  /** The secret addressed by the path, once the caller may do `permission` on it. */
  const authorized = async (ctx: ApiContext, permission: string): Promise<Secret> => {
    const id = requireUuid(ctx.params['uuid'] ?? '', 'secret uuid');
    const secret = secrets.get(id);
    if (!secret) throw new NotFoundError(`secret ${id} not found`);
    await authorizeFound(ctx, secret.fqn, permission, `secret ${id} not found`);
    return secret;
  };
  return [
    {
      method: 'POST',
      path: '/secrets',
      doc: { summary: 'Creates a secret; its value is never answered', body: secretCreateSchema, response: secretViewSchema },
      media: v1('secret'),
      handler: async (ctx) => {
        const body = await readJsonObject(ctx.req, maxBodyBytes);
        await authorize(ctx, bodyFqn(body, 'secret'), 'create');
        const secret = await secrets.create(body, changeContext(ctx));
        ctx.set('Location', `${baseUrl(ctx)}/v1/secrets/${secret.uuid}`);
        sendJson(ctx, v1('secret'), secret);
      },
    },
    {
      method: 'GET',
      path: '/secrets',
      doc: { summary: 'The secrets the caller may read', response: z.array(secretViewSchema), query: { fqn: 'an FQN or, with matchPartialFQN, a namespace or prefix', matchPartialFQN: 'presence flag' } },
      media: v1('secrets'),
      handler: async (ctx) => {
        const partial = queryBool(ctx, 'matchPartialFQN');
        const fqn = queryFqn(ctx, 'fqn', 'secret', partial);
        sendJson(ctx, v1('secrets'), secrets.list((f) => canAccess(ctx, f, 'read'), fqn, partial));
      },
    },
    {
      method: 'GET',
      path: '/secrets/:uuid',
      doc: { summary: 'A secret (never its value)', response: secretViewSchema },
      media: v1('secret'),
      handler: async (ctx) => {
        sendJson(ctx, v1('secret'), await authorized(ctx, 'read'));
      },
    },
    {
      method: 'PUT',
      path: '/secrets/:uuid',
      doc: { summary: 'A new value (a new version: the jobs it is installed in roll) or description', body: secretUpdateSchema, response: secretViewSchema },
      media: v1('secret'),
      handler: async (ctx) => {
        const secret = await authorized(ctx, 'update');
        const body = await readJsonObject(ctx.req, maxBodyBytes);
        sendJson(ctx, v1('secret'), await secrets.update(secret.uuid, body, changeContext(ctx)));
      },
    },
    {
      method: 'DELETE',
      path: '/secrets/:uuid',
      doc: { summary: 'Deletes a secret that no job has installed' },
      handler: async (ctx) => {
        const secret = await authorized(ctx, 'delete');
        await secrets.delete(secret.uuid, changeContext(ctx));
        sendEmpty(ctx);
      },
    },
  ];
}
