/**
 * How endpoints are declared: method, path (without `/v1`), the media type they
 * answer with, and a handler. `mountEndpoints` registers them on a router and
 * records the route pattern for metrics and logs.
 */
import type { Router, RouterContext } from '@koa/router';
import type { z } from 'zod';
import type { Logger } from '@platform/proto/common';
import type { ChangeContext } from '../context.js';
import { negotiateMedia, PLAIN_JSON, varyOnAccept, type MediaSpec } from './media.js';

export interface ApiState {
  requestId: string;
  principal: string;
  log: Logger;
  /** The matched route pattern, for metrics. */
  route?: string;
  /** Why the request was refused, for the log line. */
  error?: string;
  /**
   * A JSON answer (sendJsonText) that the edge middleware writes itself once the request's
   * middleware is done, unless a body was set meanwhile (api/middleware.ts).
   */
  json?: string;
  /** The authenticated user, once a token has been verified. */
  user?: { name: string; mechanism: string; principal: string };
  // `access` (what policy lets the authenticated user do) is added by policy/access.ts, which
  // declares it on this interface: api/ knows no domain.
}

export type ApiContext = RouterContext<ApiState>;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Endpoint {
  method: Method;
  path: string;
  /** The resource type the endpoint answers with; omitted for non-JSON answers. */
  media?: MediaSpec;
  handler: (ctx: ApiContext) => Promise<void>;
  /** What the OpenAPI document (api/openapi.ts) says of it, beyond method, path and media. */
  doc?: EndpointDoc;
}

/**
 * The parts of an endpoint's description that its declaration alone does not give. `body`
 * is the schema the handler validates the request body with (the same object, never a
 * copy written for the document).
 */
export interface EndpointDoc {
  summary?: string;
  /** The request body's schema. */
  body?: z.ZodType;
  /** Content types the request body is sent in; `application/json` by default when there is a body. */
  bodyMedia?: readonly string[];
  /** The schema of the 2xx answer, where one is declared. */
  response?: z.ZodType;
  /** Content types of a non-JSON answer (text, archives, event streams). */
  responseMedia?: readonly string[];
  /** Served without a token. */
  public?: boolean;
  /** Query parameters, by name: what each means. */
  query?: Record<string, string>;
  /** The HTTP status of success, when not 200. */
  status?: number;
}

/** A media spec at version 1 only, the usual case: one object per type, shared (media.ts remembers answers by it). */
export const v1 = (type: string): MediaSpec => {
  let spec = V1.get(type);
  if (spec === undefined) V1.set(type, (spec = Object.freeze({ type, versions: Object.freeze([1]) }) as MediaSpec));
  return spec;
};
const V1 = new Map<string, MediaSpec>();

/** Sends `body` as JSON with the negotiated media type of the endpoint. */
export function sendJson(ctx: ApiContext, media: MediaSpec, body: unknown, status = 200): void {
  sendJsonText(ctx, media, body === null ? 'null' : JSON.stringify(body), status);
}

/**
 * Sends JSON that is serialized already. The text is left for the edge middleware to write
 * (`ctx.state.json`): Koa's body setter and its respond do for a string what the edge does in
 * a few lines, for about 3% of a GET's CPU at 64 connections. A body set before (by another
 * answer) keeps Koa's way.
 */
export function sendJsonText(ctx: ApiContext, media: MediaSpec, json: string, status = 200): void {
  ctx.status = status;
  ctx.res.setHeader('Content-Type', negotiateMedia(media, ctx.req.headers.accept));
  varyOnAccept(ctx);
  if (ctx.body === undefined) ctx.state.json = json;
  else ctx.body = json;
}

/** Sends JSON as `application/json`, for the endpoints outside content negotiation (auth, policy). */
export function sendPlainJson(ctx: ApiContext, body: unknown, status = 200): void {
  ctx.status = status;
  ctx.set('Content-Type', PLAIN_JSON);
  ctx.body = JSON.stringify(body);
}

/** Sends a 200 with an empty body (deletes, stops). */
export function sendEmpty(ctx: ApiContext): void {
  ctx.status = 200;
  ctx.body = '';
}

/** The URL the client reached us at, for Location headers; empty (relative) without a Host header. */
export function baseUrl(ctx: ApiContext): string {
  return ctx.host ? `${ctx.protocol}://${ctx.host}` : '';
}

export function changeContext(ctx: ApiContext): ChangeContext {
  return { principal: ctx.state.principal, requestId: ctx.state.requestId };
}

export function mountEndpoints(router: Router<ApiState>, endpoints: readonly Endpoint[]): void {
  for (const e of endpoints) {
    const wrapped = async (ctx: ApiContext) => {
      ctx.state.route = e.path;
      await e.handler(ctx);
    };
    switch (e.method) {
      case 'GET':
        router.get(e.path, wrapped);
        break;
      case 'POST':
        router.post(e.path, wrapped);
        break;
      case 'PUT':
        router.put(e.path, wrapped);
        break;
      case 'PATCH':
        router.patch(e.path, wrapped);
        break;
      case 'DELETE':
        router.delete(e.path, wrapped);
        break;
    }
  }
}

/** A parameter given once: its value; the last one when it is repeated. Lists: `queryList` (query.ts). */
export function queryValue(ctx: ApiContext, name: string): string | undefined {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  return Array.isArray(raw) ? raw[raw.length - 1] : raw;
}
