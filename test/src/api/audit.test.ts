import test from 'ava';
import type { ApiErrorBody, AuditLogItem, Job } from '@platform/controller';
import { appJob, unique } from '../harness/fixtures.js';
import { ApiClient, type Reply } from '../harness/http.js';
import { createPackage } from '../harness/packages.js';
import { useController } from '../harness/suite.js';

const suite = useController(test);

type Item = AuditLogItem & { audit_payload: { patches?: { op: string; path: string; value?: unknown; oldvalue?: unknown }[] } };

const audit = (query: string) => suite.api().get<Item[]>(`/audit?${query}`);

test('audit: job changes are recorded with the spec fields and patch payloads', async (t) => {
  const api = suite.api();
  const ns = `/audit/${unique()}`;
  const pkg = await createPackage(api, ns, { upload: true });
  const before = Math.floor(Date.now() / 1000);
  const job = (await api.post<Job>('/jobs', appJob(`job::${ns}::web`, { packages: [{ uuid: pkg.uuid }] }))).body;
  const scaled = (await api.put<Job>(`/jobs/${job.uuid}`, { ...job, num_instances: 3 })).body;
  await api.put(`/jobs/${job.uuid}`, { ...scaled, state: 'started' });
  await api.put(`/jobs/${job.uuid}`, { ...scaled, state: 'stopped' });
  await api.delete(`/jobs/${job.uuid}`);

  const items = (await audit(`fqn=job::${ns}::web&reverse`)).body;
  t.deepEqual(
    items.map((i) => i.event_type),
    ['job.create', 'job.update', 'job.update', 'job.start', 'job.update', 'job.stop', 'job.delete'],
  );
  const update = items[1]!;
  t.is(update.event_type_int, 2);
  t.is(items[3]!.event_type_int, 8);
  t.is(update.fqn, job.fqn);
  t.is(update.resource_type, 'job');
  t.is(update.namespace, ns);
  t.is(update.localname, 'web');
  t.is(update.principal_name, 'admin@platform.local');
  t.is(update.on_behalf_of, 'admin@platform.local');
  t.regex(update.uuid, /^[0-9a-f-]{36}$/);
  t.true(update.timestamp >= before && update.timestamp <= Math.ceil(Date.now() / 1000));
  const patches = update.audit_payload.patches!;
  t.deepEqual(patches.find((p) => p.path === 'job/num_instances'), { op: 'replace', path: 'job/num_instances', value: 3, oldvalue: 1 });
  t.deepEqual(patches.find((p) => p.path === 'job/version_id'), { op: 'replace', path: 'job/version_id', value: 2, oldvalue: 1 });
  t.truthy(patches.find((p) => p.path === 'job/updated_at' && p.op === 'replace'));
  t.is(patches.length, 3);

  // Most recent first by default.
  t.deepEqual((await audit(`fqn=job::${ns}::web`)).body.map((i) => i.event_type)[0], 'job.delete');
});

test('audit: refused changes leave no record; packages, pipelines and logins are recorded', async (t) => {
  const api = suite.api();
  const ns = `/audit/${unique()}`;
  const fqn = `job::${ns}::once`;
  await api.post('/jobs', { fqn });
  t.is((await api.post('/jobs', { fqn })).status, 409);
  t.is((await api.post('/jobs', { fqn: `job::${ns}::bad`, num_instances: -1 })).status, 400);
  t.deepEqual((await audit(`fqn=job::${ns}`)).body.map((i) => i.event_type), ['job.create']);

  const pkg = await createPackage(api, ns, { upload: true });
  await api.fetch(`/packages/resources/${pkg.uuid}`).then((r) => r.arrayBuffer());
  const pkgEvents = (await audit(`fqn=package::${ns}&reverse`)).body;
  t.deepEqual(pkgEvents.map((i) => i.event_type), ['pkg.create', 'pkg.update', 'pkg.get']);
  t.truthy(pkgEvents[1]!.audit_payload.patches!.find((p) => p.path === 'package/state' && p.value === 'ready' && p.oldvalue === 'uploading'));

  const pipe = await api.post<{ uuid: string }>('/stagingpipelines', { fqn: `stagpipe::${ns}::p` });
  await api.delete(`/stagingpipelines/${pipe.body.uuid}`);
  t.deepEqual((await audit(`fqn=stagpipe::${ns}&reverse`)).body.map((i) => i.event_type), ['stagpipe.create', 'stagpipe.delete']);

  const name = unique('u');
  await api.put(`/v1/users/${name}`, { password: 'a good password' });
  await t.throwsAsync(ApiClient.login(suite.controller().url, name, 'wrong password'));
  await ApiClient.login(suite.controller().url, name, 'a good password');
  const auth = (await audit(`fqn=auth::/::${name}&reverse`)).body;
  t.deepEqual(auth.map((i) => i.event_type), ['auth.deny', 'auth.issue']);
  t.is(auth[0]!.principal_name, `${name}@platform.local`);
  t.is(auth[0]!.event_type_int, 9003);
});

test('audit: filters by event type, fqn segment, wildcard type and time', async (t) => {
  const api = suite.api();
  const ns = `/audit/${unique()}`;
  await api.post('/jobs', { fqn: `job::${ns}::a` });
  await api.post('/jobs', { fqn: `job::${ns}/deeper::b` });
  await api.post('/stagingpipelines', { fqn: `stagpipe::${ns}::c` });
  const names = async (q: string) => (await audit(q)).body.map((i) => i.localname).sort();
  t.deepEqual(await names(`fqn=job::${ns}`), ['a', 'b']);
  t.deepEqual(await names(`fqn=job::${ns}/deeper`), ['b']);
  t.deepEqual(await names(`fqn=*::${ns}`), ['a', 'b', 'c']);
  t.deepEqual(await names(`fqn=*::${ns}&event_type=stagpipe.create`), ['c']);
  const now = Math.floor(Date.now() / 1000);
  t.deepEqual(await names(`fqn=*::${ns}&start_time=${now - 60}&end_time=${now + 60}`), ['a', 'b', 'c']);
  t.deepEqual(await names(`fqn=*::${ns}&end_time=${now - 3600}`), []);
  t.deepEqual(await names(`fqn=*::${ns}&start_time=${now + 3600}`), []);

  const events = await api.get<string[]>('/audit/events');
  t.is(events.headers.get('content-type'), 'application/vnd.platform.auditlogtype;version=1');
  for (const e of ['job.update', 'job.start', 'policy.access.allowed', 'network.join', 'auth.issue', 'pkg.get']) t.true(events.body.includes(e), e);

  for (const q of ['limit=1001', 'limit=0', 'offset=-1', 'event_type=job.explode', 'fqn=nonsense', 'start_time=yesterday', 'start_time=10&end_time=5']) {
    const r = await audit(q);
    t.is(r.status, 400, q);
  }
});

test('audit: reading the log needs permit read on audit::/', async (t) => {
  const name = unique('reader');
  const user = await suite.api().createUser(name, 'a good password');
  for (const path of ['/audit', '/audit/events']) {
    const r = await user.get<ApiErrorBody>(path);
    t.is(r.status, 403, path);
    t.deepEqual(r.body.missing_claims, ['permit read on audit::/']);
  }
});

test('audit: Prev and Next page through exactly the whole result, past 1000 records', async (t) => {
  const api = suite.api();
  const ns = `/auditpage/${unique()}`;
  const total = 1050;
  const fqns: string[] = [];
  for (let i = 0; i < total; i += 50) {
    const batch = Array.from({ length: Math.min(50, total - i) }, (_, k) => `job::${ns}::j${i + k}`);
    fqns.push(...batch);
    await Promise.all(batch.map((fqn) => api.post('/jobs', { fqn })));
  }
  const walk = async (first: string) => {
    const seen: Item[] = [];
    let path: string | null = first;
    let pages = 0;
    let prevOnLater = true;
    while (path) {
      const r: Reply<Item[]> = await api.get<Item[]>(path);
      t.is(r.status, 200);
      if (pages > 0 && !r.headers.get('prev')) prevOnLater = false;
      if (pages === 0) t.is(r.headers.get('prev'), null);
      seen.push(...r.body);
      path = r.headers.get('next');
      pages++;
    }
    return { seen, pages, prevOnLater };
  };
  const big = await walk(`/v1/audit?fqn=job::${ns}&limit=1000`);
  t.is(big.pages, 2);
  t.true(big.prevOnLater);
  t.is(big.seen.length, total);
  t.is(new Set(big.seen.map((i) => i.uuid)).size, total);
  t.deepEqual(big.seen.map((i) => i.fqn).sort(), [...fqns].sort());
  const timestamps = big.seen.map((i) => i.timestamp);
  t.deepEqual(timestamps, [...timestamps].sort((a, b) => b - a));

  const small = await walk(`/audit?fqn=job::${ns}&event_type=job.create&limit=200&reverse`);
  t.is(small.pages, 6);
  t.deepEqual(small.seen.map((i) => i.uuid), [...big.seen].reverse().map((i) => i.uuid));

  const middle = await api.get<Item[]>(`/audit?fqn=job::${ns}&limit=200&offset=400`);
  t.is(middle.headers.get('prev'), `/v1/audit?fqn=job%3A%3A${encodeURIComponent(ns)}&limit=200&offset=200`);
  t.deepEqual(middle.body.map((i) => i.uuid), big.seen.slice(400, 600).map((i) => i.uuid));
  t.is((await audit(`fqn=job::${ns}`)).body.length, 200);
});
