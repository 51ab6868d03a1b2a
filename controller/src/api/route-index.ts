/**
 * @koa/router finds a request's routes by testing the regular expression of
 * every route it holds, in the order they were added, on every request: with the
 * API's ~200 routes (endpoints, the specification's paths not served yet, the
 * 2016 names) that was 5% of the CPU of a `GET /jobs/{uuid}`. `indexRoutes`
 * makes the router give the same answers testing only the routes that can match: those whose
 * first path segment is the request's (compared as the router compares, without
 * regard to ASCII case), and those whose first segment is not a plain word (a
 * parameter, a pattern), in the router's order.
 *
 * The answers for recent requests are remembered (method and path, up to MATCH_CACHE_SIZE of
 * them, paths up to MATCH_CACHE_PATH_MAX characters): a client reads the same resources again
 * and again, and the router's answer for a path changes only when routes are added, which
 * starts a new index and a new cache. Each caller gets its own copy of the remembered lists.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- layers of any state: the index only reads their path and options */
import type { Layer, Router } from '@koa/router';
import type { Middleware } from 'koa';
import { LruCache } from '../util/lru.js';

/** Routers' answers remembered, by method and path. */
const MATCH_CACHE_SIZE = 1024;
/** Longer paths are matched every time (a client's path must not take much of the cache's memory). */
const MATCH_CACHE_PATH_MAX = 256;

type Match = ReturnType<Router['match']>;

/** A first segment made only of characters that a route pattern takes literally. */
const LITERAL_SEGMENT = /^[A-Za-z0-9_~-]*$/;

interface Index {
  /** The stack the index was built from, and its length then: routes added later rebuild it. */
  stack: readonly Layer<any, any>[];
  length: number;
  bySegment: Map<string, Layer<any, any>[]>;
  /** Routes that may match whatever the first segment. */
  any: Layer<any, any>[];
  /** The router's answers for recent requests, by `method path`. */
  matches: LruCache<string, Match>;
}

/** The route's first path segment, lower-cased, when the route matches exactly that word there; undefined otherwise. */
function literalFirstSegment(layer: Layer<any, any>): string | undefined {
  if (typeof layer.path !== 'string' || layer.methods.length === 0 || layer.opts.end === false) return undefined;
  if (layer.opts.sensitive) return undefined;
  const path = layer.path;
  if (!path.startsWith('/')) return undefined;
  const slash = path.indexOf('/', 1);
  const segment = slash < 0 ? path.slice(1) : path.slice(1, slash);
  return LITERAL_SEGMENT.test(segment) ? segment.toLowerCase() : undefined;
}

/** The request path's first segment as the index files it. */
function firstSegment(path: string): string {
  const slash = path.indexOf('/', 1);
  return (slash < 0 ? path.slice(1) : path.slice(1, slash)).toLowerCase();
}

/**
 * Makes `router` find routes through the index; call it once, before the router serves. Routes
 * added afterwards are indexed on the next request.
 */
export function indexRoutes<S>(router: Router<S>): Router<S> {
  const own = router.match.bind(router);
  let index: Index | undefined;
  const build = (): Index => {
    const stack = router.stack as unknown as Layer<any, any>[];
    const segments = stack.map(literalFirstSegment);
    const bySegment = new Map<string, Layer<any, any>[]>();
    for (const s of segments) if (s !== undefined && !bySegment.has(s)) bySegment.set(s, []);
    const any: Layer<any, any>[] = [];
    stack.forEach((layer, i) => {
      const s = segments[i];
      if (s !== undefined) bySegment.get(s)!.push(layer);
      else {
        any.push(layer);
        for (const list of bySegment.values()) list.push(layer);
      }
    });
    return { stack, length: stack.length, bySegment, any, matches: new LruCache(MATCH_CACHE_SIZE) };
  };
  /** The router's answer, remembered: shared, never to be changed by the caller. */
  const remembered = (path: string, method: string): Match => {
    if (!index || index.stack !== (router.stack as unknown) || index.length !== router.stack.length) index = build();
    if (!path.startsWith('/')) return own(path, method);
    const key = path.length <= MATCH_CACHE_PATH_MAX ? `${method} ${path}` : undefined;
    let match = key === undefined ? undefined : index.matches.get(key);
    if (match === undefined) {
      const candidates = index.bySegment.get(firstSegment(path)) ?? index.any;
      // The router's own matching, over the candidates only.
      const all = router.stack;
      router.stack = candidates as unknown as typeof all;
      try {
        match = own(path, method);
      } finally {
        router.stack = all;
      }
      if (key !== undefined) index.matches.set(key, match);
    }
    return match;
  };
  REMEMBERED.set(router, remembered);
  router.match = (path: string, method: string) => {
    const match = remembered(path, method);
    // The router keeps the lists it gets (ctx.matched) and may add to them: never the remembered ones.
    return { path: [...match.path], pathAndMethod: [...match.pathAndMethod], route: match.route };
  };
  return router;
}

const REMEMBERED = new WeakMap<object, (path: string, method: string) => Match>();

/**
 * The router's middleware (`router.routes()`) for an indexed router, with a shorter way for the
 * usual request: one route matches and it has one handler (every endpoint of the API). That
 * request gets the router's own `ctx.params`, `ctx.captures`, `ctx.routerPath` and
 * `_matchedRoute`, and its handler is called directly, without the chain of two functions the
 * router composes for it on every request. Anything else (several layers, middleware on a
 * route, no route) goes through the router's own middleware. `ctx.matched` is not kept: the
 * API's handlers do not read it.
 */
export function dispatchRoutes<S>(router: Router<S>): Middleware<S> {
  const remembered = REMEMBERED.get(router);
  if (!remembered) throw new Error('dispatchRoutes needs a router made by indexRoutes');
  const routes = router.routes() as unknown as Middleware<S>;
  // The captures and parameters of recent paths (by route: a path's never change while its
  // route stays): the route's regular expression and the parameters' decoding, once per path.
  const parsed = new LruCache<string, { layer: Layer<any, any>; captures: readonly string[]; params: Readonly<Record<string, string>> }>(MATCH_CACHE_SIZE);
  return (ctx, next) => {
    const path = ctx.path;
    const match = remembered(path, ctx.method);
    const layers = match.pathAndMethod;
    if (!match.route || layers.length !== 1 || layers[0]!.stack.length !== 1) return routes(ctx, next);
    const layer = layers[0]!;
    const routed = ctx as typeof ctx & { captures: string[]; params: Record<string, string>; routerPath: string; _matchedRoute: string; router: unknown; routeMatched: boolean };
    routed.router = router;
    routed.routeMatched = true;
    let known = path.length <= MATCH_CACHE_PATH_MAX ? parsed.get(path) : undefined;
    if (known === undefined || known.layer !== layer) {
      const captures = layer.captures(path);
      known = { layer, captures, params: layer.params(path, captures, {}) };
      if (path.length <= MATCH_CACHE_PATH_MAX) parsed.set(path, known);
    }
    // Copies: a request may change its own.
    routed.captures = [...known.captures];
    routed.params = (ctx.request as typeof ctx.request & { params: Record<string, string> }).params = { ...(routed.params as Record<string, string> | undefined), ...known.params };
    routed.routerPath = layer.path as string;
    routed._matchedRoute = layer.path as string;
    return (layer.stack[0] as unknown as Middleware<S>)(ctx, next);
  };
}
