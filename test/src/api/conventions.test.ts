import test, { type ExecutionContext } from 'ava';
import type { ApiErrorBody, Job } from '@platform/controller';
import { unique } from '../harness/fixtures.js';
import { useController } from '../harness/suite.js';
import { eventually } from '../harness/wait.js';

const suite = useController(test);

const FLAGS = ['client_side', 'duplicate_key', 'fatal', 'request_invalid', 'requires_restart', 'resource_missing', 'retry', 'token_invalid'];

function assertApiError(t: ExecutionContext, body: unknown, code: number) {
  const e = body as ApiErrorBody;
  t.is(e.code, code);
  t.is(typeof e.message, 'string');
  t.true(e.message.length > 0);
  t.regex(e.request_id, /^[a-z0-9]{20}$/);
  for (const flag of FLAGS) t.is(typeof (e as unknown as Record<string, unknown>)[flag], 'boolean', flag);
  t.is(e.client_side, code < 500);
}

test('api: every path works with and without /v1', async (t) => {
  const api = suite.api();
  for (const path of ['/info', '/version', '/cluster/admin', '/runtimes', '/jobs', '/packages', '/stagingpipelines']) {
    const plain = await api.get(path);
    const v1 = await api.get(`/v1${path}`);
    t.is(plain.status, 200, path);
    t.is(v1.status, 200, `/v1${path}`);
    t.is(plain.headers.get('content-type'), v1.headers.get('content-type'));
  }
});

test('api: responses name their type and version; unknown or missing media types fall back', async (t) => {
  const api = suite.api();
  const created = await api.post<Job>('/jobs', { fqn: `job::/conv::${unique()}` }, {
    headers: { 'content-type': 'application/vnd.platform.job;version=1', accept: 'application/vnd.platform.jobs;version=1' },
  });
  t.is(created.status, 200);
  t.is(created.headers.get('content-type'), 'application/vnd.platform.jobs;version=1');
  const get = (accept?: string) => api.get(`/jobs/${created.body.uuid}`, accept ? { headers: { accept } } : {});
  const vendor = await get();
  for (const accept of [
    undefined,
    '*/*',
    'application/*',
    'text/html',
    'application/vnd.platform.job;version=99',
    'application/vnd.platform.nonsense;version=1',
    // A vendor type named beside application/json wins.
    'application/json, application/vnd.platform.job;version=1',
    'application/json;q=0',
  ]) {
    const r = await get(accept);
    t.is(r.status, 200, accept);
    t.is(r.headers.get('content-type'), 'application/vnd.platform.job;version=1', accept);
    t.regex(r.headers.get('vary') ?? '', /Accept/, accept);
    t.is(r.text, vendor.text, accept);
  }
  const plainJson = await api.post<Job>('/jobs', JSON.stringify({ fqn: `job::/conv::${unique()}` }), {
    headers: { 'content-type': 'application/json' },
  });
  t.is(plainJson.status, 200);
  const oddType = await api.post<Job>('/jobs', JSON.stringify({ fqn: `job::/conv::${unique()}` }), {
    headers: { 'content-type': 'application/vnd.platform.unknown;version=5' },
  });
  t.is(oddType.status, 200);
});

test('api: Accept asking for application/json without a vendor type gets application/json, same body, errors too', async (t) => {
  const api = suite.api();
  const created = await api.post<Job>('/jobs', { fqn: `job::/conv::${unique()}` }, { headers: { accept: 'application/json' } });
  t.is(created.status, 200);
  t.is(created.headers.get('content-type'), 'application/json; charset=utf-8');
  const vendor = await api.get(`/jobs/${created.body.uuid}`);
  // The 2016 generated clients, axios ('application/json, text/plain, */*') and curl -H alike.
  for (const accept of ['application/json', 'Application/JSON', 'application/json, text/plain, */*', 'text/html;q=0.9, application/json;q=0.8']) {
    const r = await api.get(`/jobs/${created.body.uuid}`, { headers: { accept } });
    t.is(r.status, 200, accept);
    t.is(r.headers.get('content-type'), 'application/json; charset=utf-8', accept);
    t.regex(r.headers.get('vary') ?? '', /Accept/, accept);
    t.is(r.text, vendor.text, accept);
  }
  const list = await api.get(`/jobs?ids=${created.body.uuid}`, { headers: { accept: 'application/json' } });
  t.is(list.headers.get('content-type'), 'application/json; charset=utf-8');
  for (const path of ['/jobs/not-a-uuid', '/nowhere', '/jobs/container']) {
    const plain = await api.get(path, { headers: { accept: 'application/json' } });
    t.is(plain.headers.get('content-type'), 'application/json; charset=utf-8', path);
    assertApiError(t, plain.body, plain.status);
    for (const accept of [undefined, '*/*', 'application/vnd.platform.apierror;version=1']) {
      const r = await api.get(path, accept ? { headers: { accept } } : {});
      t.is(r.headers.get('content-type'), 'application/vnd.platform.apierror;version=1', `${path} ${accept}`);
    }
  }
  const noToken = await api.withHeaders({ accept: 'application/json' }).get('/jobs');
  t.is(noToken.status, 401);
  t.is(noToken.headers.get('content-type'), 'application/json; charset=utf-8');
});

test('api: Minimum-Client-Version and X-Request-Id go out on every answer', async (t) => {
  const api = suite.api();
  for (const r of [await api.get('/info'), await api.get('/jobs/not-a-uuid'), await api.get('/nowhere')]) {
    t.regex(r.headers.get('minimum-client-version') ?? '', /^\d+\.\d+\.\d+$/);
    t.regex(r.headers.get('x-request-id') ?? '', /^[A-Za-z0-9._-]+$/);
  }
  const echoed = await api.get('/info', { headers: { 'x-request-id': 'client-chosen-id.1' } });
  t.is(echoed.headers.get('x-request-id'), 'client-chosen-id.1');
  const refused = await api.get('/jobs/not-a-uuid');
  t.is((refused.body as ApiErrorBody).request_id, refused.headers.get('x-request-id') ?? '');
});

test('api: unknown paths answer 404 and wrong methods 405, as APIErrors', async (t) => {
  const api = suite.api();
  const missing = await api.get('/v1/nowhere');
  t.is(missing.status, 404);
  assertApiError(t, missing.body, 404);
  t.true((missing.body as ApiErrorBody).resource_missing);
  const wrong = await api.request('PATCH', '/jobs');
  t.is(wrong.status, 405);
  assertApiError(t, wrong.body, 405);
  t.is(wrong.headers.get('allow'), 'GET, POST');
  t.is(wrong.headers.get('content-type'), 'application/vnd.platform.apierror;version=1');
});

test('api: malformed JSON, non-object bodies, empty bodies and oversized bodies are refused', async (t) => {
  const api = suite.api();
  for (const [body, status, message] of [
    ['{"fqn": ', 400, /not valid JSON/],
    ['[1,2]', 400, /must be a JSON object, got an array/],
    ['"job"', 400, /must be a JSON object/],
    ['null', 400, /must be a JSON object, got null/],
    ['', 400, /empty/],
    [JSON.stringify({ fqn: 'job::/conv::big', tags: { pad: 'x'.repeat(1_100_000) } }), 413, /over the limit/],
  ] as const) {
    const r = await api.post('/jobs', body, { headers: { 'content-type': 'application/json' } });
    t.is(r.status, status, body.slice(0, 40));
    assertApiError(t, r.body, status);
    t.regex((r.body as ApiErrorBody).message, message);
  }
  const list = await api.get<Job[]>('/jobs?fqn=job::/conv::big');
  t.deepEqual(list.body, []);
});

test('api: a malformed body is refused without its text in the answer or the log (a secret\'s value, unquoted)', async (t) => {
  const api = suite.api();
  // Short: V8 quotes ten characters or so past the unexpected token.
  const value = `k${Math.random().toString(36).slice(2, 8)}`;
  const r = await api.post('/secrets', `{"fqn": "secret::/conv::db", "value": ${value}}`, { headers: { 'content-type': 'application/json' } });
  t.is(r.status, 400, r.text);
  assertApiError(t, r.body, 400);
  t.regex((r.body as ApiErrorBody).message, /^the request body is not valid JSON: /);
  t.false(r.text.includes(value), r.text);
  const controller = suite.controller();
  await eventually(() => controller.lines.some((l) => l['msg'] === 'request refused' && l['request_id'] === r.headers.get('x-request-id')), { timeoutMs: 10_000, what: 'the log line of the refusal' });
  t.false(JSON.stringify(controller.lines).includes(value), 'the log holds no part of the body');
});

test('api: path uuids that are not uuids are refused with 400, unknown uuids with 404', async (t) => {
  const api = suite.api();
  for (const path of ['/jobs/123', '/packages/abc', '/stagingpipelines/x-y', '/packages/resources/zz', '/packages/00000000-0000-4000-8000-000000000000/resources/nope']) {
    const r = await api.get(path);
    t.is(r.status, 400, path);
    assertApiError(t, r.body, 400);
    t.regex((r.body as ApiErrorBody).message, /is not a UUID/);
  }
  const unknown = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';
  for (const path of [`/jobs/${unknown}`, `/packages/${unknown}`, `/stagingpipelines/${unknown}`]) {
    for (const method of ['GET', 'DELETE']) {
      const r = await api.request(method, path);
      t.is(r.status, 404, `${method} ${path}`);
      assertApiError(t, r.body, 404);
      t.true((r.body as ApiErrorBody).resource_missing);
    }
  }
});

test('api: every path of the spec is served: GET /networks, the last to come, answers the networks', async (t) => {
  const api = suite.api();
  for (const prefix of ['', '/v1']) {
    const r = await api.get(`${prefix}/networks`);
    t.is(r.status, 200, `GET ${prefix}/networks`);
    t.true(Array.isArray(r.body));
  }
  const unauthenticated = await api.withHeaders({}).post('/bindings', {});
  t.is(unauthenticated.status, 401);
});

test('api: the 2016 names answer what their new paths answer', async (t) => {
  const api = suite.api();
  const ns = `/conv/${unique()}`;
  for (const name of ['a', 'b']) await api.post('/jobs', { fqn: `job::${ns}::${name}` });
  const audit = await api.get<unknown[]>(`/audit?fqn=job::${ns}`);
  const legacy = await api.get(`/v1/audit_logs?fqn=job::${ns}`);
  t.is(legacy.status, 200);
  t.is(audit.body.length, 2);
  t.is(legacy.headers.get('content-type'), audit.headers.get('content-type'));
  t.deepEqual(legacy.body, audit.body);
  const next = new URLSearchParams((await api.get(`/audit_logs?fqn=job::${ns}&limit=1`)).headers.get('next')?.replace(/^\/v1\/audit_logs\?/, '') ?? '');
  t.is(next.get('offset'), '1');
  for (const [method, path, message] of [
    ['POST', '/jobs/docker-job-check', 'POST /jobs/docker-job-check is not served yet; it comes with container job policy checks'],
  ] as const) {
    const r = await api.request(method, `/v1${path}`, method === 'POST' ? { body: {} } : {});
    t.is(r.status, 404, path);
    assertApiError(t, r.body, 404);
    t.is((r.body as ApiErrorBody).message, message);
  }
  // Served names answer as their new path: the same refusal of the same body.
  const docker = await api.post('/v1/jobs/docker', {});
  const container = await api.post('/v1/jobs/container', {});
  t.is(docker.status, 400);
  t.is((docker.body as ApiErrorBody).message, (container.body as ApiErrorBody).message);
  // The client's downloads under their 2016 name: the same archive as /cli/download.
  const [legacyArchive, archive] = await Promise.all([api.fetch('/v1/apc/download/linux'), api.fetch('/v1/cli/download/linux')]);
  t.is(legacyArchive.status, 200);
  t.is(legacyArchive.headers.get('content-type'), 'application/x-gzip');
  t.deepEqual(Buffer.from(await legacyArchive.arrayBuffer()), Buffer.from(await archive.arrayBuffer()));
  t.regex(String((await api.get<{ version: string }>('/v1/apc/version')).body.version), /^\d+\.\d+\.\d+/);
});

test('api: list query parameters in every form: a,b; repeated; tag[]; tag[0]', async (t) => {
  const api = suite.api();
  const ns = `/conv/${unique()}`;
  const make = async (name: string, tags: Record<string, string>) => (await api.post<Job>('/jobs', { fqn: `job::${ns}::${name}`, tags })).body;
  const a = await make('a', { tier: 'web', app: '' });
  await make('b', { tier: 'web' });
  const c = await make('c', { app: '' });
  const names = async (query: string) => {
    const r = await api.get<Job[]>(`/jobs?fqn=job::${ns}&matchPartialFQN=true&${query}`);
    t.is(r.status, 200, query);
    return r.body.map((j) => j.name);
  };
  for (const query of ['tag=tier=web,app', 'tag=tier=web&tag=app', 'tag[]=tier=web&tag[]=app', 'tag%5B%5D=tier%3Dweb&tag%5B%5D=app', 'tag[0]=tier=web&tag[1]=app', 'tag[1]=app&tag[0]=tier=web', 'tag=app&tag[]=tier=web']) {
    t.deepEqual(await names(query), ['a'], query);
  }
  t.deepEqual(await names('tag[]=app'), ['a', 'c']);
  for (const query of [`ids[]=${a.uuid}&ids[]=${c.uuid}`, `ids[0]=${a.uuid}&ids[1]=${c.uuid}`, `ids=${a.uuid}&ids=${c.uuid}`]) {
    t.deepEqual(await names(query), ['a', 'c'], query);
  }
  const bad = await api.get(`/jobs?ids[]=nope`);
  t.is(bad.status, 400);
  t.regex((bad.body as ApiErrorBody).message, /query ids: .*not a UUID/);
  const health = await api.get<unknown[]>(`/jobs/health?ids[]=${a.uuid}`);
  t.is(health.status, 200);
  const pkgs = await api.get<unknown[]>(`/packages?tag[]=nosuch-${unique()}`);
  t.deepEqual(pkgs.body, []);
});

test('api: cluster info, administrator and version', async (t) => {
  const api = suite.api();
  const info = await api.get<{ name: string; url: string; cluster_domain: string }>('/info');
  t.is(info.headers.get('content-type'), 'application/vnd.platform.info;version=1');
  t.is(info.body.name, 'platform');
  t.is(info.body.url, suite.controller().url);
  t.is(info.body.cluster_domain, '');
  const admin = await api.get<{ name: string; email: string }>('/cluster/admin');
  t.deepEqual(Object.keys(admin.body).sort(), ['email', 'name']);
  t.is(admin.body.name, 'admin');
  const version = await api.get<Record<string, unknown>>('/version');
  t.is(version.headers.get('content-type'), 'application/vnd.platform.versioninfo;version=1');
  t.regex(String(version.body['version']), /^\d+\.\d+\.\d+/);
  for (const k of ['major', 'minor', 'patch']) t.is(typeof version.body[k], 'number');
  for (const k of ['build_id', 'build_number']) t.is(typeof version.body[k], 'string');
  // The command-line client of every platform of GET /cli/download, built with the repository (cli/scripts/build-downloads.mjs).
  const downloads = version.body['download_urls'] as Record<string, { url: string; size: number; sha256: string }>;
  t.deepEqual(Object.keys(downloads).sort(), ['darwin', 'darwin_amd64', 'linux', 'linux_amd64', 'osx', 'osx_amd64']);
  for (const [platform, d] of Object.entries(downloads)) {
    t.is(d.url, `${suite.controller().url}/v1/cli/download/${platform}`);
    t.true(Number.isInteger(d.size) && d.size > 0);
    t.regex(d.sha256, /^[0-9a-f]{64}$/);
  }
});

test('api: /metrics exposes request, actor and store metrics for Prometheus', async (t) => {
  const api = suite.api();
  await api.get('/jobs');
  const r = await api.get('/metrics');
  t.is(r.status, 200);
  t.regex(r.headers.get('content-type') ?? '', /text\/plain/);
  for (const name of [
    'platform_http_requests_total{method="GET",route="/jobs",status="200"}',
    'platform_http_request_duration_seconds_bucket',
    'platform_actor_mailbox_depth{kind="job"}',
    'platform_actors_live{kind="package"}',
    'platform_store_operation_duration_seconds_bucket',
    'platform_store_commit_thread{thread="main"}',
    'platform_store_commit_thread{thread="writer"}',
    'platform_controller_process_cpu_seconds_total',
  ]) {
    t.true(r.text.includes(name), name);
  }
});

test('api: a JSON answer carries its length, type, ETag and request id; a HEAD gets the same headers and no body', async (t) => {
  const api = suite.api();
  const created = await api.post<Job>('/jobs', { fqn: `job::/conv::${unique()}` });
  t.is(created.status, 200);
  const path = `/v1/jobs/${created.body.uuid}`;
  const get = await api.fetch(path);
  const text = await get.text();
  t.is(get.status, 200);
  t.is(get.headers.get('content-length'), String(Buffer.byteLength(text)));
  t.is(JSON.parse(text).uuid, created.body.uuid);
  const head = await api.fetch(path, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(await head.text(), '');
  for (const name of ['content-type', 'content-length', 'etag', 'vary', 'minimum-client-version']) t.is(head.headers.get(name), get.headers.get(name), name);
  t.regex(head.headers.get('x-request-id') ?? '', /^[a-z0-9]{20}$/);
  // The connection is fit for the next request after either (keep-alive, whole answers).
  const again = await api.fetch(path);
  t.is(await again.text(), text);
});
