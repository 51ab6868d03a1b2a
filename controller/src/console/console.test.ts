import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import Koa from 'koa';
import { JsonLogger, MemorySink } from '@platform/proto/common';
import { Controller } from '../controller.js';
import { createControllerMetrics } from '../telemetry/controller-metrics.js';
import { toApiError } from '../api/api-error.js';
import type { ApiState } from '../api/endpoint.js';
import { consoleSite, CONSOLE_CSP } from './console-site.js';

const PASSWORD = 'test-password';

async function start(t: ExecutionContext) {
  const dir = await mkdtemp(join(tmpdir(), 'console-test-'));
  const controller = await Controller.start({
    dataDir: join(dir, 'data'),
    listen: { host: '127.0.0.1', port: 0 },
    grpcListen: { host: '127.0.0.1', port: 0 },
    routerListen: { host: '127.0.0.1', port: 0 },
    adminPassword: PASSWORD,
    sync: false,
    builtins: false,
    log: new JsonLogger(new MemorySink(), 'info'),
    metrics: createControllerMetrics(),
  });
  t.teardown(async () => {
    await controller.stop();
    await rm(dir, { recursive: true, force: true });
  });
  return controller;
}

async function token(url: string, user: string, password: string): Promise<string> {
  const res = await fetch(`${url}/v1/oauth2/token`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } });
  return ((await res.json()) as { access_token: string }).access_token;
}

test('console site: / sends browsers to /console/, the page names the router and its hashed assets, which are cached for a year; nothing else is served', async (t) => {
  const controller = await start(t);
  const url = controller.url;
  const root = await fetch(`${url}/`, { headers: { accept: 'text/html,application/xhtml+xml' }, redirect: 'manual' });
  t.is(root.status, 302);
  t.is(root.headers.get('location'), '/console/');
  const json = await fetch(`${url}/`);
  t.deepEqual(await json.json(), { console: '/console/', openapi: '/v1/openapi.json' });
  const bare = await fetch(`${url}/console`, { redirect: 'manual' });
  t.is(bare.status, 302);
  t.is(bare.headers.get('location'), '/console/');

  const page = await fetch(`${url}/console/`);
  t.is(page.status, 200, 'served without a token');
  t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.is(page.headers.get('cache-control'), 'no-cache');
  t.is(page.headers.get('content-security-policy'), CONSOLE_CSP);
  t.is(page.headers.get('x-content-type-options'), 'nosniff');
  const html = await page.text();
  t.true(html.includes(`<meta name="platform-router" content="${controller.router!.address}">`), html);
  const script = /src="assets\/(main-[A-Z0-9]+\.js)"/.exec(html)?.[1];
  const styles = /href="assets\/(styles-[A-Z0-9]+\.css)"/.exec(html)?.[1];
  t.truthy(script, 'index.html names the bundle');
  t.truthy(styles, 'index.html names the styles');
  for (const [name, type] of [[script, 'text/javascript; charset=utf-8'], [styles, 'text/css; charset=utf-8']] as const) {
    const asset = await fetch(`${url}/console/assets/${name}`);
    t.is(asset.status, 200, name);
    t.is(asset.headers.get('content-type'), type);
    t.is(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    t.true((await asset.arrayBuffer()).byteLength > 1000);
  }
  for (const path of ['/console/assets/nope.js', '/console/assets/..%2Findex.html', '/console/assets/.hidden.js', '/console/other', '/console/assets/main.exe']) {
    const res = await fetch(`${url}${path}`);
    t.is(res.status, 404, path);
    t.is(((await res.json()) as { resource_missing: boolean }).resource_missing, true, path);
  }
  const post = await fetch(`${url}/console/`, { method: 'POST' });
  t.is(post.status, 405);
  t.is(post.headers.get('allow'), 'GET');
});

test('console site: without a build, the page answers 503 saying how to build it', async (t) => {
  const app = new Koa<ApiState>();
  app.silent = true;
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const mapped = toApiError(err, 'r1');
      ctx.status = mapped.status;
      ctx.body = mapped.body;
    }
  });
  app.use(consoleSite({ dir: join(tmpdir(), 'no-console-here'), routerAddress: () => undefined }).serve);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const { port } = server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}/console/`);
  t.is(res.status, 503);
  t.regex(((await res.json()) as { message: string }).message, /the web console is not built here: run `npm run build`/);
});

test('permissions: what the caller holds on each FQN, by its realm type; a token is needed; bad questions are refused', async (t) => {
  const controller = await start(t);
  const url = controller.url;
  const admin = await token(url, 'admin', PASSWORD);
  const ask = (tok: string | undefined, ...fqns: string[]) =>
    fetch(`${url}/v1/permissions?${fqns.map((f) => `fqn=${encodeURIComponent(f)}`).join('&')}`, { headers: tok ? { authorization: `Bearer ${tok}` } : {} });
  t.is((await ask(undefined, 'job::/x::y')).status, 401);
  const all = await ask(admin, 'job::/x::y', 'audit::/');
  t.is(all.status, 200);
  t.is(all.headers.get('content-type'), 'application/vnd.platform.permissions;version=1');
  t.deepEqual(await all.json(), {
    'job::/x::y': ['create', 'read', 'update', 'delete', 'start', 'stop', 'map', 'ssh', 'link', 'promote', 'bind'],
    'audit::/': ['read'],
  });
  const created = await fetch(`${url}/v1/users/bob`, { method: 'PUT', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ password: 'bob password long' }) });
  t.is(created.status, 200);
  const bob = await token(url, 'bob', 'bob password long');
  const mine = await ask(bob, 'job::/sandbox/bob::web', 'job::/sandbox/alice::web', 'package::/platform::x', 'audit::/', 'auth::/');
  t.deepEqual(await mine.json(), {
    'job::/sandbox/bob::web': ['create', 'read', 'update', 'delete', 'start', 'stop', 'map', 'ssh', 'link', 'promote', 'bind'],
    'job::/sandbox/alice::web': [],
    'package::/platform::x': ['read', 'use'],
    'audit::/': [],
    'auth::/': ['issue'],
  });
  for (const bad of [['nope::/x'], ['job'], ['job::x'], []]) {
    const res = await ask(bob, ...bad);
    t.is(res.status, 400, JSON.stringify(bad));
  }
  const many = await ask(bob, ...Array.from({ length: 101 }, (_x, i) => `job::/sandbox/bob::j${i}`));
  t.is(many.status, 400);
  t.regex(((await many.json()) as { message: string }).message, /at most 100 FQNs/);
});
