import test from 'ava';
import type { ApiErrorBody, AuditLogItem, Job, Package, StagingPipeline } from '@platform/controller';
import { appJob, archive, digestOf, unique } from '../harness/fixtures.js';
import { ApiClient, basicAuth as basic, type TokenReply } from '../harness/http.js';
import { decodeUserinfo } from '../harness/jwt.js';
import { createPackage } from '../harness/packages.js';
import { useController } from '../harness/suite.js';
import { eventually } from '../harness/wait.js';

const suite = useController(test);

interface PolicyDocument {
  name: string;
  description: string;
  updated_at: string;
  text: string;
  version: string;
}

const PASSWORD = 'a long enough password';

const makeUser = (name: string) => suite.api().createUser(name, PASSWORD);

async function putPolicy(docs: { name: string; for_version: number | string; text: string; description?: string }[], api = suite.api()) {
  return api.put<PolicyDocument[] & ApiErrorBody>('/v1/policy', { docs });
}

/** Adds a policy document (a new name) as the administrator. */
async function addPolicy(text: string, name = unique('doc')): Promise<string> {
  const r = await putPolicy([{ name, for_version: 0, text }]);
  if (r.status !== 200) throw new Error(`policy ${name}: ${r.status} ${r.text}`);
  return name;
}

async function auditOf(eventType: string, fqn: string): Promise<AuditLogItem[]> {
  const r = await suite.api().get<AuditLogItem[]>(`/audit?event_type=${eventType}&fqn=${encodeURIComponent(fqn)}`);
  return r.body;
}

test('policy: GET lists the bootstrap policy; PUT writes versions, guarded by for_version', async (t) => {
  const api = suite.api();
  const list = await api.get<PolicyDocument[]>('/v1/policy');
  t.is(list.status, 200);
  t.is(list.headers.get('content-type'), 'application/json; charset=utf-8');
  const bootstrap = list.body.find((d) => d.name === 'bootstrap')!;
  t.truthy(bootstrap);
  t.is(typeof bootstrap.version, 'string');
  t.regex(bootstrap.text, /role admin/);
  t.deepEqual(Object.keys(bootstrap).sort(), ['description', 'name', 'text', 'updated_at', 'version']);

  const name = unique('versions');
  const v1 = await putPolicy([{ name, for_version: 0, text: 'job::/versions { permit read }', description: 'a test' }]);
  t.is(v1.status, 200);
  t.like(v1.body[0], { name, version: '1', description: 'a test' });
  const v2 = await putPolicy([{ name, for_version: '1', text: 'job::/versions { permit read, update }' }]);
  t.like(v2.body[0], { version: '2' });
  const stale = await putPolicy([{ name, for_version: 1, text: 'job::/versions { permit delete }' }]);
  t.is(stale.status, 409);
  t.true(stale.body.request_invalid);
  t.regex(stale.body.message, /is at version 2, not 1/);

  t.is((await api.get<PolicyDocument>(`/v1/policy/${name}`)).body.text, 'job::/versions { permit read, update }');
  t.is((await api.get<PolicyDocument>(`/v1/policy/${name}?version=1`)).body.text, 'job::/versions { permit read }');
  t.is((await api.get<PolicyDocument>(`/policy/${name}`)).body.version, '2', 'the path works without /v1 too');
  t.is((await api.get<ApiErrorBody>(`/v1/policy/${name}?version=9`)).status, 404);
  t.is((await api.get<ApiErrorBody>(`/v1/policy/${unique('missing')}`)).status, 404);
  t.is((await api.get<ApiErrorBody>(`/v1/policy/${name}?version=zero`)).status, 400);

  const records = await auditOf('policy.update', `policydoc::/::${name}`);
  t.is(records.length, 1);
  t.is(records[0]!.principal_name, 'admin@platform.local');
});

test('policy: a parse error answers 400 with line and column; over 512 KB is 413; a bad PUT writes nothing', async (t) => {
  const good = unique('good');
  const bad = unique('bad');
  const r = await putPolicy([
    { name: good, for_version: 0, text: 'job::/fine { permit read }' },
    { name: bad, for_version: 0, text: 'job::/x {\n  if (auth_server@platform->name == "tom") permit read }\n}' },
  ]);
  t.is(r.status, 400);
  t.is(r.body.message, `policy "${bad}" line 2, column 44: expected "{", found "permit"`);
  t.like(r.body.error_details, { policy: bad, line: 2, column: 44 });

  const big = await putPolicy([{ name: unique('big'), for_version: 0, text: `job::/big { permit read }\n${'#'.repeat(512 * 1024)}` }]);
  t.is(big.status, 413);
  t.regex(big.body.message, /over the limit of 524288 bytes/);
  const justFits = await putPolicy([{ name: unique('fits'), for_version: 0, text: `job::/fits { permit read }\n${'#'.repeat(512 * 1024 - 100)}` }]);
  t.is(justFits.status, 200);

  const names = (await suite.api().get<PolicyDocument[]>('/v1/policy')).body.map((d) => d.name);
  t.false(names.includes(good), 'the good document of the refused PUT was not written');
  t.false(names.includes(bad));
  t.is((await suite.api().put<ApiErrorBody>('/v1/policy', { docs: 'nope' })).status, 400);
});

test('policy: the same user is allowed in one namespace and denied in another; denials are audited', async (t) => {
  const name = unique('tom');
  const tom = await makeUser(name);
  const blue = `/blue/${unique()}`;
  const red = `/red/${unique()}`;
  const green = `/green/${unique()}`;
  const packages = `/packages/${unique()}`;
  // A job may name only packages its creator may use (docs/policy.md, references).
  await addPolicy(`
    on job::${blue} { if (auth_server@platform->name == "${name}") { permit create, read, update, delete, start, stop } }
    on job::${green} { if (auth_server@platform->name == "${name}") { permit read } }
    on package::${packages} { if (auth_server@platform->name == "${name}") { permit read, use } }
  `);

  const ready = await createPackage(suite.api(), packages, { upload: true });
  const mine = await tom.post<Job>('/jobs', appJob(`job::${blue}::app`, { packages: [{ uuid: ready.uuid }] }));
  t.is(mine.status, 200);
  t.is(mine.body.created_by, `${name}@platform.local`);
  const sandbox = await tom.post<Job>('/jobs', appJob(`job::/sandbox/${name}::app`));
  t.is(sandbox.status, 200, 'the bootstrap policy gives every user a sandbox');

  const denied = await tom.post<ApiErrorBody>('/jobs', appJob(`job::${red}::app`));
  t.is(denied.status, 403);
  t.true(denied.body.fatal);
  t.deepEqual(denied.body.missing_claims, [`permit create on job::${red}::app`]);
  const records = await auditOf('policy.access.denied', `job::${red}::app`);
  t.is(records.length, 1);
  t.like(records[0], {
    event_type: 'policy.access.denied',
    event_type_int: 1008,
    principal_name: `${name}@platform.local`,
    resource_type: 'job',
    namespace: red,
    localname: 'app',
    audit_payload: { claim: { claimtype: 'permit', claimvalue: 'create' } },
  });
  t.is((await auditOf('policy.access.allowed', `job::${blue}::app`)).length, 0, 'allowed checks are not recorded under log deny');

  // A job the user may not read is not found; one it may read but not change is forbidden.
  const theirs = await suite.api().post<Job>('/jobs', appJob(`job::${red}::theirs`));
  const readOnly = await suite.api().post<Job>('/jobs', appJob(`job::${green}::shown`));
  for (const [method, path] of [['GET', `/jobs/${theirs.body.uuid}`], ['DELETE', `/jobs/${theirs.body.uuid}`], ['PUT', `/jobs/${theirs.body.uuid}`]] as const) {
    const r = await tom.request<ApiErrorBody>(method, path, method === 'PUT' ? { body: appJob(`job::${red}::theirs`) } : {});
    t.is(r.status, 404, `${method} ${path}`);
    t.is(r.body.message, `job ${theirs.body.uuid} not found`);
  }
  t.is((await tom.get<Job>(`/jobs/${readOnly.body.uuid}`)).status, 200);
  const noDelete = await tom.delete<ApiErrorBody>(`/jobs/${readOnly.body.uuid}`);
  t.is(noDelete.status, 403);
  t.deepEqual(noDelete.body.missing_claims, [`permit delete on job::${green}::shown`]);
  const start = await tom.put<ApiErrorBody>(`/jobs/${mine.body.uuid}`, appJob(`job::${blue}::app`, { packages: [{ uuid: ready.uuid }], state: 'started' }));
  t.is(start.status, 200, 'start is granted in blue');
  t.is((await suite.api().get<Job>(`/jobs/${theirs.body.uuid}`)).status, 200, 'the administrator reads everything');
  t.is((await tom.delete(`/jobs/${mine.body.uuid}`)).status, 200);
});

test('policy: listings show only what the caller may read, paged after filtering', async (t) => {
  const name = unique('lister');
  const user = await makeUser(name);
  const ns = `/list/${unique()}`;
  await addPolicy(`on *::${ns}/open { if (auth_server@platform->name == "${name}") { permit read } }`);
  const admin = suite.api();
  const ready = await createPackage(admin, `/packages/${unique()}`, { upload: true });
  const started = { packages: [{ uuid: ready.uuid }], state: 'started' };
  const open: Job[] = [];
  for (let i = 0; i < 5; i++) {
    open.push((await admin.post<Job>('/jobs', appJob(`job::${ns}/open::j${i}`, started))).body);
    await admin.post<Job>('/jobs', appJob(`job::${ns}/closed::j${i}`, started));
  }
  const all = await user.get<Job[]>(`/jobs?fqn=job::${ns}&matchPartialFQN=true`);
  t.deepEqual(all.body.map((j) => j.fqn), open.map((j) => j.fqn));
  const page2 = await user.get<Job[]>(`/jobs?fqn=job::${ns}&matchPartialFQN=true&count=2&page=2`);
  t.deepEqual(page2.body.map((j) => j.fqn), [`job::${ns}/open::j2`, `job::${ns}/open::j3`]);
  t.is((await admin.get<Job[]>(`/jobs?fqn=job::${ns}&matchPartialFQN=true`)).body.length, 10);
  const everything = await user.get<Job[]>('/jobs');
  t.true(everything.body.every((j) => j.fqn.startsWith(`job::${ns}/open::`) || j.fqn.startsWith(`job::/sandbox/${name}::`)));

  const allIds = (await admin.get<Job[]>(`/jobs?fqn=job::${ns}&matchPartialFQN=true`)).body.map((j) => j.uuid);
  const health = await user.get<{ uuid: string }[]>(`/jobs/health?ids=${allIds.join(',')}`);
  t.deepEqual(health.body.map((h) => h.uuid).sort(), open.map((j) => j.uuid).sort());

  const data = archive();
  for (const where of ['open', 'closed']) {
    const r = await admin.post<Package>('/packages', { fqn: `package::${ns}/${where}::p`, resources: [{ length: data.length, digest: digestOf(data) }] });
    t.is(r.status, 200);
    const p = await admin.post<StagingPipeline>('/stagingpipelines', { fqn: `stagpipe::${ns}/${where}::s` });
    t.is(p.status, 200);
  }
  const packages = await user.get<Package[]>(`/packages?fqn=package::${ns}&matchPartialFQN=true`);
  t.deepEqual(packages.body.map((p) => p.fqn), [`package::${ns}/open::p`]);
  const pipelines = await user.get<StagingPipeline[]>('/stagingpipelines');
  t.true(pipelines.body.some((p) => p.fqn === `stagpipe::${ns}/open::s`));
  t.false(pipelines.body.some((p) => p.fqn === `stagpipe::${ns}/closed::s`));
  const closedPipeline = (await admin.get<StagingPipeline[]>(`/stagingpipelines?fqn=stagpipe::${ns}/closed::s`)).body[0]!;
  t.is((await user.get(`/stagingpipelines/${closedPipeline.uuid}`)).status, 404);
  const closedPackage = (await admin.get<Package[]>(`/packages?fqn=package::${ns}/closed::p`)).body[0]!;
  t.is((await user.get(`/packages/${closedPackage.uuid}`)).status, 404);
  t.is((await user.put(`/packages/${closedPackage.uuid}/resources/${closedPackage.resources[0]!.uuid}`, data)).status, 404);
  const openPackage = packages.body[0]!;
  const upload = await user.put<ApiErrorBody>(`/packages/${openPackage.uuid}/resources/${openPackage.resources[0]!.uuid}`, data);
  t.is(upload.status, 403, 'reading a package does not allow uploading its archive');
  t.deepEqual(upload.body.missing_claims, [`permit update on package::${ns}/open::p`]);
});

test.serial('policy: tokenTimeout sets expires_in; defaultNamespace reaches userinfo; permit issue decides the login', async (t) => {
  const shorty = unique('shorty');
  const banned = unique('banned');
  await makeUser(shorty);
  await makeUser(banned);
  await addPolicy(`on auth::/ { if (auth_server@platform->name == "${shorty}") { tokenTimeout "120s" defaultNamespace "/teams/short" } }`, unique('ztimeout'));
  const anonymous = new ApiClient(suite.controller().url);
  const login = (user: string) => anonymous.post<TokenReply & ApiErrorBody>('/v1/oauth2/token', undefined, { headers: { authorization: basic(user, PASSWORD) } });
  const short = await login(shorty);
  t.is(short.status, 200);
  t.is(short.body.expires_in, '120');
  const payload = JSON.parse(Buffer.from(short.body.access_token.split('.')[1]!, 'base64url').toString()) as { exp: number; iat: number };
  t.is(payload.exp - payload.iat, 120);
  const userinfo = short.headers.getSetCookie().find((c) => c.startsWith('userinfo='))!;
  t.regex(userinfo, /Max-Age=120/);
  const info = decodeUserinfo(userinfo);
  t.is(info['default_namespace'], '/teams/short');
  const normal = await login(banned);
  t.is(normal.body.expires_in, '86400');

  // Take `permit issue` away from one user by changing the bootstrap document.
  const bootstrap = (await suite.api().get<PolicyDocument>('/v1/policy/bootstrap')).body;
  const text = bootstrap.text.replace('  permit issue\n', `  if (auth_server@platform->name != "${banned}") { permit issue }\n`);
  t.not(text, bootstrap.text);
  t.is((await putPolicy([{ name: 'bootstrap', for_version: bootstrap.version, text }])).status, 200);
  const refused = await login(banned);
  t.is(refused.status, 403);
  t.deepEqual(refused.body.missing_claims, ['permit issue on auth::/']);
  const denials = await auditOf('auth.deny', `auth::/::${banned}`);
  t.is(denials.length, 1);
  t.is((await login(shorty)).status, 200);
});

test.serial('policy: only holders of permit read/update on policy::/ see or change policy; nobody locks themselves out', async (t) => {
  const user = await makeUser(unique('plain'));
  const read = await user.get<ApiErrorBody>('/v1/policy');
  t.is(read.status, 403);
  t.deepEqual(read.body.missing_claims, ['permit read on policy::/']);
  const change = await putPolicy([{ name: unique('mine'), for_version: 0, text: 'job::/ { permit read }' }], user);
  t.is(change.status, 403);
  t.deepEqual(change.body.missing_claims, ['permit update on policy::/']);
  t.is((await user.get<ApiErrorBody>('/v1/users')).status, 403);
  t.is((await user.get<ApiErrorBody>('/audit')).status, 403);

  const bootstrap = (await suite.api().get<PolicyDocument>('/v1/policy/bootstrap')).body;
  const lockout = await putPolicy([{ name: 'bootstrap', for_version: bootstrap.version, text: 'job::/ { permit read }' }]);
  t.is(lockout.status, 409);
  t.regex(lockout.body.message, /would take permit update on policy::\/ away from admin@platform.local/);
});

test('policy: log allow records allowed checks for the callers it names', async (t) => {
  const name = unique('loud');
  const loud = await makeUser(name);
  // Documents apply in name order; "zz" sorts after "bootstrap", so its log setting wins.
  await addPolicy(`on audit::/ { if (auth_server@platform->name == "${name}") { log allow } }`, unique('zzlog'));
  const r = await loud.post<Job>('/jobs', appJob(`job::/sandbox/${name}::app`));
  t.is(r.status, 200);
  // The request does not wait for an allowed check's record: wait for it here.
  const allowed = await eventually(async () => {
    const items = await auditOf('policy.access.allowed', `job::/sandbox/${name}::app`);
    return items.length > 0 ? items : undefined;
  }, { what: 'the policy.access.allowed record' });
  t.like(allowed[0], { principal_name: `${name}@platform.local`, audit_payload: { claim: { claimtype: 'permit', claimvalue: 'create' } } });
});
