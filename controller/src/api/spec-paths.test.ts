import Router from '@koa/router';
import test from 'ava';
import type { ApiState, Endpoint } from './endpoint.js';
import { LEGACY_NAMES, mountSpecPaths, NOT_SERVED, specPath } from './spec-paths.js';

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
  // A row with a parameter when one is left (they are served one after another), else any row.
  const row = NOT_SERVED.find((n) => n.path.includes(':')) ?? NOT_SERVED[0]!;
  const served: Endpoint = { method: row.method, path: row.path.replace(/:(\w+)/g, ':x$1'), handler };
  const err = t.throws(() => mountSpecPaths(new Router<ApiState>(), [{ method: 'GET', path: '/audit', handler }, served]));
  t.regex(err.message, /is served now: remove its row from NOT_SERVED/);
});

test('spec paths: a legacy name whose target is neither served nor listed stops the start', (t) => {
  const err = t.throws(() => mountSpecPaths(new Router<ApiState>(), []));
  t.regex(err.message, /the target GET \/audit of GET \/audit_logs is neither served nor in NOT_SERVED/);
});
