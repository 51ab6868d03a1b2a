/**
 * The OpenAPI 3.1 document of the REST API (GET /openapi.json), generated from the endpoints
 * as they are mounted: every served method and path appears, request bodies are described by
 * the zod schemas the handlers validate with (z.toJSONSchema, the input side), answers by the
 * endpoint's media type and, where declared, its response schema; every operation may answer
 * the APIError body. Paths are written with the `/v1` prefix; each works without it too.
 */
import { z } from 'zod';
import type { Endpoint } from './endpoint.js';
import { formatMedia, PLAIN_JSON } from './media.js';

/** The APIError body (spec: Errors), the `default` answer of every operation. */
export const apiErrorSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  request_id: z.string(),
  client_side: z.boolean(),
  duplicate_key: z.boolean(),
  fatal: z.boolean(),
  request_invalid: z.boolean(),
  requires_restart: z.boolean(),
  resource_missing: z.boolean(),
  retry: z.boolean(),
  token_invalid: z.boolean(),
  try_again_in_ms: z.number().optional(),
  missing_claims: z.array(z.string()).optional(),
  error_details: z.record(z.string(), z.unknown()).optional(),
});

type JsonSchema = Record<string, unknown>;

export interface OpenApiInfo {
  title: string;
  version: string;
  /** Endpoints outside the Endpoint list (the Prometheus scrape). */
  extra?: readonly Endpoint[];
}

/** JSON Schema of a zod schema: what a client sends (`input`) or receives (`output`). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

/** `/jobs/:uuid/files/*path` -> `/v1/jobs/{uuid}/files/{path}` and its parameter names. */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: `/v1${converted}`, params };
}

function operationId(method: string, path: string): string {
  const words = path
    .replace(/\{([^}]+)\}/g, 'by $1')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '' && w !== 'v1');
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

const UUID_PARAMS = new Set(['uuid', 'resource', 'instance']);

export function buildOpenApi(endpoints: readonly Endpoint[], info: OpenApiInfo): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorMedia = { [formatMedia('apierror', 1)]: { schema: { $ref: '#/components/schemas/APIError' } }, 'application/json': { schema: { $ref: '#/components/schemas/APIError' } } };
  for (const e of [...endpoints, ...(info.extra ?? [])]) {
    const { path, params } = openApiPath(e.path);
    const doc = e.doc ?? {};
    const operation: Record<string, unknown> = {
      operationId: operationId(e.method, path),
      ...(doc.summary ? { summary: doc.summary } : {}),
      ...(doc.public ? { security: [] } : {}),
    };
    const parameters: unknown[] = params.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: UUID_PARAMS.has(name) ? { type: 'string', format: 'uuid' } : { type: 'string' },
    }));
    for (const [name, description] of Object.entries(doc.query ?? {})) parameters.push({ name, in: 'query', required: false, description, schema: { type: 'string' } });
    if (parameters.length > 0) operation['parameters'] = parameters;
    if (doc.body) {
      const schema = jsonSchemaOf(doc.body, 'input');
      const media = doc.bodyMedia ?? ['application/json'];
      operation['requestBody'] = { required: true, content: Object.fromEntries(media.map((m) => [m, { schema }])) };
    } else if (doc.bodyMedia) {
      operation['requestBody'] = { required: true, content: Object.fromEntries(doc.bodyMedia.map((m) => [m, {}])) };
    }
    // The input side of a response schema: an object's fields beyond those it names are allowed
    // (the output side of z.object forbids them), which is what a client must expect of answers.
    const responseSchema = doc.response ? jsonSchemaOf(doc.response, 'input') : {};
    let content: Record<string, unknown> | undefined;
    if (e.media) {
      content = Object.fromEntries([...e.media.versions.map((v) => formatMedia(e.media!.type, v)), PLAIN_JSON].map((m) => [m, { schema: responseSchema }]));
    } else if (doc.responseMedia) {
      content = Object.fromEntries(doc.responseMedia.map((m) => [m, m.includes('json') ? { schema: responseSchema } : {}]));
    } else if (doc.response) {
      content = { [PLAIN_JSON]: { schema: responseSchema } };
    }
    operation['responses'] = {
      [String(doc.status ?? 200)]: { description: doc.summary ?? 'success', ...(content ? { content } : {}) },
      default: { description: 'APIError', content: errorMedia },
    };
    (paths[path] ??= {})[e.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'from POST /v1/oauth2/token' } },
      schemas: { APIError: jsonSchemaOf(apiErrorSchema, 'output') },
    },
  };
}

/** GET /openapi.json: the document of `endpoints` (given late: it lists itself). */
export function openApiEndpoint(endpoints: () => readonly Endpoint[], info: OpenApiInfo): Endpoint {
  let text: string | undefined;
  return {
    method: 'GET',
    path: '/openapi.json',
    doc: { summary: 'This document: the OpenAPI 3.1 description of the REST API', public: true, responseMedia: [PLAIN_JSON] },
    handler: async (ctx) => {
      text ??= JSON.stringify(buildOpenApi(endpoints(), info));
      ctx.status = 200;
      ctx.set('Content-Type', PLAIN_JSON);
      ctx.body = text;
    },
  };
}
