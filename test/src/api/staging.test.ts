import test from 'ava';
import type { ApiErrorBody, Job, Package, RuntimeEntry, StagingPipeline } from '@platform/controller';
import { appJob, archive, digestOf, unique } from '../harness/fixtures.js';
import { eventually } from '../harness/wait.js';
import { useController } from '../harness/suite.js';
import { rawPut } from '../harness/upload.js';

const suite = useController(test);

test('runtimes: lists every runtime of the spec with file patterns', async (t) => {
  const r = await suite.api().get<RuntimeEntry[]>('/runtimes');
  t.is(r.status, 200);
  t.deepEqual(
    r.body.map((e) => e.runtime),
    ['bash', 'ruby', 'nodejs', 'java', 'perl', 'php', 'python', 'static-site', 'go'],
  );
  for (const e of r.body) t.true(e.patterns.length > 0, e.runtime);
  t.true(r.body.find((e) => e.runtime === 'nodejs')!.patterns.includes('package.json'));
  t.true(r.body.find((e) => e.runtime === 'static-site')!.patterns.includes('index.html'));
});

test('staging pipelines: create, read by uuid and fqn, update, delete', async (t) => {
  const api = suite.api();
  const s1 = (await api.post<Job>('/jobs', { fqn: `job::/platform/stagers::${unique()}` })).body;
  const s2 = (await api.post<Job>('/jobs', { fqn: `job::/platform/stagers::${unique()}` })).body;
  const fqn = `stagpipe::/pipes::${unique()}`;
  const created = await api.post<StagingPipeline>('/stagingpipelines', { fqn, stagers: [{ uuid: s1.uuid }] });
  t.is(created.status, 200);
  t.is(created.headers.get('content-type'), 'application/vnd.platform.stagingpipeline;version=1');
  t.is(created.body.version_id, 1);
  t.is(created.body.name, fqn.split('::')[2] ?? '');
  t.deepEqual(created.body.stagers, [{ uuid: s1.uuid }]);
  t.true(created.body.auto_id > 0);
  t.deepEqual((await api.get<StagingPipeline[]>(`/stagingpipelines?fqn=${fqn}`)).body, [created.body]);
  t.deepEqual((await api.get<StagingPipeline>(`/stagingpipelines/${created.body.uuid}`)).body, created.body);
  t.deepEqual((await api.get<StagingPipeline[]>(`/stagingpipelines?fqn=stagpipe::/pipes::nothing`)).body, []);

  const updated = await api.put<StagingPipeline>(`/stagingpipelines/${created.body.uuid}`, { fqn, stagers: [{ uuid: s1.uuid }, { uuid: s2.uuid }] });
  t.is(updated.body.version_id, 2);
  t.is(updated.body.stagers.length, 2);
  const unchanged = await api.put<StagingPipeline>(`/stagingpipelines/${created.body.uuid}`, updated.body);
  t.is(unchanged.body.version_id, 2);

  t.is((await api.post<ApiErrorBody>('/stagingpipelines', { fqn, stagers: [] })).status, 409);
  t.is((await api.post<ApiErrorBody>('/stagingpipelines', { fqn: `job::/pipes::x` })).status, 400);
  t.is((await api.post<ApiErrorBody>('/stagingpipelines', { fqn: `stagpipe::/pipes::${unique()}`, stagers: [{ uuid: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b' }] })).status, 400);
  t.is((await api.post<ApiErrorBody>('/stagingpipelines', { fqn: `stagpipe::/pipes::${unique()}`, stagers: [{ uuid: 'x' }] })).status, 400);
  t.is((await api.get<ApiErrorBody>('/stagingpipelines?fqn=package::/a::b')).status, 400);

  const inUse = await api.delete<ApiErrorBody>(`/jobs/${s2.uuid}`);
  t.is(inUse.status, 409);
  t.regex(inUse.body.message, /is a stager of staging pipeline/);
  t.is((await api.delete(`/stagingpipelines/${created.body.uuid}`)).status, 200);
  t.is((await api.delete(`/jobs/${s2.uuid}`)).status, 200);
  t.is((await api.get(`/stagingpipelines/${created.body.uuid}`)).status, 404);
  t.deepEqual((await api.get<StagingPipeline[]>(`/stagingpipelines?fqn=${fqn}`)).body, []);
});

test('deploy workflow: the steps of the spec, with a package that needs no staging', async (t) => {
  const api = suite.api();
  const ns = `/sandbox/${unique('user')}`;
  const jobFqn = `job::${ns}::web`;
  const pkgFqn = `package::${ns}::web`;
  // 1. The job does not exist yet.
  t.deepEqual((await api.get<Job[]>(`/jobs?fqn=${jobFqn}`)).body, []);
  // 2. Runtimes, and the pipeline the client would pick.
  const runtimes = (await api.get<RuntimeEntry[]>('/runtimes')).body;
  t.truthy(runtimes.find((r) => r.runtime === 'nodejs'));
  // 3. The pipeline lookup answers an array (empty here: built-in pipelines come with staging).
  t.true(Array.isArray((await api.get(`/stagingpipelines?fqn=stagpipe::/platform::nodejs`)).body));
  // 4. The package does not exist yet.
  t.deepEqual((await api.get<Package[]>(`/packages?fqn=${pkgFqn}`)).body, []);
  // 5. Create the package.
  const data = archive(10_000);
  const created = await api.post<Package>('/packages', { fqn: pkgFqn, name: 'web', resource: { length: data.length, sha1: digestOf(data, 'sha1').slice(5) } });
  t.is(created.body.state, 'uploading');
  // 6. Upload the archive.
  const up = await rawPut(`${suite.controller().url}/v1/packages/${created.body.uuid}/resources/${created.body.resources[0]!.uuid}`, [data], data.length, api.defaultHeaders);
  t.is(up.status, 200);
  // 7. Poll until ready.
  const ready = await eventually(async () => {
    const p = (await api.get<Package>(`/packages/${created.body.uuid}`)).body;
    return p.state === 'ready' || p.state === 'failed' ? p : undefined;
  }, { what: 'package ready' });
  t.is(ready.state, 'ready');
  // 8. Create the job.
  const job = await api.post<Job>('/jobs', appJob(jobFqn, { name: 'web', packages: [{ uuid: ready.uuid }] }));
  t.is(job.status, 200);
  t.is(job.body.state, 'ready');
  // 9. Link the package to the job.
  const linked = await api.put<Package>(`/packages/${ready.uuid}`, { ...ready, tags: { ...ready.tags, 'linked-job': job.body.uuid } });
  t.is(linked.body.version_id, ready.version_id + 1);
  // 11. Expose a port: read the job, add a port, PUT it back.
  const current = (await api.get<Job[]>(`/jobs?fqn=${jobFqn}`)).body[0]!;
  const exposed = await api.put<Job>(`/jobs/${current.uuid}`, { ...current, ports: [{ number: 0, optional: false }] });
  t.is(exposed.body.version_id, current.version_id + 1);
  // 12. Add an HTTP route to that port.
  const routed = await api.put<Job>(`/jobs/${current.uuid}`, {
    ...exposed.body,
    ports: [{ number: 0, optional: false, routes: [{ type: 'http', endpoint: 'web.example.test', weight: 0 }] }],
  });
  t.is(routed.body.ports[0]?.routes[0]?.endpoint, 'web.example.test');
  t.is(routed.body.version_id, current.version_id + 2);
});
