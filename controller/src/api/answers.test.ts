import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import test from 'ava';
import Koa from 'koa';
import { JsonLogger, MemorySink } from '@platform/proto/common';
import { NotFoundError } from '../errors.js';
import { createControllerMetrics } from '../telemetry/controller-metrics.js';
import { randomIds } from '../util/ids.js';
import { mountEndpoints, sendJson, sendJsonText, v1, type ApiState, type Endpoint } from './endpoint.js';
import { edge, InFlight } from './middleware.js';
import { dispatchRoutes, indexRoutes } from './route-index.js';

/** The API's edge and routing (as server.ts composes them) with `endpoints`, on loopback. */
async function serve(t: { teardown: (f: () => Promise<void>) => void }, endpoints: Endpoint[]): Promise<string> {
  const app = new Koa<ApiState>();
  app.silent = true;
  const router = indexRoutes(new Router<ApiState>());
  mountEndpoints(router, endpoints);
  app.use(edge({ log: new JsonLogger(new MemorySink(), 'info'), ids: randomIds, minimumClientVersion: '0.1.0', inFlight: new InFlight(), metrics: createControllerMetrics() }));
  app.use(dispatchRoutes(router));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const thing = v1('thing');

test('answers: JSON answers keep their status and headers; an error after one is the answer; a body set after one wins', async (t) => {
  const base = await serve(t, [
    {
      method: 'POST',
      path: '/things',
      media: thing,
      handler: async (ctx) => {
        ctx.set('Location', '/things/1');
        sendJson(ctx, thing, { made: true }, 201);
      },
    },
    {
      method: 'GET',
      path: '/things/broken',
      media: thing,
      handler: async (ctx) => {
        sendJsonText(ctx, thing, '{"half":true}');
        throw new NotFoundError('thing broken not found');
      },
    },
    {
      method: 'GET',
      path: '/things/replaced',
      media: thing,
      handler: async (ctx) => {
        sendJsonText(ctx, thing, '{"first":true}');
        ctx.set('Content-Type', 'text/plain');
        ctx.body = 'second';
      },
    },
  ]);
  const made = await fetch(`${base}/v1/things`, { method: 'POST' });
  t.is(made.status, 201);
  t.is(made.headers.get('location'), '/things/1');
  t.is(made.headers.get('content-type'), 'application/vnd.platform.thing;version=1');
  t.deepEqual(await made.json(), { made: true });
  const broken = await fetch(`${base}/v1/things/broken`);
  t.is(broken.status, 404);
  const error = (await broken.json()) as { code: number; message: string };
  t.is(error.code, 404);
  t.regex(error.message, /thing broken not found/);
  const replaced = await fetch(`${base}/v1/things/replaced`);
  t.is(replaced.status, 200);
  t.is(await replaced.text(), 'second');
  t.regex(replaced.headers.get('content-type') ?? '', /^text\/plain/);
});
