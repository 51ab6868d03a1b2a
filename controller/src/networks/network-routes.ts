/**
 * REST endpoints of networks/ (cluster-api.md: GET /networks with `ipam`; the other paths are
 * "not shown" there: docs/api.md "Virtual networks" documents them as ours).
 *
 * Policy (realm `network::`, permissions create, read, delete, join):
 *   GET /networks                     the networks the caller may read
 *   POST /networks                    `permit create` on the network
 *   GET /networks/{uuid}              `permit read` (404 when unreadable); records network.show
 *   DELETE /networks/{uuid}           `permit delete`
 *   POST /networks/{uuid}/join        `permit join` on the network, `permit update` on the job
 *   POST /networks/{uuid}/leave       `permit join` on the network, `permit update` on the job
 */
import { z } from 'zod';
import { readJsonObject } from '../api/body.js';
import { changeContext, sendEmpty, sendJson, v1, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { queryBool } from '../api/query.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import { requireUuid } from '../model/validate.js';
import { authorize, authorizeFound, readable, references } from '../policy/access.js';
import type { NetworkCatalog } from './network-catalog.js';
import { joinSchema, leaveSchema, networkSchema, networkViewSchema, parseJoin, parseLeave, parseNetwork, renderNetwork, type NetworkRecord } from './network-model.js';

/** `ipam` as the specification has it: detailed address data is skipped only when it is exactly `false`. */
function withIpam(ctx: ApiContext): boolean {
  const raw = ctx.query['ipam'];
  if (raw === undefined) return true;
  if (Array.isArray(raw)) throw new InvalidRequestError('ipam: give it once');
  return raw !== 'false';
}

export function networkEndpoints(catalog: NetworkCatalog, maxBodyBytes: number): Endpoint[] {
  const body = (ctx: ApiContext) => readJsonObject(ctx.req, maxBodyBytes);
  const render = (n: NetworkRecord, ipam: boolean) => renderNetwork(n, ipam ? (job) => catalog.addresses(n.uuid, job) : undefined);
  const network = async (ctx: ApiContext, permission: string) => {
    const id = requireUuid(ctx.params['uuid'] ?? '', 'network uuid');
    const n = catalog.get(id);
    if (!n) throw new NotFoundError(`network ${id} not found`);
    await authorizeFound(ctx, n.fqn, permission, `network ${id} not found`);
    return n;
  };
  return [
    {
      method: 'GET',
      path: '/networks',
      media: v1('network'),
      doc: {
        summary: 'The virtual networks the caller may read',
        query: { ipam: 'exactly `false`: the endpoints\' interfaces (instance addresses) are left out' },
        response: z.array(networkViewSchema),
      },
      handler: async (ctx) => {
        const ipam = withIpam(ctx);
        sendJson(ctx, v1('network'), readable(ctx, catalog.list(), (n) => n.fqn).map((n) => render(n, ipam)));
      },
    },
    {
      method: 'POST',
      path: '/networks',
      media: v1('network'),
      doc: { summary: 'Creates a virtual network with a subnet from the pool (or the one given)', body: networkSchema, response: networkViewSchema },
      handler: async (ctx) => {
        const req = parseNetwork(await body(ctx));
        await authorize(ctx, req.fqn, 'create');
        sendJson(ctx, v1('network'), render(await catalog.create(req, changeContext(ctx)), true));
      },
    },
    {
      method: 'GET',
      path: '/networks/:uuid',
      media: v1('network'),
      doc: { summary: 'A virtual network with its endpoints', query: { ipam: 'exactly `false`: no instance addresses' }, response: networkViewSchema },
      handler: async (ctx) => {
        const n = await network(ctx, 'read');
        const ipam = withIpam(ctx);
        await catalog.shown(n, changeContext(ctx));
        sendJson(ctx, v1('network'), render(n, ipam));
      },
    },
    {
      method: 'DELETE',
      path: '/networks/:uuid',
      doc: { summary: 'Deletes a virtual network (refused while jobs are members, unless force)', query: { force: 'presence flag or true/false' } },
      handler: async (ctx) => {
        const n = await network(ctx, 'delete');
        await catalog.delete(n.uuid, queryBool(ctx, 'force'), changeContext(ctx));
        sendEmpty(ctx);
      },
    },
    {
      method: 'POST',
      path: '/networks/:uuid/join',
      media: v1('network'),
      doc: { summary: 'Puts a job on the network (or changes its options there); its instances are replaced onto it', body: joinSchema, response: networkViewSchema },
      handler: async (ctx) => {
        const n = await network(ctx, 'join');
        const req = parseJoin(await body(ctx));
        await catalog.join(n.uuid, req, changeContext(ctx), references(ctx));
        sendJson(ctx, v1('network'), render(catalog.get(n.uuid)!, true));
      },
    },
    {
      method: 'POST',
      path: '/networks/:uuid/leave',
      media: v1('network'),
      doc: { summary: 'Takes a job off the network; its instances are replaced off it', body: leaveSchema, response: networkViewSchema },
      handler: async (ctx) => {
        const n = await network(ctx, 'join');
        await catalog.leave(n.uuid, parseLeave(await body(ctx)), changeContext(ctx), references(ctx));
        sendJson(ctx, v1('network'), render(catalog.get(n.uuid)!, true));
      },
    },
  ];
}
