/**
 * REST endpoints of services/ (cluster-api.md: POST /bindings, /unbind, /unlink; the 2016
 * Swagger file and docs/api.md "Services" for what the specification does not show).
 *
 * Policy:
 *   POST /gateways, DELETE /gateways/{type}   `permit promote` on the job
 *   GET /gateways                             the gateways whose job the caller may read
 *   POST /providers                           `permit create` on the provider (and read on backing_job_fqn)
 *   GET, DELETE /providers/{uuid}             `permit read`, `permit delete` on the provider (404 when unreadable)
 *   POST /services                            `permit create` on the service, `permit bind` on its provider
 *   GET, DELETE /services/{uuid}              `permit read`, `permit delete` on the service
 *   POST /bindings                            service: `permit bind` on the job and on the service;
 *                                             link: `permit link` on both jobs
 *   POST /unbind                              `permit bind` on the job
 *   POST /unlink                              `permit link` on from_job, read on to_job
 */
import { changeContext, sendEmpty, sendJson, v1, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { readJsonObject } from '../api/body.js';
import { queryBool } from '../api/query.js';
import { NotFoundError } from '../errors.js';
import { requireUuid } from '../model/validate.js';
import { authorize, authorizeFound, readable, references } from '../policy/access.js';
import type { ServiceCatalog } from './catalog.js';
import { z } from 'zod';
import { bindingSchema } from '../model/job.js';
import {
  bindingRequestSchema,
  gatewayViewSchema,
  promoteSchema,
  providerSchema,
  providerViewSchema,
  serviceSchema,
  serviceViewSchema,
  unbindSchema,
  unlinkSchema,
  parseBind,
  parsePromote,
  parseProvider,
  parseService,
  parseUnbind,
  parseUnlink,
  renderGateway,
  renderProvider,
  renderService,
} from './service-model.js';

export function serviceEndpoints(catalog: ServiceCatalog, maxBodyBytes: number): Endpoint[] {
  const body = (ctx: ApiContext) => readJsonObject(ctx.req, maxBodyBytes);
  const provider = async (ctx: ApiContext, permission: string) => {
    const id = requireUuid(ctx.params['uuid'] ?? '', 'provider uuid');
    const p = catalog.provider(id);
    if (!p) throw new NotFoundError(`provider ${id} not found`);
    await authorizeFound(ctx, p.fqn, permission, `provider ${id} not found`);
    return p;
  };
  const service = async (ctx: ApiContext, permission: string) => {
    const id = requireUuid(ctx.params['uuid'] ?? '', 'service uuid');
    const s = catalog.service(id);
    if (!s) throw new NotFoundError(`service ${id} not found`);
    await authorizeFound(ctx, s.fqn, permission, `service ${id} not found`);
    return s;
  };
  return [
    {
      method: 'GET',
      path: '/gateways',
      media: v1('gateway'),
      doc: { summary: 'The gateways whose job the caller may read', response: z.array(gatewayViewSchema) },
      handler: async (ctx) => sendJson(ctx, v1('gateway'), readable(ctx, catalog.gateways(), (g) => g.job_fqn).map(renderGateway)),
    },
    {
      method: 'POST',
      path: '/gateways',
      media: v1('gateway'),
      doc: { summary: 'Promotes a job with a RUNNING instance to the gateway of a service type', body: promoteSchema, response: gatewayViewSchema },
      handler: async (ctx) => {
        const req = parsePromote(await body(ctx));
        const gateway = await catalog.promote(req, changeContext(ctx), references(ctx));
        sendJson(ctx, v1('gateway'), renderGateway(gateway));
      },
    },
    {
      method: 'DELETE',
      path: '/gateways/:type',
      doc: { summary: 'Demotes the gateway of a type (refused while services of the type exist, unless force)', query: { force: 'presence flag or true/false' } },
      handler: async (ctx) => {
        const type = ctx.params['type'] ?? '';
        const g = catalog.gateway(type);
        if (!g) throw new NotFoundError(`no gateway serves service type ${type}`);
        await authorizeFound(ctx, g.job_fqn, 'promote', `no gateway serves service type ${type}`);
        await catalog.demote(type, queryBool(ctx, 'force'), changeContext(ctx));
        sendEmpty(ctx);
      },
    },
    {
      method: 'GET',
      path: '/providers',
      media: v1('provider'),
      doc: { summary: 'The providers the caller may read', response: z.array(providerViewSchema) },
      handler: async (ctx) => sendJson(ctx, v1('provider'), readable(ctx, catalog.providers(), (p) => p.fqn).map(renderProvider)),
    },
    {
      method: 'POST',
      path: '/providers',
      media: v1('provider'),
      doc: { summary: 'Creates a provider with the gateway of its type', body: providerSchema, response: providerViewSchema },
      handler: async (ctx) => {
        const req = parseProvider(await body(ctx));
        await authorize(ctx, req.fqn, 'create');
        sendJson(ctx, v1('provider'), renderProvider(await catalog.createProvider(req, changeContext(ctx), references(ctx))));
      },
    },
    {
      method: 'GET',
      path: '/providers/:uuid',
      media: v1('provider'),
      doc: { summary: 'A provider', response: providerViewSchema },
      handler: async (ctx) => sendJson(ctx, v1('provider'), renderProvider(await provider(ctx, 'read'))),
    },
    {
      method: 'DELETE',
      path: '/providers/:uuid',
      doc: { summary: 'Deletes a provider (refused while services use it, unless force)', query: { force: 'presence flag or true/false' } },
      handler: async (ctx) => {
        const p = await provider(ctx, 'delete');
        await catalog.deleteProvider(p.uuid, queryBool(ctx, 'force'), changeContext(ctx));
        sendEmpty(ctx);
      },
    },
    {
      method: 'GET',
      path: '/services',
      media: v1('service'),
      doc: { summary: 'The services the caller may read', response: z.array(serviceViewSchema) },
      handler: async (ctx) => sendJson(ctx, v1('service'), readable(ctx, catalog.services(), (s) => s.fqn).map(renderService)),
    },
    {
      method: 'POST',
      path: '/services',
      media: v1('service'),
      doc: { summary: 'Creates a service, on a provider or with a two-tier gateway', body: serviceSchema, response: serviceViewSchema },
      handler: async (ctx) => {
        const req = parseService(await body(ctx));
        await authorize(ctx, req.fqn, 'create');
        sendJson(ctx, v1('service'), renderService(await catalog.createService(req, changeContext(ctx), references(ctx))));
      },
    },
    {
      method: 'GET',
      path: '/services/:uuid',
      media: v1('service'),
      doc: { summary: 'A service', response: serviceViewSchema },
      handler: async (ctx) => sendJson(ctx, v1('service'), renderService(await service(ctx, 'read'))),
    },
    {
      method: 'DELETE',
      path: '/services/:uuid',
      doc: { summary: 'Deletes a service (refused while jobs are bound to it, unless force)', query: { force: 'presence flag or true/false' } },
      handler: async (ctx) => {
        const s = await service(ctx, 'delete');
        await catalog.deleteService(s.uuid, queryBool(ctx, 'force'), changeContext(ctx));
        sendEmpty(ctx);
      },
    },
    {
      method: 'POST',
      path: '/bindings',
      media: v1('binding'),
      doc: { summary: 'Binds a job to a service (service_fqn) or links it to another job (target_job_fqn)', body: bindingRequestSchema, response: bindingSchema },
      handler: async (ctx) => {
        const req = parseBind(await body(ctx));
        sendJson(ctx, v1('binding'), await catalog.bind(req, changeContext(ctx), references(ctx)));
      },
    },
    {
      method: 'POST',
      path: '/unbind',
      doc: { summary: 'Removes a job\'s binding to a service', body: unbindSchema },
      handler: async (ctx) => {
        await catalog.unbind(parseUnbind(await body(ctx)), changeContext(ctx), references(ctx));
        sendEmpty(ctx);
      },
    },
    {
      method: 'POST',
      path: '/unlink',
      doc: { summary: 'Removes a job\'s links to another job', body: unlinkSchema },
      handler: async (ctx) => {
        await catalog.unlink(parseUnlink(await body(ctx)), changeContext(ctx), references(ctx));
        sendEmpty(ctx);
      },
    },
  ];
}
