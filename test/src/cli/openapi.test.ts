/**
 * The OpenAPI document against real answers: the typed client of @platform/cli drives a
 * cluster (a controller and an agent) through staging, a job, its logs and files, policy,
 * users and refusals, and every answer it receives is checked against GET /openapi.json
 * (operation, status, Content-Type, JSON body), and so is every JSON body it sends that the server
 * takes. Every operation the typed client calls is
 * in the document.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { OPERATIONS, PlatformClient, ApiError, type Package } from '@platform/cli';
import { tarGz } from '../harness/apps.js';
import { runningInstances, startCluster } from '../harness/cluster.js';
import { TEST_ADMIN_PASSWORD } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import { OpenApiValidator } from '../harness/openapi.js';
import { eventually } from '../harness/wait.js';

test('openapi: real answers of a whole deploy validate against the document, and the typed client calls only documented operations', async (t) => {
  t.timeout(4 * 60_000);
  const cluster = await startCluster(t, [{}]);
  const validator = await OpenApiValidator.load(cluster.controller.url);
  // The typed client's types are generated from cli/openapi.json: it must be the served document.
  const committed = JSON.parse(await readFile(join(dirname(fileURLToPath(import.meta.resolve('@platform/cli/package.json'))), 'openapi.json'), 'utf8')) as unknown;
  t.deepEqual(validator.doc, committed, 'cli/openapi.json is the served document: after changing an endpoint, run `npm run build && npm run gen:api -w cli` and build again');
  for (const op of OPERATIONS) {
    const [method, path] = op.split(' ') as [string, string];
    t.truthy(validator.doc.paths[path]?.[method.toLowerCase()], `the typed client's ${op} is in the document`);
  }

  const problems: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    // A JSON body the server took must be one the document describes (a refused one need not be).
    const sentType = new Headers(init?.headers).get('content-type') ?? '';
    if (res.ok && typeof init?.body === 'string' && sentType.includes('json')) problems.push(...validator.checkRequest(init.method ?? 'GET', url.pathname, sentType, init.body));
    const type = res.headers.get('content-type') ?? '';
    const text = type.includes('event-stream') ? '' : await res.clone().text();
    problems.push(...validator.check(init?.method ?? 'GET', url.pathname, res.status, type, text));
    return res;
  };
  const client = new PlatformClient({ url: cluster.controller.url, fetch: recording });
  client.token = (await client.login('admin', TEST_ADMIN_PASSWORD)).access_token;

  await client.info();
  await client.version();
  const runtimes = await client.runtimes();
  t.true(runtimes.some((r) => r.runtime === 'nodejs'));
  await client.instanceManagers();
  const pipeline = (await client.listPipelines('stagpipe::/platform::nodejs'))[0]!;
  await client.getPipeline(pipeline.uuid);

  const archive = tarGz({ 'server.js': "require('node:http').createServer((q, s) => s.end('hi')).listen(process.env.PORT, () => console.log('up'));", 'package.json': '{"name":"o"}' });
  const { createHash } = await import('node:crypto');
  const name = unique('oa');
  const pkg = await client.createPackage({
    fqn: `package::/sandbox/admin::${name}`,
    resources: [{ length: archive.length, digest: `sha256:${createHash('sha256').update(archive).digest('hex')}` }],
    staging_pipeline: { uuid: pipeline.uuid },
  });
  await client.uploadResource(pkg.uuid, pkg.resources[0]!.uuid, new Blob([archive]), archive.length);
  const ready = await eventually(
    async () => {
      const p: Package = await client.getPackage(pkg.uuid);
      return p.state === 'ready' || p.state === 'failed' ? p : undefined;
    },
    { timeoutMs: 120_000, what: 'the package staged' },
  );
  t.is(ready.state, 'ready', await client.packageLogs(pkg.uuid));
  await client.listPackages({ fqn: pkg.fqn });
  await (await client.downloadResource(pkg.uuid, pkg.resources[0]!.uuid)).arrayBuffer();

  const job = await client.createJob({
    fqn: `job::/sandbox/admin::${name}`,
    packages: [{ uuid: pkg.uuid }],
    processes: { app: {} },
    ports: [{ number: 0, routes: [{ type: 'http', auto_provision: true }] }],
    tags: { app: '' },
    state: 'started',
  });
  await runningInstances(cluster.api, job.uuid, 1, 120_000);
  await client.instances(job.uuid);
  await client.jobHealth([job.uuid]);
  await client.listJobs({ tag: ['app'] });
  await client.getJob(job.uuid);
  await eventually(async () => ((await client.jobLogs(job.uuid)).includes('up') ? true : undefined), { timeoutMs: 30_000, what: 'the app log line' });
  await client.files(job.uuid, '/app');
  await client.routes();
  const patched = await client.patchJob(job.uuid, { num_instances: 2 });
  await client.putJob(job.uuid, { ...patched, num_instances: 1 }, patched.version_id);
  await client.metrics('jobs', [`${job.fqn},cpu.mean`]);
  await client.metrics('namespaces', ['/sandbox/admin,mem_used.sum']);
  const manifest = { manifest: { jobs: { [`job::/sandbox/admin::${name}-m`]: { packages: [{ fqn: pkg.fqn }], exposed_ports: [0], instances: 1 } } } };
  await client.expandManifest(manifest);
  const { location } = await client.deployManifest(manifest);
  const taskId = location.slice(location.lastIndexOf('/') + 1);
  await eventually(async () => ((await client.getTask(taskId)).state !== 'running' ? true : undefined), { timeoutMs: 30_000, what: 'the manifest task' });
  await client.deleteJob((await client.findJob(`job::/sandbox/admin::${name}-m`))!.uuid);
  await client.audit({ limit: 5 });
  await client.auditEvents();
  await client.listPolicies();
  await client.getPolicy('bootstrap');
  await client.setUserPassword('openapi-user', 'a-long-password');
  await client.listUsers();
  await client.deleteUser('openapi-user');

  // Refusals: APIError bodies with their flags.
  const refused = async (call: Promise<unknown>, status: number) => {
    const err = await t.throwsAsync(call, { instanceOf: ApiError });
    t.is(err?.status, status);
    t.truthy(err?.requestId);
  };
  await refused(client.getJob('00000000-0000-4000-8000-000000000000'), 404);
  await refused(client.createJob({ fqn: 'not an fqn', num_instances: -1 }), 400);
  await refused(client.putPolicies([{ name: 'bad', text: 'on job::/ { oops }', for_version: 0 }]), 400);
  await refused(new PlatformClient({ url: cluster.controller.url, fetch: recording, token: 'x.y.z' }).listJobs(), 401);

  await client.patchJob(job.uuid, { state: 'stopped' });
  await client.deleteJob(job.uuid);
  await client.deletePackage(pkg.uuid);

  t.deepEqual(problems, [], 'every answer, and every JSON body the server took, matches the document');
  t.true(validator.checked.length >= 35, `${validator.checked.length} answers checked`);
});
