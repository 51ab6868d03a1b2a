/**
 * Two tables of paths that no domain folder declares:
 *
 * - NOT_SERVED: the paths of the specification's endpoint table that no capability serves yet.
 *   Each answers one consistent 404 APIError naming the request's path, instead of whatever a
 *   neighbouring pattern would say (`POST /jobs/container` is not a 405 of `/jobs/:uuid`, nor
 *   `GET /networks` a plain "no endpoint"). They are matched before every endpoint, so the
 *   capability that serves one removes its row here; `mountSpecPaths` refuses to start while a
 *   row names an endpoint that is served.
 * - LEGACY_NAMES: the 2016 names of endpoints that the specification renamed, used by the
 *   clients generated from the original platform's Swagger file. A legacy name answers exactly
 *   what its new path answers: the same handler when the new path is served, else the new
 *   path's 404. Where the specification has no new path for a 2016 endpoint, the row names the
 *   capability that will serve it instead (`capability`), and that capability gives the row its
 *   `target` when it lands.
 *
 * docs/api.md ("Not yet served", "Clients of the original platform") lists both tables.
 */
import type Router from '@koa/router';
import { NotFoundError } from '../errors.js';
import type { ApiContext, ApiState, Endpoint, Method } from './endpoint.js';

export interface NotServed {
  method: Method;
  /** In the router's syntax (`:uuid`), without `/v1`. */
  path: string;
  /** What will serve it, in words, for the error message and the docs. */
  capability: string;
}

export interface LegacyName {
  method: Method;
  /** The 2016 path, in the router's syntax, without `/v1`. */
  path: string;
  /** The path that answers it now: a served endpoint or a row of NOT_SERVED. */
  target?: { method: Method; path: string };
  /** Without a target: the capability that will serve the 2016 path itself. */
  capability?: string;
}

export const NOT_SERVED: readonly NotServed[] = [];

export const LEGACY_NAMES: readonly LegacyName[] = [
  { method: 'GET', path: '/audit_logs', target: { method: 'GET', path: '/audit' } },
  { method: 'POST', path: '/jobs/docker', target: { method: 'POST', path: '/jobs/container' } },
  // Checks a container job body against policy (the registries and images the caller may pull
  // from included) without creating anything; the specification has no new name for it.
  { method: 'POST', path: '/jobs/docker-job-check', capability: 'container job policy checks' },
  { method: 'GET', path: '/apc/download/:platform', target: { method: 'GET', path: '/cli/download/:platform' } },
];

/** Method and path with the parameter names left out: `/jobs/:uuid` and `/jobs/:id` are one route. */
const key = (method: string, path: string) => `${method} ${path.replace(/:\w+/g, ':')}`;

/** `/jobs/:uuid/logs` as the specification writes it: `/jobs/{uuid}/logs`. */
export function specPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function notServed(ctx: ApiContext, route: string, capability: string, legacyOf?: string): never {
  const what = legacyOf ? `${ctx.method} ${ctx.path} (the 2016 name of ${legacyOf})` : `${ctx.method} ${ctx.path}`;
  throw new NotFoundError(`${what} is not served yet; it comes with ${capability}`, {
    details: { not_served: route, capability, ...(legacyOf ? { legacy_name_of: legacyOf } : {}) },
  });
}

function register(router: Router<ApiState>, method: Method, path: string, handler: (ctx: ApiContext) => Promise<void>): void {
  const lower = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  router[lower](path, handler);
}

/**
 * Registers the NOT_SERVED rows and the LEGACY_NAMES on `router`, before the endpoints are
 * mounted (the router tries routes in the order they were registered; `notServedRows` is
 * NOT_SERVED but in tests). Throws when a row of
 * NOT_SERVED is served by `endpoints`, or a legacy target is neither served nor in NOT_SERVED:
 * both are mistakes of the code, caught at start.
 */
export function mountSpecPaths(router: Router<ApiState>, endpoints: readonly Endpoint[], notServedRows: readonly NotServed[] = NOT_SERVED): void {
  const served = new Map(endpoints.map((e) => [key(e.method, e.path), e]));
  const unserved = new Map(notServedRows.map((n) => [key(n.method, n.path), n]));
  for (const n of notServedRows) {
    if (served.has(key(n.method, n.path))) {
      throw new Error(`${n.method} ${n.path} is served now: remove its row from NOT_SERVED (api/spec-paths.ts) and docs/api.md`);
    }
    const route = `${n.method} ${specPath(n.path)}`;
    register(router, n.method, n.path, async (ctx) => {
      ctx.state.route = n.path;
      notServed(ctx, route, n.capability);
    });
  }
  for (const l of LEGACY_NAMES) {
    if (served.has(key(l.method, l.path))) {
      throw new Error(`${l.method} ${l.path} is served now: give its LEGACY_NAMES row (api/spec-paths.ts) that endpoint as target`);
    }
    if (!l.target) {
      if (!l.capability) throw new Error(`LEGACY_NAMES: ${l.method} ${l.path} has neither target nor capability`);
      const capability = l.capability;
      register(router, l.method, l.path, async (ctx) => {
        ctx.state.route = l.path;
        notServed(ctx, `${l.method} ${specPath(l.path)}`, capability);
      });
      continue;
    }
    const targetKey = key(l.target.method, l.target.path);
    const targetName = `${l.target.method} ${specPath(l.target.path)}`;
    const endpoint = served.get(targetKey);
    const pending = unserved.get(targetKey);
    if (endpoint) {
      // The target's handler reads its path parameters by name: the legacy path uses the same names.
      register(router, l.method, l.path, async (ctx) => {
        ctx.state.route = l.path;
        await endpoint.handler(ctx);
      });
    } else if (pending) {
      register(router, l.method, l.path, async (ctx) => {
        ctx.state.route = l.path;
        notServed(ctx, targetName, pending.capability, targetName);
      });
    } else {
      throw new Error(`LEGACY_NAMES: the target ${targetName} of ${l.method} ${l.path} is neither served nor in NOT_SERVED`);
    }
  }
}
