/**
 * REST endpoints of routes (cluster-api.md: GET /jobs/routes, GET /jobs/routes/{endpoint}).
 * Both list only the jobs the caller may read; an endpoint none of whose jobs it may read is
 * as unknown to it as one that no job routes at.
 */
import { sendJson, v1, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import { canAccess } from '../policy/access.js';
import type { RouteTable } from './route-table.js';

const URL_SAFE_BASE64 = /^[A-Za-z0-9_-]+={0,2}$/;

/** Decodes the path parameter: URL-safe Base64 of the endpoint text (400 otherwise). */
export function decodeEndpointParam(raw: string): string {
  if (!URL_SAFE_BASE64.test(raw) || raw.replace(/=+$/, '').length % 4 === 1) {
    throw new InvalidRequestError(`endpoint: "${raw}" is not URL-safe Base64 (A-Z a-z 0-9 - _, optional = padding)`);
  }
  const bytes = Buffer.from(raw, 'base64url');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.length === 0 || text.includes('\uFFFD')) throw new InvalidRequestError(`endpoint: "${raw}" does not decode to UTF-8 text`);
  return text;
}

export function routeEndpoints(table: RouteTable): Endpoint[] {
  const visibleMap = (ctx: ApiContext): Map<string, string[]> => {
    const out = new Map<string, string[]>();
    for (const [endpoint, jobs] of table.routeMap()) {
      const uuids = jobs.filter((j) => canAccess(ctx, j.fqn, 'read')).map((j) => j.uuid);
      if (uuids.length > 0) out.set(endpoint, uuids.sort());
    }
    return out;
  };
  return [
    {
      method: 'GET',
      path: '/jobs/routes',
      media: v1('routemap'),
      handler: async (ctx) => {
        const map = visibleMap(ctx);
        sendJson(ctx, v1('routemap'), Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
      },
    },
    {
      method: 'GET',
      path: '/jobs/routes/:endpoint',
      media: v1('routemap'),
      handler: async (ctx) => {
        const endpoint = decodeEndpointParam(ctx.params['endpoint'] ?? '');
        const uuids = visibleMap(ctx).get(endpoint);
        if (!uuids) throw new NotFoundError(`no job routes at ${endpoint}`);
        sendJson(ctx, v1('routemap'), { [endpoint]: uuids });
      },
    },
  ];
}
