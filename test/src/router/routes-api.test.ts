/**
 * Routes in the API: routes in job ports on create and PUT, default routes of apps, the route
 * listings, policy (`permit map` on `route::/http/<reversed domain>`), the audit records, and every
 * bad route refused with an APIError that changes nothing.
 */
import test from 'ava';
import type { ApiErrorBody, AuditLogItem, Job } from '@platform/controller';
import { appJob, unique } from '../harness/fixtures.js';
import { useController } from '../harness/suite.js';

const suite = useController(test, { args: ['--domain', 'example.test'] });

const b64 = (s: string) => Buffer.from(s).toString('base64url');

async function createWithRoutes(routes: unknown[], ns = '/sandbox/admin', extra: Record<string, unknown> = {}) {
  return suite.api().post<Job & ApiErrorBody>('/jobs', appJob(`job::${ns}::${unique('r')}`, { ports: [{ number: 0, routes }], ...extra }));
}

test('routes: a job routed at a host is listed in GET /jobs/routes and GET /jobs/routes/{endpoint}', async (t) => {
  const host = `${unique('h')}.example.test`;
  const created = await createWithRoutes([{ type: 'http', endpoint: host.toUpperCase(), weight: 50 }]);
  t.is(created.status, 200, created.text);
  t.deepEqual(created.body.ports[0]!.routes, [{ type: 'http', endpoint: host, weight: 50 }], 'the host is kept in lower case');
  const map = await suite.api().get<Record<string, string[]>>('/jobs/routes');
  t.is(map.status, 200);
  t.regex(map.headers.get('content-type') ?? '', /routemap/);
  t.deepEqual(map.body[host], [created.body.uuid]);
  const one = await suite.api().get<Record<string, string[]>>(`/jobs/routes/${b64(host)}`);
  t.is(one.status, 200, one.text);
  t.deepEqual(one.body, { [host]: [created.body.uuid] });
  t.is((await suite.api().get(`/v1/jobs/routes/${b64(host)}`)).status, 200, 'with /v1 too');
  t.is((await suite.api().get(`/jobs/routes/${b64('nobody.example.test')}`)).status, 404);
  const bad = await suite.api().get<ApiErrorBody>('/jobs/routes/not+base64!');
  t.is(bad.status, 400, bad.text);

  // Two jobs of one namespace share a host (weights split it); the listing names both.
  const second = await createWithRoutes([{ type: 'http', endpoint: host }]);
  t.is(second.status, 200, second.text);
  const shared = await suite.api().get<Record<string, string[]>>(`/jobs/routes/${b64(host)}`);
  t.deepEqual(shared.body[host], [created.body.uuid, second.body.uuid].sort());

  // A PUT that removes the route takes it out of the listing.
  const put = await suite.api().put<Job>(`/jobs/${second.body.uuid}`, { ...second.body, ports: [{ number: 0, routes: [] }] });
  t.is(put.status, 200, put.text);
  t.deepEqual((await suite.api().get<Record<string, string[]>>(`/jobs/routes/${b64(host)}`)).body[host], [created.body.uuid]);
});

test('routes: an app port with auto_provision gets <name>-<6 random>.<domain>, kept across PUTs', async (t) => {
  const name = unique('my.app');
  const created = await suite.api().post<Job>('/jobs', appJob(`job::/sandbox/admin::${name}`, { ports: [{ number: 0, routes: [{ type: 'http', auto_provision: true }] }] }));
  t.is(created.status, 200, created.text);
  const route = created.body.ports[0]!.routes[0]!;
  t.regex(route.endpoint, new RegExp(`^${name.replace(/\./g, '')}-[a-z0-9]{6}\\.example\\.test$`));
  t.true(route.auto_provision);
  // The client sends back what it asked for: the default route stays the same, nothing changes.
  const again = await suite.api().put<Job>(`/jobs/${created.body.uuid}`, {
    ...created.body,
    ports: [{ number: 0, routes: [{ type: 'http', auto_provision: true }] }],
  });
  t.is(again.status, 200, again.text);
  t.is(again.body.ports[0]!.routes[0]!.endpoint, route.endpoint);
  t.is(again.body.version_id, created.body.version_id);
  // A job that is not an app gets no default route.
  const notApp = await suite.api().post<ApiErrorBody>('/jobs', {
    fqn: `job::/sandbox/admin::${unique('na')}`,
    ports: [{ number: 0, routes: [{ type: 'http', auto_provision: true }] }],
  });
  t.is(notApp.status, 400, notApp.text);
});

test('routes: adding and removing routes is audited as job.addroute and job.removeroute with patches', async (t) => {
  const host = `${unique('a')}.example.test`;
  const created = await createWithRoutes([]);
  t.is(created.status, 200, created.text);
  const added = await suite.api().put<Job>(`/jobs/${created.body.uuid}`, { ...created.body, ports: [{ number: 0, routes: [{ type: 'http', endpoint: host }] }] });
  t.is(added.status, 200, added.text);
  const removed = await suite.api().put<Job>(`/jobs/${created.body.uuid}`, { ...added.body, ports: [{ number: 0, routes: [] }] });
  t.is(removed.status, 200, removed.text);
  const items = (await suite.api().get<AuditLogItem[]>(`/audit?fqn=${encodeURIComponent(created.body.fqn)}&limit=50`)).body;
  const add = items.find((i) => i.event_type === 'job.addroute');
  const remove = items.find((i) => i.event_type === 'job.removeroute');
  t.truthy(add, JSON.stringify(items));
  t.truthy(remove);
  t.like(add!.audit_payload, { patches: [{ op: 'add', path: 'job/ports/0/routes/0', value: { type: 'http', endpoint: host } }] });
  t.like(remove!.audit_payload, { patches: [{ op: 'remove', path: 'job/ports/0/routes/0', value: { type: 'http', endpoint: host } }] });
});

test('routes: every bad route is refused with 400 or 409 and changes nothing', async (t) => {
  const api = suite.api();
  const taken = `${unique('t')}.example.test`;
  const owner = await createWithRoutes([{ type: 'http', endpoint: taken }]);
  t.is(owner.status, 200, owner.text);
  const victim = await createWithRoutes([]);
  t.is(victim.status, 200);
  const before = (await api.get<Job>(`/jobs/${victim.body.uuid}`)).body;
  const cases: [string, unknown[], number][] = [
    ['wrong type', [{ type: 'ftp', endpoint: 'x.example.test' }], 400],
    ['no endpoint', [{ type: 'http' }], 400],
    ['not a host name', [{ type: 'http', endpoint: 'bad_host!.example.test' }], 400],
    ['a URL, not a host', [{ type: 'http', endpoint: 'http://x.example.test' }], 400],
    ['a host with a port', [{ type: 'http', endpoint: 'x.example.test:80' }], 400],
    ['an address', [{ type: 'http', endpoint: '10.0.0.1' }], 400],
    ['a label too long', [{ type: 'http', endpoint: `${'a'.repeat(64)}.example.test` }], 400],
    ['a dot-dot path', [{ type: 'http', endpoint: 'x.example.test/../admin' }], 400],
    ['negative weight', [{ type: 'http', endpoint: 'x.example.test', weight: -1 }], 400],
    ['weight over 100', [{ type: 'http', endpoint: 'x.example.test', weight: 101 }], 400],
    ['endpoint not a string', [{ type: 'http', endpoint: 7 }], 400],
    ['the same route twice', [{ type: 'http', endpoint: 'x.example.test' }, { type: 'http', endpoint: 'X.example.test' }], 400],
  ];
  for (const [what, routes, status] of cases) {
    const put = await api.put<ApiErrorBody>(`/jobs/${victim.body.uuid}`, { ...before, ports: [{ number: 0, routes }] });
    t.is(put.status, status, `${what}: ${put.text}`);
    t.truthy(put.body.message, what);
    const post = await createWithRoutes(routes);
    t.is(post.status, status, `${what} (create): ${post.text}`);
  }
  // A host that jobs of another namespace route at: 409, on create and on PUT.
  const otherNs = await createWithRoutes([{ type: 'http', endpoint: taken }], `/dev/${unique('ns')}`);
  t.is(otherNs.status, 409, otherNs.text);
  const otherNsPath = await createWithRoutes([{ type: 'http', endpoint: `${taken}/api` }], `/dev/${unique('ns')}`);
  t.is(otherNsPath.status, 409, 'a path on the host is the host owner\'s too');
  const otherJob = await createWithRoutes([], `/dev/${unique('ns')}`);
  const stolen = await api.put<ApiErrorBody>(`/jobs/${otherJob.body.uuid}`, { ...otherJob.body, ports: [{ number: 0, routes: [{ type: 'http', endpoint: taken }] }] });
  t.is(stolen.status, 409, stolen.text);
  t.true(stolen.body.request_invalid);
  const after = (await api.get<Job>(`/jobs/${victim.body.uuid}`)).body;
  t.deepEqual(after, before, 'the refused PUTs changed nothing');
  t.deepEqual((await api.get<Job>(`/jobs/${otherJob.body.uuid}`)).body.ports, otherJob.body.ports);
  t.deepEqual((await api.get<Record<string, string[]>>(`/jobs/routes/${b64(taken)}`)).body[taken], [owner.body.uuid]);
});

test('routes: mapping a route needs permit map on route::/http/<reversed domain>', async (t) => {
  const admin = suite.api();
  const user = unique('u');
  const client = await admin.createUser(user, 'password-of-user');
  const host = `${unique('p')}.example.test`;
  const job = appJob(`job::/sandbox/${user}::${unique('j')}`, { ports: [{ number: 0, routes: [{ type: 'http', endpoint: host }] }] });
  const denied = await client.post<ApiErrorBody>('/jobs', job);
  t.is(denied.status, 403, denied.text);
  t.regex(denied.text, new RegExp(`permit map on route::/http/test/example/${host.split('.')[0]}`));
  // The job without the route is the user's to make; adding the route is refused the same way.
  const plain = await client.post<Job>('/jobs', { ...job, ports: [{ number: 0 }] });
  t.is(plain.status, 200, plain.text);
  const put = await client.put<ApiErrorBody>(`/jobs/${plain.body.uuid}`, { ...plain.body, ports: [{ number: 0, routes: [{ type: 'http', endpoint: host }] }] });
  t.is(put.status, 403, put.text);
  // A grant on the domain lets the user map any name in it.
  const policy = await admin.put('/v1/policy', {
    docs: [{ name: unique('routes'), for_version: 0, text: `route::/http/test/example { if (auth_server@platform->name == "${user}") { permit map } }` }],
  });
  t.is(policy.status, 200, policy.text);
  const allowed = await client.put<Job>(`/jobs/${plain.body.uuid}`, { ...plain.body, ports: [{ number: 0, routes: [{ type: 'http', endpoint: host }] }] });
  t.is(allowed.status, 200, allowed.text);
  // Listings show only the jobs the caller may read.
  const other = await client.get<Record<string, string[]>>('/jobs/routes');
  t.deepEqual(other.body[host], [plain.body.uuid]);
  t.true(Object.values(other.body).flat().every((uuid) => uuid === plain.body.uuid));
});
