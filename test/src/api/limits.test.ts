/** Bounded resources: nesting depth, login throttling per source, aggregated login refusals, audit retention. */
import test from 'ava';
import type { ApiErrorBody, AuditLogItem } from '@platform/controller';
import { ControllerProcess } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import { ApiClient, basicAuth } from '../harness/http.js';
import { useController } from '../harness/suite.js';
import { eventually } from '../harness/wait.js';

const suite = useController(test);

const wrongLogin = (url: string, name: string) =>
  new ApiClient(url).post<ApiErrorBody>('/v1/oauth2/token', undefined, { headers: { authorization: basicAuth(name, 'wrong password') } });

test('limits: deeply nested JSON bodies answer 400, not 500, and change nothing', async (t) => {
  const api = suite.api();
  const fqn = `job::/limits::${unique()}`;
  for (const depth of [100, 10_000, 100_000]) {
    const body = `{"fqn":"${fqn}","tags":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const r = await api.post<ApiErrorBody>('/v1/jobs', body, { headers: { 'content-type': 'application/json' } });
    t.is(r.status, 400, `depth ${depth}`);
    t.regex(r.body.message, /nests arrays and objects deeper than 64 levels/);
    t.truthy(r.body.request_id);
  }
  t.deepEqual((await api.get<unknown[]>(`/v1/jobs?fqn=${fqn}`)).body, []);
  // Brackets inside strings are text, not nesting.
  const ok = await api.post('/v1/jobs', `{"fqn":"${fqn}","tags":{"x":"${'['.repeat(10_000)}"}}`, { headers: { 'content-type': 'application/json' } });
  t.is(ok.status, 200);
});

test('limits: a policy document nested 20,000 parentheses deep answers 400 naming the line and column', async (t) => {
  const text = `job::/deep { if (${'('.repeat(20_000)}auth_server@platform->name == "x"${')'.repeat(20_000)}) { permit read } }`;
  const r = await suite.api().put<ApiErrorBody>('/v1/policy', { docs: [{ name: unique('deep'), for_version: 0, text }] });
  t.is(r.status, 400);
  t.regex(r.body.message, /nest deeper than 32 levels/);
  const chain = `job::/deep { if (${Array.from({ length: 10_000 }, () => 'auth_server@platform->name == "x"').join(' && ')}) { permit read } }`;
  const long = await suite.api().put<ApiErrorBody>('/v1/policy', { docs: [{ name: unique('long'), for_version: 0, text: chain }] });
  t.is(long.status, 400);
  t.regex(long.body.message, /more than 256 comparisons/);
});

test('limits: refused logins are aggregated into one auth.deny record per name and source, with a count', async (t) => {
  const url = suite.controller().url;
  const name = unique('victim');
  const start = Math.floor(Date.now() / 1000);
  const answers = [];
  for (let i = 0; i < 40; i++) answers.push((await wrongLogin(url, name)).status);
  t.true(answers.includes(401) && answers.includes(429), 'wrong passwords, then throttled ones');
  const items = (await suite.api().get<AuditLogItem[]>(`/v1/audit?event_type=auth.deny&fqn=${encodeURIComponent(`auth::/::${name}`)}&start_time=${start}`)).body;
  t.is(items.length, 1, 'one record, not forty');
  t.is(items[0]!.audit_payload['count'], 1, 'its count is rewritten when the interval ends');
  t.is(items[0]!.audit_payload['source'], '127.0.0.1');
});

test('limits: one address spraying a password over many names is throttled, whatever the names', async (t) => {
  const controller = await ControllerProcess.start();
  t.teardown(() => controller.dispose());
  const statuses: number[] = [];
  for (let i = 0; i < 35; i++) statuses.push((await wrongLogin(controller.url, unique(`spray${i}`))).status);
  t.deepEqual(statuses.slice(0, 30), Array<number>(30).fill(401));
  t.true(statuses.slice(30).every((s) => s === 429), statuses.join(','));
  const blocked = await new ApiClient(controller.url).post<ApiErrorBody>('/v1/oauth2/token', undefined, { headers: { authorization: basicAuth('admin', 'test-admin-password') } });
  t.is(blocked.status, 429, 'even a right password waits while the address must');
  t.regex(blocked.body.message, /from this address/);
  t.true(blocked.body.retry);
});

test('limits: --audit-retention deletes audit items older than it', async (t) => {
  const controller = await ControllerProcess.start({ args: ['--audit-retention', '2s'] });
  t.teardown(() => controller.dispose());
  const api = await controller.admin();
  const fqn = `job::/retention::${unique()}`;
  t.is((await api.post('/v1/jobs', { fqn })).status, 200);
  const find = async () => (await api.get<AuditLogItem[]>(`/v1/audit?fqn=${encodeURIComponent(fqn)}`)).body;
  t.is((await find()).length, 1);
  await eventually(async () => ((await find()).length === 0 ? true : undefined), { what: 'the old item to be deleted', timeoutMs: 20_000 });
  t.pass();
});

test('limits: a bad --audit-retention stops the start with a clear message', async (t) => {
  const err = await t.throwsAsync(ControllerProcess.start({ args: ['--audit-retention', 'forever'] }));
  t.regex(err.message, /--audit-retention "forever" is not a duration/);
});

test('limits: listings page through the FQN index with the same results as the whole list', async (t) => {
  const api = suite.api();
  const ns = `/paging/${unique()}`;
  const names = Array.from({ length: 23 }, (_, i) => `j${String((i * 7) % 23).padStart(2, '0')}`);
  for (const [i, name] of names.entries()) {
    t.is((await api.post('/v1/jobs', { fqn: `job::${ns}${i % 2 ? '/sub' : ''}::${name}`, tags: i % 3 ? { odd: '' } : { even: 'x' } })).status, 200);
  }
  type Listed = { fqn: string };
  const all = (await api.get<Listed[]>(`/v1/jobs?fqn=job::${ns}&matchPartialFQN=true`)).body.map((j) => j.fqn);
  t.is(all.length, 23);
  t.deepEqual(all, [...all].sort());
  for (const filter of ['', '&tag=odd', '&tag=even=x']) {
    const full = (await api.get<Listed[]>(`/v1/jobs?fqn=job::${ns}&matchPartialFQN=true${filter}`)).body.map((j) => j.fqn);
    if (filter !== '') t.true(full.length > 0 && full.length < 23, filter);
    const pages: string[] = [];
    for (let page = 1; page <= 5; page++) {
      pages.push(...(await api.get<Listed[]>(`/v1/jobs?fqn=job::${ns}&matchPartialFQN=true${filter}&count=5&page=${page}`)).body.map((j) => j.fqn));
    }
    t.deepEqual(pages, full, `pages of ${filter || 'everything'}`);
    t.deepEqual((await api.get<Listed[]>(`/v1/jobs?fqn=job::${ns}&matchPartialFQN=true${filter}&count=5&page=9`)).body, []);
  }
  const firstPage = (await api.get<Listed[]>('/v1/jobs?count=3')).body.map((j) => j.fqn);
  const everything = (await api.get<Listed[]>('/v1/jobs')).body.map((j) => j.fqn);
  t.deepEqual(firstPage, everything.slice(0, 3));
});

test('limits: tag listings follow changes of a job\'s tags and its deletion', async (t) => {
  const api = suite.api();
  const ns = `/tagged/${unique()}`;
  type Listed = { fqn: string; uuid: string; version_id: number };
  const tagged = async (tag: string) => (await api.get<Listed[]>(`/v1/jobs?fqn=job::${ns}&matchPartialFQN=true&tag=${encodeURIComponent(tag)}&count=10`)).body.map((j) => j.fqn);
  const long = 'v'.repeat(500);
  const job = (await api.post<Listed & Record<string, unknown>>('/v1/jobs', { fqn: `job::${ns}::a`, tags: { color: 'red', size: long } })).body;
  t.deepEqual(await tagged('color=red'), [`job::${ns}::a`]);
  t.deepEqual(await tagged(`size=${long}`), [`job::${ns}::a`]);
  t.is((await api.put(`/v1/jobs/${job.uuid}`, { fqn: job.fqn, tags: { color: 'blue' } })).status, 200);
  t.deepEqual(await tagged('color=red'), []);
  t.deepEqual(await tagged('color=blue'), [`job::${ns}::a`]);
  t.deepEqual(await tagged('color'), [`job::${ns}::a`]);
  t.deepEqual(await tagged('size'), []);
  t.deepEqual((await api.get<Listed[]>(`/v1/jobs?fqn=job::${ns}&matchPartialFQN=true&tag=color&tag=other&count=10`)).body, [], 'every tag must match');
  t.is((await api.delete(`/v1/jobs/${job.uuid}`)).status, 200);
  t.deepEqual(await tagged('color'), []);
});
