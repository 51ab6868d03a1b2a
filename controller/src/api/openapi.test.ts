import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { JsonLogger, MemorySink } from '@platform/proto/common';
import { z } from 'zod';
import { Controller } from '../controller.js';
import { createControllerMetrics } from '../telemetry/controller-metrics.js';
import { buildOpenApi, openApiPath } from './openapi.js';

test('openapi: every route the controller serves is in GET /openapi.json, and every operation there is served', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-test-'));
  const controller = await Controller.start({
    dataDir: join(dir, 'data'),
    listen: { host: '127.0.0.1', port: 0 },
    grpcListen: { host: '127.0.0.1', port: 0 },
    routerListen: 'none',
    adminPassword: 'test-password',
    sync: false,
    builtins: false,
    log: new JsonLogger(new MemorySink(), 'info'),
    metrics: createControllerMetrics(),
  });
  t.teardown(async () => {
    await controller.stop();
    await rm(dir, { recursive: true, force: true });
  });
  // Open to anyone: no token.
  const res = await fetch(`${controller.url}/v1/openapi.json`);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
  t.is(doc.openapi, '3.1.0');
  const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
  const served = new Set(controller.servedRoutes().map((r) => `${r.method} ${openApiPath(r.path).path}`));
  t.true(served.size > 50, `the router lists ${served.size} routes`);
  t.deepEqual([...served].filter((r) => !documented.has(r)), [], 'served but not documented');
  t.deepEqual([...documented].filter((r) => !served.has(r)), [], 'documented but not served');
});

test('openapi: a request body is described by the schema the endpoint validates with, errors by APIError', (t) => {
  const body = z.object({ name: z.string().max(8), count: z.number().int().min(1).optional() });
  const doc = buildOpenApi(
    [{ method: 'POST', path: '/things/:uuid', media: { type: 'thing', versions: [1] }, handler: async () => undefined, doc: { summary: 'makes a thing', body } }],
    { title: 't', version: '1' },
  ) as { paths: Record<string, Record<string, Record<string, unknown>>> };
  const op = doc.paths['/v1/things/{uuid}']!['post']!;
  t.deepEqual((op['requestBody'] as { content: Record<string, { schema: unknown }> }).content['application/json']!.schema, {
    type: 'object',
    properties: { name: { type: 'string', maxLength: 8 }, count: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
    required: ['name'],
  });
  const responses = op['responses'] as Record<string, { content: Record<string, unknown> }>;
  t.truthy(responses['200']!.content['application/vnd.platform.thing;version=1']);
  t.deepEqual(Object.keys(responses['default']!.content), ['application/vnd.platform.apierror;version=1', 'application/json']);
  t.deepEqual((op['parameters'] as { name: string }[]).map((p) => p.name), ['uuid']);
});
