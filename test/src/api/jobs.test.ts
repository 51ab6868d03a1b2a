import test from 'ava';
import type { ApiErrorBody, Job } from '@platform/controller';
import { appJob, unique } from '../harness/fixtures.js';
import { createPackage } from '../harness/packages.js';
import type { ApiClient } from '../harness/http.js';
import { useController } from '../harness/suite.js';

const suite = useController(test);
const TS_RE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/;

async function createJob(api: ApiClient, body: Record<string, unknown>): Promise<Job> {
  const r = await api.post<Job>('/jobs', body);
  if (r.status !== 200) throw new Error(`create failed: ${r.text}`);
  return r.body;
}

test('jobs: create without packages is "created", with packages "ready", version 1, Location, defaults', async (t) => {
  const api = suite.api();
  const ns = `/jobs/${unique()}`;
  const bare = await api.post<Job>('/jobs', { fqn: `job::${ns}::bare` });
  t.is(bare.status, 200);
  t.is(bare.body.state, 'created');
  t.is(bare.body.version_id, 1);
  t.is(bare.body.name, 'bare');
  t.is(bare.headers.get('location'), `${suite.controller().url}/v1/jobs/${bare.body.uuid}`);
  t.regex(bare.body.created_at, TS_RE);
  t.is(bare.body.created_at, bare.body.updated_at);
  t.is(bare.body.created_by, 'admin@platform.local');
  t.deepEqual(bare.body.resources, { cpu: 0, memory: 268435456, disk: 1073741824, network: 5000000, netmax: 0 });
  t.is(bare.body.restart.restart_mode, 'always');
  t.is(bare.body.rollout.flapping_window, 300);
  t.is(bare.body.logs.length, 2);

  const pkg = await createPackage(api, ns);
  const withPkg = await api.post<Job>('/jobs', appJob(`job::${ns}::app`, { packages: [{ uuid: pkg.uuid }] }));
  t.is(withPkg.status, 200);
  t.is(withPkg.body.state, 'ready');
  t.deepEqual(withPkg.body.packages, [{ uuid: pkg.uuid, source: 'user', state: 'uploading' }]);
  t.is(withPkg.body.processes['app']?.start_command_timeout, 30);

  const fetched = await api.get<Job>(`/jobs/${withPkg.body.uuid}`);
  t.deepEqual(fetched.body, withPkg.body);
});

test('jobs: server-assigned and unknown fields in a body are ignored and never stored', async (t) => {
  const api = suite.api();
  const fqn = `job::/jobs::${unique()}`;
  const r = await api.post<Job & Record<string, unknown>>('/jobs', {
    fqn,
    uuid: '',
    version_id: 0,
    created_at: '0001-01-01T00:00:00Z',
    updated_by: 'mallory',
    state: 'finished',
    health: { score: 1 },
    not_a_field: 'x',
    processes: { app: { start_command: 'x', mystery: 1 } },
  });
  t.is(r.status, 200);
  t.regex(r.body.uuid, /^[0-9a-f-]{36}$/);
  t.is(r.body.version_id, 1);
  t.not(r.body.created_at, '0001-01-01T00:00:00Z');
  t.is(r.body.updated_by, 'admin@platform.local');
  t.is(r.body.state, 'created');
  const stored = await api.get<Record<string, unknown>>(`/jobs/${r.body.uuid}`);
  t.false('not_a_field' in stored.body);
  t.false('health' in stored.body);
  t.false(stored.text.includes('mystery'));
});

test('jobs: a create whose FQN exists is refused with duplicate_key and changes nothing', async (t) => {
  const api = suite.api();
  const fqn = `job::/jobs::${unique()}`;
  const first = await createJob(api, { fqn, num_instances: 1 });
  const again = await api.post<ApiErrorBody>('/jobs', { fqn, num_instances: 5 });
  t.is(again.status, 409);
  t.true(again.body.duplicate_key);
  t.true(again.body.client_side);
  const list = await api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(fqn)}`);
  t.is(list.body.length, 1);
  t.deepEqual(list.body[0], first);
});

test('jobs: bad bodies are refused with a 400 that says what is wrong, and nothing is created', async (t) => {
  const api = suite.api();
  const ns = `/bad/${unique()}`;
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ num_instances: 1 }, /fqn/],
    [{ fqn: `package::${ns}::x` }, /is a package FQN, expected a job FQN/],
    [{ fqn: 'job::nons::x' }, /must start with "\/"/],
    [{ fqn: `job::${ns}` }, /has no name/],
    [{ fqn: 'nonsense' }, /not of the form/],
    [{ fqn: 42 }, /fqn: expected a string, got number/],
    [{ fqn: `job::${ns}::a`, num_instances: -1 }, /num_instances: must be at least 0/],
    [{ fqn: `job::${ns}::b`, num_instances: 'three' }, /num_instances: expected an integer/],
    [{ fqn: `job::${ns}::c`, packages: [{ uuid: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b', source: 'vendor' }] }, /source/],
    [{ fqn: `job::${ns}::d`, packages: [{ uuid: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b' }] }, /no package with uuid/],
    [{ fqn: `job::${ns}::e`, tags: ['a'] }, /tags/],
    [{ fqn: `job::${ns}::f`, processes: { app: { start_command: ['x'] } } }, /processes\.app\.start_command/],
    [{ fqn: `job::${ns}::g`, resources: { memory: -5 } }, /resources\.memory/],
    [{ fqn: `job::${ns}::h`, ports: [{ number: 'http' }] }, /ports\.0\.number/],
    [{ fqn: `job::${ns}::i`, state: 'started' }, /without packages cannot be started/],
  ];
  for (const [body, message] of cases) {
    const r = await api.post<ApiErrorBody>('/jobs', body);
    t.true(r.status === 400 || r.status === 409, JSON.stringify(body));
    t.true(r.body.client_side);
    t.regex(r.body.message, message, JSON.stringify(body));
  }
  const left = await api.get<Job[]>(`/jobs?fqn=job::${ns}&matchPartialFQN=true`);
  t.deepEqual(left.body, []);
});

test('jobs: PUT changes advance version_id by one; a PUT that changes nothing answers the job unchanged', async (t) => {
  const api = suite.api();
  const job = await createJob(api, appJob(`job::/jobs::${unique()}`));
  const same = await api.put<Job>(`/jobs/${job.uuid}`, job);
  t.is(same.status, 200);
  t.deepEqual(same.body, job);
  const sameShuffled = await api.put<Job>(`/jobs/${job.uuid}`, { ...appJob(job.fqn), version_id: 77 });
  t.deepEqual(sameShuffled.body, job);

  const changed = await api.put<Job>(`/jobs/${job.uuid}`, { ...job, num_instances: 3 });
  t.is(changed.status, 200);
  t.is(changed.body.num_instances, 3);
  t.is(changed.body.version_id, 2);
  t.is(changed.body.created_at, job.created_at);
  t.true(changed.body.updated_at > job.updated_at);
  t.deepEqual((await api.get<Job>(`/jobs/${job.uuid}`)).body, changed.body);

  const renamed = await api.put<ApiErrorBody>(`/jobs/${job.uuid}`, { ...changed.body, name: undefined, fqn: `job::/jobs::${unique()}` });
  t.is(renamed.status, 400);
  t.regex(renamed.body.message, /cannot be changed/);
  const invalid = await api.put<ApiErrorBody>(`/jobs/${job.uuid}`, { ...changed.body, num_instances: -2 });
  t.is(invalid.status, 400);
  t.is((await api.get<Job>(`/jobs/${job.uuid}`)).body.version_id, 2);
});

test('jobs: start, requires_restart for resources of a started job, stop', async (t) => {
  const api = suite.api();
  const ns = `/jobs/${unique()}`;
  const pkg = await createPackage(api, ns, { upload: true });
  const job = await createJob(api, appJob(`job::${ns}::svc`, { packages: [{ uuid: pkg.uuid }] }));
  t.is(job.state, 'ready');
  const started = await api.put<Job>(`/jobs/${job.uuid}`, { ...job, state: 'started' });
  t.is(started.status, 200);
  t.is(started.body.state, 'started');
  t.is(started.body.version_id, 2);

  const bigger = { ...started.body, resources: { ...started.body.resources, memory: 512 * 1024 * 1024 } };
  const refused = await api.put<ApiErrorBody>(`/jobs/${job.uuid}`, bigger);
  t.is(refused.status, 409);
  t.true(refused.body.requires_restart);
  t.is((await api.get<Job>(`/jobs/${job.uuid}`)).body.resources.memory, 268435456);

  const scaled = await api.put<Job>(`/jobs/${job.uuid}`, { ...started.body, num_instances: 4 });
  t.is(scaled.body.state, 'started');
  t.is(scaled.body.num_instances, 4);

  const stoppedAndResized = await api.put<Job>(`/jobs/${job.uuid}`, { ...bigger, num_instances: 4, state: 'stopped' });
  t.is(stoppedAndResized.status, 200);
  t.is(stoppedAndResized.body.state, 'stopped');
  t.is(stoppedAndResized.body.resources.memory, 512 * 1024 * 1024);

  const unready = await createPackage(api, ns);
  const notReady = await api.post<ApiErrorBody>('/jobs', appJob(`job::${ns}::early`, { packages: [{ uuid: unready.uuid }], state: 'started' }));
  t.is(notReady.status, 409);
  t.regex(notReady.body.message, new RegExp(`${unready.uuid} is uploading`));

  const created = await createJob(api, { fqn: `job::${ns}::nopkg` });
  const cannot = await api.put<ApiErrorBody>(`/jobs/${created.uuid}`, { fqn: created.fqn, state: 'started' });
  t.is(cannot.status, 409);
  t.true(cannot.body.request_invalid);
  const readied = await api.put<Job>(`/jobs/${created.uuid}`, { fqn: created.fqn, packages: [{ uuid: pkg.uuid }] });
  t.is(readied.body.state, 'ready');
});

test('jobs: DELETE removes the job and frees its FQN', async (t) => {
  const api = suite.api();
  const fqn = `job::/jobs::${unique()}`;
  const job = await createJob(api, { fqn });
  const del = await api.delete(`/jobs/${job.uuid}`);
  t.is(del.status, 200);
  t.is(del.text, '');
  t.is((await api.get(`/jobs/${job.uuid}`)).status, 404);
  t.is((await api.delete(`/jobs/${job.uuid}`)).status, 404);
  t.is((await api.put(`/jobs/${job.uuid}`, { fqn })).status, 404);
  t.deepEqual((await api.get<Job[]>(`/jobs?fqn=${fqn}`)).body, []);
  const again = await createJob(api, { fqn });
  t.not(again.uuid, job.uuid);
});

test('jobs: GET /jobs filters by every query parameter of the spec', async (t) => {
  const api = suite.api();
  const ns = `/list/${unique()}`;
  const pkg = await createPackage(api, ns);
  // A binding in a job body is ignored (bindings are made by POST /bindings): beta is linked to alpha.
  const binding = { fqn: `binding::${ns}::b1`, service_fqn: `service::${ns}::db`, provider_fqn: `provider::${ns}::pg` };
  const a = await createJob(api, appJob(`job::${ns}::alpha`, { tags: { app: '', tier: 'web' }, packages: [{ uuid: pkg.uuid }], ports: [{ number: 0 }] }));
  const b = await createJob(api, appJob(`job::${ns}/sub::beta`, { tags: { tier: 'db' }, bindings: { [binding.fqn]: binding } }));
  t.deepEqual(b.bindings, {});
  t.is((await api.post('/bindings', { fqn: binding.fqn, job_fqn: b.fqn, target_job_fqn: a.fqn })).status, 200);
  const c = await createJob(api, appJob(`job::${ns}::gamma`, { tags: { tier: 'web', heavy: '' } }));
  await createJob(api, appJob(`job::${ns}x::outside`));
  const fqns = async (query: string) => (await api.get<Job[]>(`/jobs?${query}`)).body.map((j) => j.name);

  t.deepEqual(await fqns(`fqn=job::${ns}::alpha`), ['alpha']);
  t.deepEqual(await fqns(`fqn=job::${ns}::nosuch`), []);
  // Ordered by FQN bytes: `job::/x/sub::…` sorts before `job::/x::…`.
  t.deepEqual(await fqns(`fqn=job::${ns}&matchPartialFQN=true`), ['beta', 'alpha', 'gamma']);
  t.deepEqual(await fqns(`fqn=job::${ns}::g&matchPartialFQN=true`), ['gamma']);
  t.deepEqual(await fqns(`ids=${a.uuid},${c.uuid}`), ['alpha', 'gamma']);
  t.deepEqual(await fqns(`fqn=job::${ns}&matchPartialFQN=true&tag=tier=web`), ['alpha', 'gamma']);
  t.deepEqual(await fqns(`fqn=job::${ns}&matchPartialFQN=true&tag=tier=web,heavy`), ['gamma']);
  t.deepEqual(await fqns(`fqn=job::${ns}&matchPartialFQN=true&tag=app`), ['alpha']);
  t.deepEqual(await fqns(`fqn=job::${ns}&matchPartialFQN=true&name=beta`), ['beta']);
  t.deepEqual(await fqns(`package_id=${pkg.uuid}`), ['alpha']);
  t.deepEqual(await fqns(`BindingFQN=${binding.fqn}`), ['beta']);
  // Service bindings (and ServiceFQN, ProviderFQN with a match) are in services.test.ts.
  t.deepEqual(await fqns(`ServiceFQN=${binding.service_fqn}`), []);
  t.deepEqual(await fqns(`ProviderFQN=${binding.provider_fqn}`), []);
  t.deepEqual(await fqns(`fqn=job::${ns}&matchPartialFQN=true&count=2`), ['beta', 'alpha']);
  t.deepEqual(await fqns(`fqn=job::${ns}&matchPartialFQN=true&count=2&page=2`), ['gamma']);
  t.deepEqual(await fqns(`fqn=job::${ns}&matchPartialFQN=true&count=2&page=3`), []);

  const healthy = await api.get<Job[]>(`/jobs?ids=${b.uuid}&health=true`);
  t.deepEqual(healthy.body[0]?.health, { uuid: b.uuid, flapping: false, score: 0, instance_state_count: {} });
  const plain = await api.get<Job[]>(`/jobs?ids=${b.uuid}`);
  t.false('health' in (plain.body[0] ?? {}));

  for (const query of ['count=-1', 'count=x', 'page=0', 'ids=nope', 'fqn=package::/a::b', 'fqn=job::/a', 'health=maybe', 'package_id=zzz']) {
    const r = await api.get<ApiErrorBody>(`/jobs?${query}`);
    t.is(r.status, 400, query);
    t.true(r.body.client_side, query);
  }
});

test('jobs: GET /jobs/health lists started jobs among the ids given', async (t) => {
  const api = suite.api();
  const ns = `/health/${unique()}`;
  const pkg = await createPackage(api, ns, { upload: true });
  const started = await createJob(api, appJob(`job::${ns}::on`, { packages: [{ uuid: pkg.uuid }], state: 'started', num_instances: 2 }));
  t.is(started.state, 'started');
  const idle = await createJob(api, appJob(`job::${ns}::off`, { packages: [{ uuid: pkg.uuid }] }));
  const r = await api.get<unknown[]>(`/jobs/health?ids=${started.uuid},${idle.uuid},6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b`);
  t.is(r.status, 200);
  // No agent runs in this suite: the started job waits, and its health says why.
  t.deepEqual(r.body, [
    { uuid: started.uuid, flapping: false, score: 0, instance_state_count: {}, message: 'no instance manager is connected' },
  ]);
  t.is((await api.get('/jobs/health')).status, 400);
});

test('jobs: PATCH merges a JSON Merge Patch into the job through the PUT path (version, audit, null removes)', async (t) => {
  const api = suite.api();
  const ns = `/jobs/${unique()}`;
  const pkg = await createPackage(api, ns, { upload: true });
  const job = await createJob(api, appJob(`job::${ns}::patched`, { packages: [{ uuid: pkg.uuid }], ports: [{ number: 0 }], tags: { app: '', team: 'blue' } }));
  const r = await api.patch<Job>(`/jobs/${job.uuid}`, { num_instances: 3, tags: { team: null, tier: 'web' } });
  t.is(r.status, 200, r.text);
  t.is(r.body.num_instances, 3);
  t.deepEqual(r.body.tags, { app: '', tier: 'web' });
  t.deepEqual(r.body.packages.map((p) => p.uuid), [pkg.uuid]);
  t.is(r.body.ports.length, 1);
  t.is(r.body.version_id, 2);
  t.is(r.headers.get('etag'), '"2"');
  // Nothing to change: the same job, the same version.
  const same = await api.patch<Job>(`/jobs/${job.uuid}`, { num_instances: 3 });
  t.is(same.body.version_id, 2);
  // Started by a PATCH too (the start permission is checked as for PUT), then scaled while started.
  const started = await api.patch<Job>(`/jobs/${job.uuid}`, { state: 'started' });
  t.is(started.body.state, 'started');
  const scaled = await api.patch<Job>(`/jobs/${job.uuid}`, { num_instances: 2 });
  t.is(scaled.status, 200);
  t.is(scaled.body.state, 'started');
  t.deepEqual(scaled.body.packages.map((p) => p.uuid), [pkg.uuid]);
  // Validation is PUT's.
  const invalid = await api.patch<ApiErrorBody>(`/jobs/${job.uuid}`, { num_instances: -1 });
  t.is(invalid.status, 400);
  const audit = await api.get<{ event_type: string; audit_payload?: { patches?: { path: string; value: unknown }[] } }[]>(
    `/audit?fqn=${encodeURIComponent(job.fqn)}&event_type=job.update`,
  );
  t.true(audit.body.some((e) => e.audit_payload?.patches?.some((p) => p.path === 'job/num_instances' && p.value === 3)), JSON.stringify(audit.body));
});

test('jobs: PATCH takes only application/merge-patch+json (415) and a JSON object', async (t) => {
  const api = suite.api();
  const job = await createJob(api, { fqn: `job::/jobs::${unique()}` });
  const plain = await api.patch<ApiErrorBody>(`/jobs/${job.uuid}`, { num_instances: 2 }, { headers: { 'content-type': 'application/json' } });
  t.is(plain.status, 415);
  t.regex(plain.body.message, /merge-patch\+json/);
  const array = await api.patch<ApiErrorBody>(`/jobs/${job.uuid}`, [1]);
  t.is(array.status, 400);
  t.is((await api.get<Job>(`/jobs/${job.uuid}`)).body.version_id, 1);
});

test('jobs: If-Match on version_id guards PUT and PATCH (412 when stale); GET sends the ETag', async (t) => {
  const api = suite.api();
  const job = await createJob(api, { fqn: `job::/jobs::${unique()}`, num_instances: 1 });
  const read = await api.get<Job>(`/jobs/${job.uuid}`);
  const etag = read.headers.get('etag')!;
  t.is(etag, '"1"');
  const first = await api.put<Job>(`/jobs/${job.uuid}`, { ...read.body, num_instances: 2 }, { headers: { 'if-match': etag } });
  t.is(first.status, 200);
  t.is(first.headers.get('etag'), '"2"');
  // A second writer that read version 1 is told, and changes nothing.
  const stale = await api.put<ApiErrorBody>(`/jobs/${job.uuid}`, { ...read.body, num_instances: 5 }, { headers: { 'if-match': etag } });
  t.is(stale.status, 412);
  t.regex(stale.body.message, /version_id 2, not 1/);
  const stalePatch = await api.patch<ApiErrorBody>(`/jobs/${job.uuid}`, { num_instances: 5 }, { headers: { 'if-match': '1' } });
  t.is(stalePatch.status, 412);
  t.is((await api.get<Job>(`/jobs/${job.uuid}`)).body.num_instances, 2);
  const current = await api.patch<Job>(`/jobs/${job.uuid}`, { num_instances: 5 }, { headers: { 'if-match': '"2"' } });
  t.is(current.status, 200);
  t.is(current.body.num_instances, 5);
  const any = await api.patch<Job>(`/jobs/${job.uuid}`, { num_instances: 6 }, { headers: { 'if-match': '*' } });
  t.is(any.status, 200);
  const bad = await api.patch<ApiErrorBody>(`/jobs/${job.uuid}`, { num_instances: 7 }, { headers: { 'if-match': 'W/"x"' } });
  t.is(bad.status, 400);
});

test('jobs: concurrent PATCHes of different fields lose neither change', async (t) => {
  const api = suite.api();
  const job = await createJob(api, { fqn: `job::/jobs::${unique()}`, num_instances: 1 });
  const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => api.patch<Job>(`/jobs/${job.uuid}`, { tags: { [`t${i}`]: String(i) } })));
  t.true(replies.every((r) => r.status === 200), replies.map((r) => r.text).join('\n'));
  const final = await api.get<Job>(`/jobs/${job.uuid}`);
  t.deepEqual(Object.keys(final.body.tags).sort(), ['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7']);
});

test('jobs: a PUT of only the changed field says what it would remove and shows the PATCH to send', async (t) => {
  const api = suite.api();
  const ns = `/jobs/${unique()}`;
  const pkg = await createPackage(api, ns, { upload: true });
  const job = await createJob(api, appJob(`job::${ns}::svc`, { packages: [{ uuid: pkg.uuid }], ports: [{ number: 0 }], state: 'started' }));
  const r = await api.put<ApiErrorBody>(`/jobs/${job.uuid}`, { fqn: job.fqn, num_instances: 3 });
  t.is(r.status, 409);
  t.regex(r.body.message, /this PUT would remove the job's packages, ports, processes and tags/);
  t.regex(r.body.message, /PUT replaces the whole job/);
  t.regex(r.body.message, /to change only num_instances use PATCH \/v1\/jobs\/[0-9a-f-]+ with Content-Type: application\/merge-patch\+json and the body \{"num_instances":3\}/);
  t.deepEqual(r.body.error_details?.['would_remove'], ['packages', 'ports', 'processes', 'tags']);
  const noFqn = await api.put<ApiErrorBody>(`/jobs/${job.uuid}`, { num_instances: 3 });
  t.is(noFqn.status, 400);
  t.regex(noFqn.body.message, /names no fqn.*PATCH/s);
  t.is((await api.get<Job>(`/jobs/${job.uuid}`)).body.version_id, job.version_id);
});
