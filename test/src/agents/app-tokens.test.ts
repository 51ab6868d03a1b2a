/**
 * App tokens on a real controller and agent: a job with app_token finds a token of its own
 * principal in a file and in its environment, calls the API with it for what policy grants the
 * job, sees it renewed without a restart, and loses it when the setting goes (for good: given
 * again, it comes with new tokens) or the job does.
 */
import test from 'ava';
import type { ApiErrorBody, Job } from '@platform/controller';
import { tarGz, uploadPackage } from '../harness/apps.js';
import { callInstance, runningInstances, startCluster, type ApiInstance } from '../harness/cluster.js';
import { unique } from '../harness/fixtures.js';
import { ApiClient } from '../harness/http.js';
import { decodePayload } from '../harness/jwt.js';
import { eventually } from '../harness/wait.js';

/** Answers its tokens, and calls the API with the token of its file: GET /call?path=/v1/... */
const APP = `
const http = require('node:http');
const fs = require('node:fs');
http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  const file = process.env.PLATFORM_TOKEN_FILE ? fs.readFileSync(process.env.PLATFORM_TOKEN_FILE, 'utf8') : null;
  let call = null;
  if (url.pathname === '/call') {
    const r = await fetch(process.env.PLATFORM_API_URL + url.searchParams.get('path'), { method: url.searchParams.get('method') || 'GET', headers: { authorization: 'Bearer ' + file, 'content-type': 'application/json' }, body: url.searchParams.get('body') || undefined });
    call = { status: r.status, body: await r.json().catch(() => null) };
  }
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ env: process.env.PLATFORM_API_TOKEN ?? null, file, pid: process.pid, api: process.env.PLATFORM_API_URL ?? null, call }));
}).listen(Number(process.env.PORT));
`;

interface Answer {
  env: string | null;
  file: string | null;
  pid: number;
  api: string | null;
  call: { status: number; body: unknown } | null;
}

test('app tokens: an app lists its own instances with its token, is refused the rest, gets it renewed in place, and loses it with the setting or the job', async (t) => {
  const cluster = await startCluster(t, [{}], { env: { PLATFORM_APP_TOKEN_TTL_SECONDS: '20' } });
  const { api, controller } = cluster;
  const ns = `/sandbox/${unique('a')}`;
  const fqn = `job::${ns}::app`;
  // What policy grants the job's principal: reading the jobs of its namespace.
  const policy = await api.put('/v1/policy', { docs: [{ name: unique('apps'), for_version: 0, text: `job::${ns} { if (app_auth@platform->name == "${fqn}") { permit read } }` }] });
  t.is(policy.status, 200, policy.text);
  const pkg = await uploadPackage(api, ns, tarGz({ 'app/server.js': APP }));
  const created = await api.post<Job>('/jobs', {
    fqn,
    num_instances: 1,
    packages: [{ uuid: pkg.uuid }],
    processes: { app: { start_command: 'node /app/server.js' } },
    ports: [{ number: 0, optional: false }],
    resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024 },
    app_token: true,
    state: 'started',
  });
  t.is(created.status, 200, created.text);
  t.true(created.body.app_token);
  const job = created.body.uuid;
  const [instance] = await runningInstances(api, job, 1);
  const first = await callInstance<Answer>(instance!);
  t.truthy(first.file);
  t.is(first.env, first.file, 'the variable holds the token the instance started with');
  t.is(first.api, controller.url);
  t.like(decodePayload(first.file!), { sub: fqn, name: fqn, mechanism: 'app', job });

  // Its own instances, through the API, with its own token.
  const listed = await callInstance<Answer>(instance!, `/call?path=${encodeURIComponent(`/v1/jobs/${job}/instances`)}`);
  t.is(listed.call?.status, 200, JSON.stringify(listed.call));
  t.deepEqual((listed.call?.body as ApiInstance[]).map((i) => i.uuid), [instance!.uuid]);
  // What policy does not grant: creating a job, reading elsewhere.
  const create = await callInstance<Answer>(instance!, `/call?method=POST&path=/v1/jobs&body=${encodeURIComponent(JSON.stringify({ fqn: `job::${ns}::other` }))}`);
  t.is(create.call?.status, 403);
  t.deepEqual((create.call?.body as ApiErrorBody).missing_claims, [`permit create on job::${ns}::other`]);
  t.is((await callInstance<Answer>(instance!, '/call?path=/v1/users')).call?.status, 403);

  // Renewed before it expires, in the file, without a restart.
  const renewed = await eventually(
    async () => {
      const a = await callInstance<Answer>(instance!);
      return a.file !== first.file ? a : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 500, what: 'the token file renewed' },
  );
  t.is(renewed.pid, first.pid, 'the same process');
  t.is((await runningInstances(api, job, 1))[0]!.uuid, instance!.uuid, 'the same instance');
  t.true((decodePayload(renewed.file!)['exp'] as number) > (decodePayload(first.file!)['exp'] as number));
  const appApi = new ApiClient(controller.url, { authorization: `Bearer ${renewed.file}` });
  t.is((await appApi.get(`/jobs/${job}`)).status, 200);

  // The setting removed: the token is dead at once.
  t.is((await api.patch(`/jobs/${job}`, { app_token: false })).status, 200);
  const off = await appApi.get<ApiErrorBody>(`/jobs/${job}`);
  t.is(off.status, 401);
  t.true(off.body.token_invalid);
  t.is(off.body.message, `the job ${fqn} no longer has app tokens (app_token is off)`);

  // On again: the token of before stays dead (a new turn of the setting), the new instances get
  // a new token; the job deleted, that one is dead too.
  t.is((await api.patch(`/jobs/${job}`, { app_token: true })).status, 200);
  const stale = await appApi.get<ApiErrorBody>(`/jobs/${job}`);
  t.is(stale.status, 401);
  t.is(stale.body.message, `the app_token setting of the job ${fqn} was removed since this token was issued; its instances have a new one`);
  const again = await eventually(
    async () => {
      const [i] = await runningInstances(api, job, 1);
      const a = await callInstance<Answer>(i!);
      return a.file ? a : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500, what: 'an instance with a token again' },
  );
  const againApi = new ApiClient(controller.url, { authorization: `Bearer ${again.file}` });
  t.is((await againApi.get(`/jobs/${job}`)).status, 200);
  t.is((await api.patch(`/jobs/${job}`, { state: 'stopped' })).status, 200);
  t.is((await api.delete(`/jobs/${job}`)).status, 200);
  const gone = await againApi.get<ApiErrorBody>(`/jobs`);
  t.is(gone.status, 401);
  t.is(gone.body.message, `the job ${fqn} of this app token has been deleted`);
});
