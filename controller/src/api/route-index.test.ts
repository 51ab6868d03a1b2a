import test from 'ava';
import Router from '@koa/router';
import { indexRoutes } from './route-index.js';

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
