import Router from '@koa/router';
import test from 'ava';
import type { ApiState, Endpoint } from './endpoint.js';
import { LEGACY_NAMES, mountSpecPaths, NOT_SERVED, specPath, type NotServed } from './spec-paths.js';

const handler = async () => undefined;

test('spec paths: every legacy name resolves, and the tables mount beside the served endpoints', (t) => {
  const served: Endpoint[] = [
    { method: 'GET', path: '/audit', handler },
    // Another parameter name than the legacy name's target: the same path.
    { method: 'GET', path: '/cli/download/:name', handler },
    { method: 'POST', path: '/jobs/container', handler },
  ];
  t.notThrows(() => mountSpecPaths(new Router<ApiState>(), served));
  for (const l of LEGACY_NAMES) t.true(l.target !== undefined || l.capability !== undefined, l.path);
  t.is(specPath('/jobs/:uuid/logs/drains/:drain'), '/jobs/{uuid}/logs/drains/{drain}');
});

test('spec paths: a row of NOT_SERVED that is served now stops the start, whatever its parameter names', (t) => {
  // Every path of the specification is served today: a row as the next one would be.
  const rows: NotServed[] = [...NOT_SERVED, { method: 'GET', path: '/things/:uuid', capability: 'things' }];
  const row = rows.find((n) => n.path.includes(':'))!;
  const served: Endpoint = { method: row.method, path: row.path.replace(/:(\w+)/g, ':x$1'), handler };
  // The legacy names' targets.
  const targets: Endpoint[] = ['/audit', '/cli/download/:platform'].map((path) => ({ method: 'GET', path, handler }));
  targets.push({ method: 'POST', path: '/jobs/container', handler });
  const err = t.throws(() => mountSpecPaths(new Router<ApiState>(), [...targets, served], rows));
  t.regex(err.message, /is served now: remove its row from NOT_SERVED/);
  t.notThrows(() => mountSpecPaths(new Router<ApiState>(), targets, rows));
});

test('spec paths: a legacy name whose target is neither served nor listed stops the start', (t) => {
  const err = t.throws(() => mountSpecPaths(new Router<ApiState>(), []));
  t.regex(err.message, /the target GET \/audit of GET \/audit_logs is neither served nor in NOT_SERVED/);
});
