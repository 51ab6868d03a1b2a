import test from 'ava';
import Router from '@koa/router';
import { dispatchRoutes, indexRoutes } from './route-index.js';

const ROUTES: [string, string][] = [
  ['get', '/jobs'],
  ['post', '/jobs'],
  ['get', '/jobs/health'],
  ['get', '/jobs/:uuid'],
  ['put', '/jobs/:uuid'],
  ['delete', '/jobs/:uuid/instances/:instance'],
  ['get', '/:kind/:uuid/logs'],
  ['get', '/packages/:uuid'],
  ['get', '/'],
  ['get', '/v1'],
  ['get', '/stager/:token/manifest'],
  ['get', '/Info'],
  ['get', '/files/*rest'],
  ['get', '/a.b/c'],
];

function routers(): [Router, Router] {
  const plain = new Router();
  const indexed = indexRoutes(new Router());
  for (const [method, path] of ROUTES) {
    for (const r of [plain, indexed]) (r as unknown as Record<string, (p: string, h: () => void) => void>)[method]!.call(r, path, () => undefined);
  }
  return [plain, indexed];
}

const summary = (m: ReturnType<Router['match']>) => ({
  route: m.route,
  path: m.path.map((l) => `${l.methods.join(',')} ${String(l.path)}`),
  pathAndMethod: m.pathAndMethod.map((l) => `${l.methods.join(',')} ${String(l.path)}`),
});

test('route index: finds the same routes as the router testing every route', (t) => {
  const [plain, indexed] = routers();
  const paths = [
    '/jobs', '/jobs/', '/JOBS', '/Jobs/health', '/jobs/health/', '/jobs/0e3f', '/jobs/0e3f/logs', '/jobs/x/instances/y',
    '/packages/1', '/packages/1/logs', '/stager/t/manifest', '/info', '/INFO', '/', '', '//jobs', '/v1', '/files/a/b',
    '/a.b/c', '/nothing/here', '/jo%62s', '/jobs?x=1', 'jobs',
  ];
  for (const path of paths) {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH']) {
      t.deepEqual(summary(indexed.match(path, method)), summary(plain.match(path, method)), `${method} ${path}`);
    }
  }
});

test('route index: routes added after the first request are found', (t) => {
  const [plain, indexed] = routers();
  t.false(indexed.match('/later', 'GET').route);
  for (const r of [plain, indexed]) r.get('/later', () => undefined);
  t.true(indexed.match('/later', 'GET').route);
  t.deepEqual(summary(indexed.match('/jobs/1', 'GET')), summary(plain.match('/jobs/1', 'GET')));
});

test('route index: a remembered answer is the router\'s, and what a caller does to it does not change the next one', (t) => {
  const [plain, indexed] = routers();
  for (let i = 0; i < 3; i++) {
    const answer = indexed.match('/jobs/0e3f', 'GET');
    t.deepEqual(summary(answer), summary(plain.match('/jobs/0e3f', 'GET')), `request ${i + 1}`);
    answer.path.push(answer.path[0]!);
    answer.pathAndMethod.length = 0;
  }
  const long = `/jobs/${'x'.repeat(300)}`;
  t.deepEqual(summary(indexed.match(long, 'GET')), summary(plain.match(long, 'GET')), 'a path too long to remember');
});

test('route dispatch: the handler runs with the params the router\'s own middleware gives; other cases go through the router', async (t) => {
  const Koa = (await import('koa')).default;
  const seen = (router: Router) => {
    const calls: string[] = [];
    router.get('/jobs/:uuid', (ctx) => void calls.push(`one ${JSON.stringify(ctx.params)} ${(ctx as unknown as { routerPath: string }).routerPath}`));
    router.get('/files/*rest', (ctx) => void calls.push(`rest ${JSON.stringify(ctx.params)}`));
    // Two layers for one path: the router composes them; both must run, in order.
    router.get('/two/:x', async (ctx, next) => {
      calls.push(`first ${ctx.params['x']}`);
      await next();
    }, (ctx) => void calls.push(`second ${ctx.params['x']}`));
    router.all('/any/:y', (ctx) => void calls.push(`all ${ctx.params['y']}`));
    return calls;
  };
  const plain = new Router();
  const indexed = indexRoutes(new Router());
  const plainCalls = seen(plain);
  const indexedCalls = seen(indexed);
  const app = new Koa();
  const cases: [string, string][] = [['GET', '/jobs/abc'], ['HEAD', '/jobs/a%20b'], ['GET', '/files/a/b/c'], ['GET', '/two/7'], ['DELETE', '/any/z'], ['GET', '/nothing'], ['POST', '/jobs/abc']];
  for (const [method, url] of cases) {
    let fellThrough = 0;
    for (const mw of [plain.routes(), dispatchRoutes(indexed)]) {
      const ctx = app.createContext({ method, url, headers: {}, socket: {} } as never, {} as never);
      await (mw as unknown as (c: unknown, n: () => Promise<void>) => Promise<void>)(ctx, async () => void fellThrough++);
    }
    t.deepEqual(indexedCalls, plainCalls, `${method} ${url}`);
    t.true(fellThrough === 0 || fellThrough === 2, `${method} ${url}: unmatched by both or by neither`);
  }
  t.true(plainCalls.length >= 5, 'the cases did reach handlers');
});
