/**
 * The addresses users can make the platform reach (server-side request forgery): image pulls
 * (their registries, redirects and token services), log drains and http_metric urls are judged
 * by the destination rule. A user's pull naming a loopback server, the controller's own ports,
 * a name resolving to loopback or the metadata address is refused with 400 before anything is
 * made, and the server sees no request; a registry redirecting (or pointing its token realm) to
 * a refused address fails its task at that hop; drains and http_metric urls at such addresses
 * are refused unless listed, and an agent refuses to send to one it is not allowed (the
 * controller's list and the agent's are the operators' each).
 */
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import test, { type ExecutionContext } from 'ava';
import type { ApiErrorBody, Job } from '@platform/controller';
import { commandJob, tarGz, uploadPackage } from '../harness/apps.js';
import { runningInstances, startCluster } from '../harness/cluster.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { taskEnd } from '../harness/tasks.js';
import { etcdController, testDir, testEtcd } from '../harness/etcd-cluster.js';
import { eventually } from '../harness/wait.js';

const PASSWORD = 'a long enough password';

interface Task {
  state: string;
  errored: string;
  events: { payload: Record<string, string> }[];
}

/** An HTTP server on 127.0.0.1 that records every request it gets, answering with `handle` (404 by default). */
async function httpServer(t: ExecutionContext, handle?: (req: IncomingMessage, res: ServerResponse, port: number) => void): Promise<{ port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (handle) handle(req, res, port);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { port, seen };
}

async function controller(t: ExecutionContext, options: { allowedRegistries?: string[]; allowedDestinations?: string[] } = {}): Promise<ControllerProcess> {
  const proc = await ControllerProcess.start({ args: ['--router-listen', 'none'], ...options });
  t.teardown(() => proc.dispose());
  return proc;
}

const portOf = (hostPort: string) => hostPort.slice(hostPort.lastIndexOf(':') + 1);

test("destinations: a user's pull naming a loopback server, the controller's own ports, a name resolving to loopback or the metadata address is refused (400) before any task, and nothing is reached", async (t) => {
  const server = await httpServer(t);
  const proc = await controller(t);
  const admin = await proc.admin();
  const name = unique('mallory');
  const user = await admin.createUser(name, PASSWORD);
  const api = new URL(proc.url).port;
  const grpc = portOf(proc.grpcAddress);
  const cases: [string, RegExp][] = [
    [`127.0.0.1:${server.port}/x/y:1`, new RegExp(`^image_url: image pulls may not reach 127\\.0\\.0\\.1:${server.port}: 127\\.0\\.0\\.1 is a loopback address \\(an operator allows it by listing it in --allowed-registries \\(PLATFORM_ALLOWED_REGISTRIES\\)\\)$`)],
    [`http://127.0.0.1:${server.port}/x/y:1`, /127\.0\.0\.1 is a loopback address/],
    [`https://user:secret@127.0.0.1:${server.port}/x/y:1`, /127\.0\.0\.1 is a loopback address/],
    [`[::ffff:127.0.0.1]:${server.port}/x/y:1`, /::ffff:7f00:1 is a loopback address/],
    [`127.0.0.1:${api}/x/y:1`, new RegExp(`may not reach 127\\.0\\.0\\.1:${api}: 127\\.0\\.0\\.1 is a port the platform itself listens on`)],
    [`127.0.0.1:${grpc}/x/y:1`, /is a port the platform itself listens on/],
    [`localhost:${server.port}/x/y:1`, new RegExp(`image pulls may not reach localhost:${server.port}: it resolves to `)],
    ['169.254.169.254/latest/meta-data:1', /169\.254\.169\.254 is a link-local address/],
    ['0.0.0.0:80/x/y:1', /0\.0\.0\.0 is an unspecified address/],
  ];
  for (const [image, message] of cases) {
    for (const [path, body] of [
      ['/packages/container', { image_url: image, package_fqn: `package::/sandbox/${name}::${unique('p')}` }],
      ['/jobs/container', { image_url: image, job_fqn: `job::/sandbox/${name}::${unique('j')}` }],
    ] as const) {
      const r = await user.post<ApiErrorBody>(path, body);
      t.is(r.status, 400, `${path} ${image}: ${r.text}`);
      t.regex(r.body.message, message, image);
      t.like(r.body, { fatal: true, client_side: true });
      t.truthy(r.body.error_details?.['refusal'], r.text);
    }
  }
  // A manifest naming such an image is refused whole, before its task.
  const manifest = await user.post<ApiErrorBody>('/manifests', { jobs: { [`job::/sandbox/${name}::m`]: { docker: { image: `127.0.0.1:${server.port}/x/y:1` } } } });
  t.is(manifest.status, 400, manifest.text);
  t.regex(manifest.body.message, /^jobs\."job::\/sandbox\/.*::m"\.docker\.image: image pulls may not reach 127\.0\.0\.1:/);
  t.deepEqual(server.seen, [], 'the loopback server saw no request');
  const mine = (list: { fqn: string }[]) => list.filter((x) => x.fqn.includes(`/sandbox/${name}::`));
  t.deepEqual(mine((await user.get<{ fqn: string }[]>('/packages')).body), [], 'no package made');
  t.deepEqual(mine((await user.get<{ fqn: string }[]>('/jobs')).body), [], 'no job made');
});

test("destinations: a controller whose operator lists 127.0.0.1 lets pulls reach it, never its own listening ports", async (t) => {
  const server = await httpServer(t);
  const proc = await controller(t, { allowedRegistries: ['127.0.0.1'] });
  const admin = await proc.admin();
  for (const port of [new URL(proc.url).port, portOf(proc.grpcAddress)]) {
    const r = await admin.post<ApiErrorBody>('/packages/container', { image_url: `127.0.0.1:${port}/x/y:1`, package_fqn: `package::/sandbox/admin::${unique('own')}` });
    t.is(r.status, 400, r.text);
    t.regex(r.body.message, new RegExp(`^image_url: image pulls may not reach 127\\.0\\.0\\.1:${port}: 127\\.0\\.0\\.1 is a port the platform itself listens on \\(an operator allows it only by listing it with its port in --allowed-registries`));
    t.is(r.body.error_details?.['refusal'], 'own-listener');
  }
  // The listed server is asked (and answers no image: the task says so).
  const r = await admin.post<{ location: string }>('/packages/container', { image_url: `127.0.0.1:${server.port}/x/y:1`, package_fqn: `package::/sandbox/admin::${unique('ok')}` });
  t.is(r.status, 200, r.text);
  const task = await taskEnd<Task>(admin, r.body.location);
  t.is(task.errored, 'errored');
  t.regex(task.events.at(-1)!.payload['error'] ?? '', /not found in registry/);
  t.deepEqual(server.seen, ['GET /v2/x/y/manifests/1']);
});

test('destinations: a registry that redirects, or whose token realm points, to a refused address fails the task at that hop; that address sees no request and nothing is made', async (t) => {
  const forbidden = await httpServer(t, (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"token":"t"}'));
  const redirecting = await httpServer(t, (req, res) => res.writeHead(307, { Location: `http://127.0.0.1:${forbidden.port}/storage${req.url ?? ''}` }).end());
  const challenging = await httpServer(t, (_req, res) =>
    res.writeHead(401, { 'WWW-Authenticate': `Bearer realm="http://localhost:${forbidden.port}/token",service="registry",scope="repository:x/y:pull"` }).end(),
  );
  // The registries are listed with their ports; the address they send the pull to is not.
  const proc = await controller(t, { allowedRegistries: [`127.0.0.1:${redirecting.port}`, `127.0.0.1:${challenging.port}`] });
  const admin = await proc.admin();
  const name = unique('mallory');
  const user = await admin.createUser(name, PASSWORD);
  const cases: [number, RegExp][] = [
    [redirecting.port, new RegExp(`^the registry 127\\.0\\.0\\.1:${redirecting.port} \\(redirected to http://127\\.0\\.0\\.1:${forbidden.port}\\): image pulls may not reach 127\\.0\\.0\\.1:${forbidden.port}: 127\\.0\\.0\\.1 is a loopback address`)],
    [challenging.port, new RegExp(`^the token service of registry 127\\.0\\.0\\.1:${challenging.port} \\(http://localhost:${forbidden.port}\\): image pulls may not reach localhost:${forbidden.port}: it resolves to `)],
  ];
  for (const [port, message] of cases) {
    const fqn = `package::/sandbox/${name}::${unique('p')}`;
    const r = await user.post<{ location: string }>('/packages/container', { image_url: `127.0.0.1:${port}/x/y:1`, package_fqn: fqn });
    t.is(r.status, 200, r.text);
    const task = await taskEnd<Task>(user, r.body.location);
    t.is(task.state, 'stopped');
    t.is(task.errored, 'errored');
    t.regex(task.events.at(-1)!.payload['error'] ?? '', message);
    t.deepEqual((await user.get<unknown[]>(`/packages?fqn=${encodeURIComponent(fqn)}`)).body, [], 'no package');
  }
  t.deepEqual(redirecting.seen, ['GET /v2/x/y/manifests/1']);
  t.deepEqual(challenging.seen, ['GET /v2/x/y/manifests/1']);
  t.deepEqual(forbidden.seen, [], 'the refused address saw no request');
});

test("destinations: on etcd, etcd's members are refused as the controller's own sockets, even when their address is listed: a drain, an http_metric url", async (t) => {
  t.timeout(3 * 60_000);
  const etcd = await testEtcd(t);
  if (!etcd) return;
  const proc = await etcdController(t, etcd, { blobDir: await testDir(t), until: 'ready', args: ['--allowed-destinations', '127.0.0.1'] });
  const admin = await proc.admin();
  const ns = `/test/${unique('etcd')}`;
  for (const endpoint of etcd.endpoints) {
    const port = endpoint.slice(endpoint.lastIndexOf(':') + 1);
    for (const fields of [{ drains: [{ url: `syslog://127.0.0.1:${port}` }] }, { monitoring: { rps: { type: 'http_metric', config: { url: `http://127.0.0.1:${port}/v3/kv/range` } } } }]) {
      const r = await admin.post<ApiErrorBody>('/jobs', { fqn: `job::${ns}::${unique('j')}`, ...fields });
      t.is(r.status, 400, r.text);
      t.regex(r.body.message, new RegExp(`may not reach 127\\.0\\.0\\.1:${port}: 127\\.0\\.0\\.1 is a port the platform itself listens on \\(an operator allows it only by listing it with its port`));
      t.is((r.body.error_details as Record<string, unknown> | undefined)?.['refusal'], 'own-listener');
    }
  }
  // Another loopback port is listed.
  const ok = await admin.post<Job>('/jobs', { fqn: `job::${ns}::ok`, drains: [{ url: 'syslog://127.0.0.1:5514' }] });
  t.is(ok.status, 200, ok.text);
});

test('destinations: drains and http_metric urls at loopback or link-local addresses are refused (400, nothing changed) unless listed', async (t) => {
  const proc = await controller(t, { allowedDestinations: ['127.0.0.1:5514'] });
  const admin = await proc.admin();
  const name = unique('mallory');
  const user = await admin.createUser(name, PASSWORD);
  const api = new URL(proc.url).port;
  const refused: [Record<string, unknown>, RegExp][] = [
    [{ drains: [{ url: 'syslog://127.0.0.1:6514' }] }, /^drains\[0\]\.url: log drains may not reach 127\.0\.0\.1:6514: 127\.0\.0\.1 is a loopback address \(an operator allows it by listing it in --allowed-destinations/],
    [{ drains: [{ url: 'syslog://localhost:6514' }] }, /^drains\[0\]\.url: log drains may not reach localhost:6514: it resolves to /],
    [{ drains: [{ url: 'syslog://169.254.169.254:514', conf: { protocol: 'udp' } }] }, /169\.254\.169\.254 is a link-local address/],
    [{ drains: [{ url: 'syslog://[::ffff:127.0.0.1]:5515' }] }, /::ffff:127\.0\.0\.1 is a loopback address/],
    [{ monitoring: { rps: { type: 'http_metric', config: { url: `http://127.0.0.1:${api}/v1/jobs` } } } }, /^monitoring\.rps\.config\.url: http_metric urls may not reach 127\.0\.0\.1:\d+: 127\.0\.0\.1 is a port the platform itself listens on/],
    [{ monitoring: { rps: { type: 'http_metric', config: { url: 'http://169.254.169.254/latest/meta-data/' } } } }, /link-local/],
  ];
  for (const [fields, message] of refused) {
    const r = await user.post<ApiErrorBody>('/jobs', { fqn: `job::/sandbox/${name}::${unique('j')}`, ...fields });
    t.is(r.status, 400, r.text);
    t.regex(r.body.message, message);
  }
  t.deepEqual((await user.get<Job[]>('/jobs')).body.filter((j) => j.fqn.startsWith(`job::/sandbox/${name}::`)), [], 'no job made');
  // Listed, and $INSTANCE (the job's own instances): accepted.
  const job = await user.post<Job>('/jobs', {
    fqn: `job::/sandbox/${name}::ok`,
    drains: [{ url: 'syslog://127.0.0.1:5514' }],
    monitoring: { rps: { type: 'http_metric', config: { url: 'http://$INSTANCE:8080/metrics' } } },
  });
  t.is(job.status, 200, job.text);
  // POST /jobs/{uuid}/logs/drains: the same rule, the job unchanged.
  const added = await user.post<ApiErrorBody>(`/jobs/${job.body.uuid}/logs/drains`, { url: 'syslog://127.0.0.2:514' });
  t.is(added.status, 400, added.text);
  t.regex(added.body.message, /^drains\[1\]\.url: log drains may not reach 127\.0\.0\.2:514: 127\.0\.0\.2 is a loopback address/);
  t.is((await user.get<Job>(`/jobs/${job.body.uuid}`)).body.version_id, job.body.version_id);
});

test('destinations: an agent that does not list a drain the controller accepted sends it nothing, and the job log says why', async (t) => {
  let connections = 0;
  const collector: TcpServer = createTcpServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => collector.close(() => resolve())));
  const port = (collector.address() as AddressInfo).port;
  // The controller's operator lists the collector, this agent's does not.
  const cluster = await startCluster(t, [{ allowedDestinations: [] }], { allowedDestinations: [`127.0.0.1:${port}`] });
  const api: ApiClient = cluster.api;
  const ns = `/sandbox/admin/${unique('d')}`;
  const pkg = await uploadPackage(api, ns, tarGz({ 'app/tick.js': "let n = 0; setInterval(() => console.log('tick ' + n++), 200);" }));
  const job = (await api.post<Job>('/jobs', commandJob(`job::${ns}::ticker`, pkg.uuid, 'node /app/tick.js', { drains: [{ url: `syslog://127.0.0.1:${port}` }], state: 'started' }))).body;
  t.truthy(job.uuid);
  await runningInstances(api, job.uuid, 1);
  await eventually(
    async () => {
      const log = (await api.get(`/jobs/${job.uuid}/logs?lines=1000`, { headers: { accept: 'text/plain' } })).text;
      return log.includes(`[drain] syslog://127.0.0.1:${port}: log lines not delivered: log drains may not reach 127.0.0.1:${port}: 127.0.0.1 is a loopback address`) ? log : undefined;
    },
    { timeoutMs: 60_000, what: "the drain's refusal in the job log" },
  );
  t.is(connections, 0, 'the collector saw no connection');
});
