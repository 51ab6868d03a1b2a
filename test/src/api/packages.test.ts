import { randomBytes } from 'node:crypto';
import test from 'ava';
import type { ApiErrorBody, Job, Package, StagingPipeline } from '@platform/controller';
import { archive, digestOf, unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { useController } from '../harness/suite.js';
import { rawPut } from '../harness/upload.js';

const MAX = 8 * 1024 * 1024;
const suite = useController(test, { env: { PLATFORM_MAX_PACKAGE_BYTES: String(MAX) } });

async function create(api: ApiClient, data: Buffer, extra: Record<string, unknown> = {}, algorithm: 'sha1' | 'sha256' | 'sha384' | 'sha512' = 'sha256') {
  const r = await api.post<Package>('/packages', {
    fqn: `package::/pkgs::${unique('p')}`,
    resource: { length: data.length, digest: digestOf(data, algorithm) },
    ...extra,
  });
  if (r.status !== 200) throw new Error(r.text);
  return r;
}

const url = (path: string) => `${suite.controller().url}${path}`;
/** A raw upload with the administrator's token. */
const put = (path: string, chunks: Uint8Array[], contentLength?: number) => rawPut(url(path), chunks, contentLength, suite.api().defaultHeaders);
/** A download with the administrator's token. */
const get = (path: string, headers: Record<string, string> = {}) => suite.api().fetch(path, { headers });

test('packages: create answers the package uploading, with a resource uuid and a Location', async (t) => {
  const api = suite.api();
  const data = archive();
  const r = await create(api, data, { tags: { team: 'x' }, environment: { START_COMMAND: 'node app.js', A: '1' } });
  const p = r.body;
  t.is(p.state, 'uploading');
  t.is(p.version_id, 1);
  t.is(r.headers.get('location'), url(`/v1/packages/${p.uuid}`));
  t.is(r.headers.get('content-type'), 'application/vnd.platform.package;version=1');
  t.is(p.resources.length, 1);
  t.regex(p.resources[0]!.uuid, /^[0-9a-f-]{36}$/);
  t.deepEqual(p.resource, p.resources[0]);
  t.is(p.resources[0]!.digest, digestOf(data));
  t.is(p.staging_pipeline_fqn, '');
  t.deepEqual(p.stager_job_fqns, []);
  t.deepEqual((await api.get<Package>(`/packages/${p.uuid}`)).body, p);

  const sha1 = await create(api, data, {}, 'sha1');
  t.is(sha1.body.resources[0]!.sha1, digestOf(data, 'sha1').slice(5));
  const legacy = await api.post<Package>('/packages', { fqn: `package::/pkgs::${unique()}`, resource: { length: data.length, sha1: digestOf(data, 'sha1').slice(5) } });
  t.is(legacy.body.resources[0]!.digest, digestOf(data, 'sha1'));
});

test('packages: bad bodies are refused and create nothing', async (t) => {
  const api = suite.api();
  const ns = `/badpkg/${unique()}`;
  const ok = { length: 10, digest: `sha256:${'a'.repeat(64)}` };
  const cases: [Record<string, unknown>, number, RegExp][] = [
    [{ resource: ok }, 400, /fqn/],
    [{ fqn: `job::${ns}::x`, resource: ok }, 400, /expected a package FQN/],
    [{ fqn: `package::${ns}::a` }, 400, /archive declared/],
    [{ fqn: `package::${ns}::b`, resource: { digest: ok.digest } }, 400, /length/],
    [{ fqn: `package::${ns}::c`, resource: { length: 10 } }, 400, /digest/],
    [{ fqn: `package::${ns}::d`, resource: { length: 10, digest: `md5:${'a'.repeat(32)}` } }, 400, /must start with sha1:/],
    [{ fqn: `package::${ns}::e`, resource: { length: 10, digest: 'sha256:abc' } }, 400, /64 hex digits/],
    [{ fqn: `package::${ns}::f`, resource: { length: -1, digest: ok.digest } }, 400, /length/],
    [{ fqn: `package::${ns}::g`, resource: { length: MAX + 1, digest: ok.digest } }, 413, /package limit/],
    [{ fqn: `package::${ns}::h`, resource: ok, staging_pipeline: { uuid: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b' } }, 400, /no staging pipeline/],
    [{ fqn: `package::${ns}::i`, resource: ok, dependencies: [{ type: 'library', name: 'x' }] }, 400, /dependencies\.0\.type/],
    [{ fqn: `package::${ns}::j`, resource: ok, templates: [{ path: 'conf/../../etc/passwd' }] }, 400, /"\.\." component/],
    [{ fqn: `package::${ns}::k`, resource: ok, environment: { A: 1 } }, 400, /environment\.A/],
  ];
  for (const [body, status, message] of cases) {
    const r = await api.post<ApiErrorBody>('/packages', body);
    t.is(r.status, status, JSON.stringify(body));
    t.regex(r.body.message, message, JSON.stringify(body));
  }
  t.deepEqual((await api.get<Package[]>(`/packages?fqn=package::${ns}&matchPartialFQN=true`)).body, []);
  const first = await api.post<Package>('/packages', { fqn: `package::${ns}::dup`, resource: ok });
  const dup = await api.post<ApiErrorBody>('/packages', { fqn: `package::${ns}::dup`, resource: ok });
  t.is(first.status, 200);
  t.is(dup.status, 409);
  t.true(dup.body.duplicate_key);
});

test('packages: an upload at either path with each digest algorithm answers null and makes the package ready', async (t) => {
  const api = suite.api();
  for (const algorithm of ['sha1', 'sha256', 'sha384', 'sha512'] as const) {
    for (const form of ['short', 'long'] as const) {
      const data = archive(5000);
      const p = (await create(api, data, {}, algorithm)).body;
      const path = form === 'short' ? `/packages/resources/${p.uuid}` : `/v1/packages/${p.uuid}/resources/${p.resources[0]!.uuid}`;
      const r = await api.put(path, data, { headers: { 'content-type': 'application/octet-stream' } });
      t.is(r.status, 200, `${algorithm} ${form}`);
      t.is(r.text, 'null');
      const after = (await api.get<Package>(`/packages/${p.uuid}`)).body;
      t.is(after.state, 'ready');
      t.is(after.version_id, 2);
      const back = await get(`/packages/resources/${p.uuid}`);
      t.is(back.status, 200);
      t.is(back.headers.get('content-length'), String(data.length));
      t.is(back.headers.get('x-platform-digest'), digestOf(data, algorithm));
      t.deepEqual(Buffer.from(await back.arrayBuffer()), data);
      const etag = back.headers.get('etag') ?? '';
      t.is(etag, `"${digestOf(data, algorithm)}"`);
      const unchanged = await get(`/packages/resources/${p.uuid}`, { 'if-none-match': etag });
      t.is(unchanged.status, 304);
    }
  }
});

test('packages: a wrong digest or length is refused and the package stays uploading', async (t) => {
  const api = suite.api();
  const data = archive(20_000);
  const p = (await create(api, data)).body;
  const path = `/packages/resources/${p.uuid}`;
  const other = Buffer.from(data);
  other[100] = other[100]! ^ 0xff;

  const cases: [string, () => Promise<{ status: number; body: string }>, RegExp][] = [
    ['wrong digest', () => put(path, [other], other.length), /digest mismatch/],
    ['Content-Length differs from declared', () => put(path, [data, Buffer.from('x')], data.length + 1), /differs from the 20\d+ bytes declared/],
    ['chunked, too long', () => put(path, [data, randomBytes(5000)]), /longer than/],
    ['chunked, too short', () => put(path, [data.subarray(0, 1000)]), /bytes, but \d+ were declared/],
  ];
  for (const [what, send, message] of cases) {
    const r = await send();
    t.is(r.status, 400, what);
    t.regex((JSON.parse(r.body) as ApiErrorBody).message, message, what);
    const now = (await api.get<Package>(`/packages/${p.uuid}`)).body;
    t.is(now.state, 'uploading', what);
    t.is(now.version_id, 1, what);
  }
  t.is((await api.get(`/packages/resources/${p.uuid}`)).status, 404);
  const good = await put(path, [data.subarray(0, 7000), data.subarray(7000)]);
  t.is(good.status, 200);
  t.is(good.body, 'null');
  t.is((await api.get<Package>(`/packages/${p.uuid}`)).body.state, 'ready');
  const twice = await put(path, [data], data.length);
  t.is(twice.status, 409);
});

test('packages: uploads to unknown packages or resources are refused', async (t) => {
  const api = suite.api();
  const data = archive();
  const p = (await create(api, data)).body;
  const unknown = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';
  t.is((await put(`/packages/resources/${unknown}`, [data], data.length)).status, 404);
  t.is((await put(`/packages/${p.uuid}/resources/${unknown}`, [data], data.length)).status, 404);
  t.is((await put(`/packages/${p.uuid}/resources/not-uuid`, [data], data.length)).status, 400);
  t.is((await api.get<Package>(`/packages/${p.uuid}`)).body.state, 'uploading');
});

test('packages: several archives upload one by one; the package is ready after the last', async (t) => {
  const api = suite.api();
  const a = archive(3000);
  const b = archive(4000);
  const r = await api.post<Package>('/packages', {
    fqn: `package::/pkgs::${unique()}`,
    resources: [
      { length: a.length, digest: digestOf(a) },
      { length: b.length, digest: digestOf(b, 'sha512') },
    ],
  });
  const p = r.body;
  t.is(p.resources.length, 2);
  const ambiguous = await put(`/packages/resources/${p.uuid}`, [a], a.length);
  t.is(ambiguous.status, 400);
  t.is((await put(`/packages/${p.uuid}/resources/${p.resources[0]!.uuid}`, [a], a.length)).status, 200);
  t.is((await api.get<Package>(`/packages/${p.uuid}`)).body.state, 'uploading');
  t.is((await put(`/packages/${p.uuid}/resources/${p.resources[1]!.uuid}`, [b], b.length)).status, 200);
  t.is((await api.get<Package>(`/packages/${p.uuid}`)).body.state, 'ready');
  const byResource = await get(`/packages/resources/${p.resources[1]!.uuid}`);
  t.deepEqual(Buffer.from(await byResource.arrayBuffer()), b);
  const byPair = await get(`/packages/${p.uuid}/resources/${p.resources[0]!.uuid}`);
  t.deepEqual(Buffer.from(await byPair.arrayBuffer()), a);
});

test('packages: a package with a staging pipeline moves to staging after its upload', async (t) => {
  const api = suite.api();
  const stager = await api.post<Job>('/jobs', { fqn: `job::/platform/stagers::${unique('s')}` });
  const pipeline = await api.post<StagingPipeline>('/stagingpipelines', { fqn: `stagpipe::/pkgs::${unique()}`, stagers: [{ uuid: stager.body.uuid }] });
  const data = archive();
  const p = (await create(api, data, { staging_pipeline: { uuid: pipeline.body.uuid } })).body;
  t.deepEqual(p.staging_pipeline, { uuid: pipeline.body.uuid });
  t.is(p.staging_pipeline_fqn, pipeline.body.fqn);
  t.deepEqual(p.stager_job_fqns, [stager.body.fqn]);
  t.is((await put(`/packages/resources/${p.uuid}`, [data], data.length)).status, 200);
  t.is((await api.get<Package>(`/packages/${p.uuid}`)).body.state, 'staging');
  // A job of a package being staged shows it, and cannot start before the package is ready.
  const job = await api.post<Job>('/jobs', { fqn: `job::/pkgs::${unique()}`, packages: [{ uuid: p.uuid }] });
  t.is(job.body.state, 'staging');
  t.is((await api.get<Job>(`/jobs/${job.body.uuid}`)).body.state, 'staging');
  const start = await api.patch<ApiErrorBody>(`/jobs/${job.body.uuid}`, { state: 'started' });
  t.is(start.status, 409);
  t.regex(start.body.message, /is staging/);
  const byFqn = (await create(api, data, { staging_pipeline_fqn: pipeline.body.fqn })).body;
  t.deepEqual(byFqn.staging_pipeline, { uuid: pipeline.body.uuid });
});

test('packages: PUT changes metadata with a higher version; archives, pipeline and FQN do not change', async (t) => {
  const api = suite.api();
  const data = archive();
  const p = (await create(api, data)).body;
  const job = await api.post<Job>('/jobs', { fqn: `job::/pkgs::${unique()}`, packages: [{ uuid: p.uuid }] });
  const linked = await api.put<Package>(`/packages/${p.uuid}`, { ...p, tags: { ...p.tags, 'linked-job': job.body.uuid } });
  t.is(linked.status, 200);
  t.is(linked.body.version_id, 2);
  t.is(linked.body.tags['linked-job'], job.body.uuid);
  const same = await api.put<Package>(`/packages/${p.uuid}`, linked.body);
  t.deepEqual(same.body, linked.body);
  const other = archive();
  const changeArchive = await api.put<ApiErrorBody>(`/packages/${p.uuid}`, { ...linked.body, resources: [{ length: other.length, digest: digestOf(other) }] });
  t.is(changeArchive.status, 409);
  const rename = await api.put<ApiErrorBody>(`/packages/${p.uuid}`, { ...linked.body, fqn: `package::/pkgs::${unique()}` });
  t.is(rename.status, 400);
  t.is((await api.get<Package>(`/packages/${p.uuid}`)).body.version_id, 2);
});

test('packages: DELETE is refused while a job uses the package, and removes the archive once unused', async (t) => {
  const api = suite.api();
  const data = archive();
  const p = (await create(api, data)).body;
  const twin = (await create(api, data)).body;
  for (const pkg of [p, twin]) t.is((await put(`/packages/resources/${pkg.uuid}`, [data], data.length)).status, 200);
  const job = await api.post<Job>('/jobs', { fqn: `job::/pkgs::${unique()}`, packages: [{ uuid: p.uuid }] });
  const refused = await api.delete<ApiErrorBody>(`/packages/${p.uuid}`);
  t.is(refused.status, 409);
  t.regex(refused.body.message, new RegExp(job.body.uuid));
  t.is((await api.delete(`/jobs/${job.body.uuid}`)).status, 200);
  t.is((await api.delete(`/packages/${p.uuid}`)).status, 200);
  t.is((await api.get(`/packages/${p.uuid}`)).status, 404);
  t.is((await api.get(`/packages/resources/${p.uuid}`)).status, 404);
  // The twin shares the same content-addressed archive, which must survive.
  const back = await get(`/packages/resources/${twin.uuid}`);
  t.deepEqual(Buffer.from(await back.arrayBuffer()), data);
  const jobAfter = await api.post<Job>('/jobs', { fqn: `job::/pkgs::${unique()}`, packages: [{ uuid: p.uuid }] });
  t.is(jobAfter.status, 400);
});

test('packages: the package state shows in the packages list of jobs', async (t) => {
  const api = suite.api();
  const data = archive();
  const p = (await create(api, data)).body;
  const job = (await api.post<Job>('/jobs', { fqn: `job::/pkgs::${unique()}`, packages: [{ uuid: p.uuid }] })).body;
  t.is(job.packages[0]?.state, 'uploading');
  await put(`/packages/resources/${p.uuid}`, [data], data.length);
  t.is((await api.get<Job>(`/jobs/${job.uuid}`)).body.packages[0]?.state, 'ready');
});

test('packages: GET /packages filters by fqn, name, tags, provides and ids', async (t) => {
  const api = suite.api();
  const ns = `/plist/${unique()}`;
  const ok = { length: 10, digest: `sha256:${'b'.repeat(64)}` };
  const mk = async (name: string, extra: Record<string, unknown>) =>
    (await api.post<Package>('/packages', { fqn: `package::${ns}::${name}`, resource: ok, ...extra })).body;
  const node = await mk('node-20', { provides: [{ type: 'runtime', name: 'node' }, { type: 'runtime', name: 'node-20' }], tags: { builtin: '' } });
  const os = await mk('debian', { provides: [{ type: 'os', name: 'linux' }], tags: { builtin: '', kind: 'os' } });
  const app = await mk('app', { tags: { 'linked-job': 'x' } });
  await mk('sub/app2', {});
  const names = async (q: string) => (await api.get<Package[]>(`/packages?${q}`)).body.map((p) => p.name);
  const all = `fqn=package::${ns}&matchPartialFQN=true`;
  t.deepEqual(await names(`fqn=package::${ns}::app`), ['app']);
  t.deepEqual(await names(all), ['app', 'debian', 'node-20', 'sub/app2']);
  t.deepEqual(await names(`${all}&name=debian`), ['debian']);
  t.deepEqual(await names(`${all}&tag=builtin`), ['debian', 'node-20']);
  t.deepEqual(await names(`${all}&tag=kind=os`), ['debian']);
  t.deepEqual(await names(`${all}&excluded_tags=builtin`), ['app', 'sub/app2']);
  t.deepEqual(await names(`${all}&provides_type=runtime`), ['node-20']);
  t.deepEqual(await names(`${all}&provides_type=os&provides_name=linux`), ['debian']);
  t.deepEqual(await names(`${all}&provides_name=node`), ['node-20']);
  t.deepEqual(await names(`ids=${app.uuid},${os.uuid}`), ['app', 'debian']);
  t.deepEqual(await names(`package_id=${node.uuid}`), ['node-20']);
  t.deepEqual(await names(`${all}&count=3&page=2`), ['sub/app2']);
  for (const q of ['provides_type=vm', 'fqn=job::/a::b', 'ids=x']) t.is((await api.get(`/packages?${q}`)).status, 400, q);
});

test('packages: a large archive streams through without trouble', async (t) => {
  const api = suite.api();
  const data = randomBytes(6 * 1024 * 1024);
  const p = (await create(api, data)).body;
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length; i += 256 * 1024) chunks.push(data.subarray(i, i + 256 * 1024));
  const r = await put(`/packages/resources/${p.uuid}`, chunks, data.length);
  t.is(r.status, 200);
  const back = await get(`/packages/resources/${p.uuid}`);
  t.true(Buffer.from(await back.arrayBuffer()).equals(data));
});

test('packages: PATCH merges metadata (JSON Merge Patch), If-Match guards PUT and PATCH, archives stay', async (t) => {
  const api = suite.api();
  const data = archive();
  const { body: p } = await create(api, data, { tags: { a: '1' }, environment: { X: '1' } });
  const read = await api.get<Package>(`/packages/${p.uuid}`);
  t.is(read.headers.get('etag'), '"1"');
  const r = await api.patch<Package>(`/packages/${p.uuid}`, { tags: { a: null, 'linked-job': 'x' }, environment: { Y: '2' } }, { headers: { 'if-match': '"1"' } });
  t.is(r.status, 200, r.text);
  t.deepEqual(r.body.tags, { 'linked-job': 'x' });
  t.deepEqual(r.body.environment, { X: '1', Y: '2' });
  t.deepEqual(r.body.resources, p.resources);
  t.is(r.body.version_id, 2);
  t.is(r.headers.get('etag'), '"2"');
  const stale = await api.put<ApiErrorBody>(`/packages/${p.uuid}`, { ...read.body, tags: {} }, { headers: { 'if-match': '"1"' } });
  t.is(stale.status, 412);
  const stalePatch = await api.patch<ApiErrorBody>(`/packages/${p.uuid}`, { tags: {} }, { headers: { 'if-match': '1' } });
  t.is(stalePatch.status, 412);
  const wrongType = await api.patch<ApiErrorBody>(`/packages/${p.uuid}`, { tags: {} }, { headers: { 'content-type': 'application/json' } });
  t.is(wrongType.status, 415);
  // A change of archive is refused with what it would have changed and what to do instead.
  const other = archive();
  const archives = await api.patch<ApiErrorBody>(`/packages/${p.uuid}`, { resources: [{ length: other.length, digest: digestOf(other) }] });
  t.is(archives.status, 409);
  t.regex(archives.body.message, /would change the package's archives .* create a new package/);
  t.is((await api.get<Package>(`/packages/${p.uuid}`)).body.version_id, 2);
});
