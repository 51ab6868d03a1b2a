/**
 * Packages and jobs from container images, pulled from a real registry (Debian's
 * docker-registry on a loopback port, with and without basic authentication), with images the
 * tests build and push themselves; tasks followed by polling and over a WebSocket.
 */
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import WebSocket from 'ws';
import type { Job, Package } from '@platform/controller';
import { HTTP_APP } from '../harness/apps.js';
import { callInstance, runningInstances, startCluster, testIsolation } from '../harness/cluster.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { busyboxAvailable, busyboxLayer, IMAGE_HTTP_SCRIPT, IMAGE_PASSWD, Registry, registryAvailable, type ImageHttpAnswer, type TarEntrySpec } from '../harness/registry.js';
import { taskEnd } from '../harness/tasks.js';
import { eventually } from '../harness/wait.js';

interface TaskEvent {
  uuid: string;
  task_event_type: string;
  stage: string;
  subtask: { name: string; index: number; total: number; progress?: { current: number; progress: number } };
  payload: Record<string, string>;
  time: number;
}
interface Task {
  uuid: string;
  state: string;
  errored: string;
  events: TaskEvent[];
}

/** Three layers: a base, a layer that deletes and replaces, an app layer. */
const BASE: TarEntrySpec[] = [
  { path: 'etc/', type: 'dir' },
  { path: 'etc/motd', content: 'base\n' },
  { path: 'etc/removed.conf', content: 'gone later\n' },
  { path: 'var/', type: 'dir' },
  { path: 'var/cache/', type: 'dir' },
  { path: 'var/cache/old-1', content: 'old\n' },
  { path: 'var/cache/old-2', content: 'old\n' },
  { path: 'usr/', type: 'dir' },
  { path: 'usr/share/', type: 'dir' },
  { path: 'usr/share/data.txt', content: 'data\n' },
];
const MIDDLE: TarEntrySpec[] = [
  { path: 'etc/.wh.removed.conf', content: '' },
  { path: 'var/cache/', type: 'dir' },
  { path: 'var/cache/.wh..wh..opq', content: '' },
  { path: 'var/cache/new', content: 'new\n' },
  { path: 'etc/motd', content: 'middle\n' },
];
const APP: TarEntrySpec[] = [
  { path: 'app/', type: 'dir' },
  { path: 'app/server.js', content: HTTP_APP, mode: 0o755 },
  { path: 'app/data', type: 'symlink', linkpath: '/usr/share/data.txt' },
  { path: 'app/motd', type: 'symlink', linkpath: '../etc/motd' },
];
const CONFIG = {
  Env: ['GREETING=hello from the image', 'PATH=/usr/local/bin:/usr/bin:/bin'],
  Entrypoint: ['node'],
  Cmd: ['/app/server.js'],
  WorkingDir: '/app',
  ExposedPorts: { '8080/tcp': {} },
};

/** The tests' registries (and proxies in front of them) listen on 127.0.0.1 at ports of their own. */
const LOOPBACK_REGISTRIES = ['127.0.0.1'];

async function registryOrSkip(t: ExecutionContext, options: { auth?: { user: string; password: string } } = {}): Promise<Registry | undefined> {
  if (!registryAvailable(t)) {
    t.pass();
    return undefined;
  }
  const registry = await Registry.start(options);
  t.teardown(() => registry.dispose());
  return registry;
}

/**
 * A controller whose pulls may reach this test's registry and the proxies in front of it, all
 * on 127.0.0.1 (listed; the controller's own ports stay refused).
 */
async function controller(t: ExecutionContext): Promise<{ proc: ControllerProcess; api: ApiClient }> {
  const proc = await ControllerProcess.start({ args: ['--router-listen', 'none'], allowedRegistries: LOOPBACK_REGISTRIES });
  t.teardown(() => proc.dispose());
  return { proc, api: await proc.admin() };
}

function taskPath(location: string): string {
  return new URL(location).pathname;
}


/** Every event of the task over a WebSocket, until the server closes the stream. */
function followTask(api: ApiClient, location: string): Promise<{ events: TaskEvent[]; code: number }> {
  const ws = new WebSocket(location.replace(/^http/, 'ws'), { headers: api.defaultHeaders });
  const events: TaskEvent[] = [];
  return new Promise((resolve, reject) => {
    ws.on('message', (data) => events.push(JSON.parse(String(data)) as TaskEvent));
    ws.on('close', (code) => resolve({ events, code }));
    ws.on('error', reject);
  });
}

/** The entries of a package's archive as `tar -tv` lists them (type, path, link). */
async function archiveListing(api: ApiClient, pkg: Package): Promise<string[]> {
  const res = await api.fetch(`/packages/resources/${pkg.uuid}`);
  const data = Buffer.from(await res.arrayBuffer());
  return execFileSync('tar', ['-tvzf', '-'], { input: data })
    .toString()
    .trim()
    .split('\n')
    .map((line) => {
      const parts = line.split(/\s+/);
      return `${line[0]} ${parts.slice(5).join(' ')}`;
    });
}

async function packageNamed(api: ApiClient, fqn: string): Promise<Package | undefined> {
  return (await api.get<Package[]>(`/packages?fqn=${encodeURIComponent(fqn)}`)).body[0];
}

test('images: a container package flattens the layers (whiteouts, opaque directory, symlinks) and takes the image config; WebSocket and polling see the same events', async (t) => {
  const registry = await registryOrSkip(t);
  if (!registry) return;
  const { api } = await controller(t);
  const image = await registry.pushImage('team/web', 'v1', { layers: [BASE, MIDDLE, APP], config: CONFIG, index: true });
  const fqn = `package::/sandbox/admin::${unique('web')}`;
  const r = await api.post<{ location: string }>('/packages/container', { image_url: `${registry.address}/team/web:v1`, package_fqn: fqn });
  t.is(r.status, 200, r.text);
  const streamed = followTask(api, r.body.location);
  const task = await taskEnd<Task>(api, r.body.location);
  t.is(task.state, 'complete', JSON.stringify(task.events.at(-1)));
  t.is(task.errored, 'unerrored');
  const { events, code } = await streamed;
  t.is(code, 1000);
  t.deepEqual(
    events.map((e) => `${e.task_event_type} ${e.subtask.name}`),
    task.events.map((e) => `${e.task_event_type} ${e.subtask.name}`),
  );
  t.is(JSON.stringify(events.map((e) => e.uuid)), JSON.stringify(task.events.map((e) => e.uuid)));
  t.is(events.at(-1)!.task_event_type, 'eos');
  t.true(task.events.some((e) => e.stage === 'Pull' && e.subtask.progress?.progress === 100 && e.subtask.total === 3));
  // ?time= gives only what came after.
  const after = (await api.get<Task>(`${taskPath(r.body.location)}?time=${task.events[1]!.time}`)).body;
  t.deepEqual(
    after.events.map((e) => e.uuid),
    task.events.filter((e) => e.time > task.events[1]!.time).map((e) => e.uuid),
  );

  const pkg = (await packageNamed(api, fqn))!;
  t.is(pkg.state, 'ready');
  t.is(pkg.docker_image_id, image.digest);
  t.is(pkg.docker_origin, `${registry.address}/team/web:v1`);
  t.is(pkg.environment['GREETING'], 'hello from the image');
  t.is(pkg.environment['START_COMMAND'], 'node /app/server.js');
  t.is(pkg.environment['START_PATH'], '/app');
  const listing = await archiveListing(api, pkg);
  t.true(listing.includes('- etc/motd'));
  t.false(listing.some((l) => l.includes('removed.conf')), 'the whiteout removed etc/removed.conf');
  t.false(listing.some((l) => l.includes('old-')), 'the opaque directory hid the lower var/cache');
  t.true(listing.includes('- var/cache/new'));
  t.false(listing.some((l) => l.includes('.wh.')), 'no whiteout file is left');
  t.true(listing.includes('l app/data -> ../usr/share/data.txt'), 'an absolute link is made relative');
  t.true(listing.includes('l app/motd -> ../etc/motd'));
  const motd = execFileSync('tar', ['-xzOf', '-', 'etc/motd'], { input: Buffer.from(await (await api.fetch(`/packages/resources/${pkg.uuid}`)).arrayBuffer()) }).toString();
  t.is(motd, 'middle\n');
  // /metrics counts the layer bytes pulled.
  const metrics = (await api.get('/metrics')).text;
  const pulled = Number(/^platform_image_layer_bytes_total (\d+)/m.exec(metrics)?.[1]);
  t.is(pulled, image.layers.reduce((n, l) => n + l.size, 0));
  t.regex(metrics, /^platform_tasks_running\{thread="container"\} 0$/m);
  // pkg.create is audited.
  const audit = (await api.get<{ items?: unknown[] } | unknown[]>(`/audit?fqn=${encodeURIComponent(fqn)}`)).text;
  t.regex(audit, /pkg\.create/);
});

test('images: credentials in the image URL pass the registry basic authentication; without them the task says what is missing', async (t) => {
  const auth = { user: 'puller', password: 'pa ss:word' };
  const registry = await registryOrSkip(t, { auth });
  if (!registry) return;
  const { api } = await controller(t);
  await registry.pushImage('private/app', 'latest', { layers: [APP], config: CONFIG });
  const refused = await api.post<{ location: string }>('/packages/container', { image_url: `${registry.address}/private/app`, package_fqn: `package::/sandbox/admin::${unique('p')}` });
  const failed = await taskEnd<Task>(api, refused.body.location);
  t.is(failed.errored, 'errored');
  t.regex(failed.events.at(-1)!.payload['error']!, /requires credentials/);
  const fqn = `package::/sandbox/admin::${unique('p')}`;
  const url = `http://${auth.user}:${encodeURIComponent(auth.password)}@${registry.address}/private/app`;
  const ok = await api.post<{ location: string }>('/packages/container', { image_url: url, package_fqn: fqn });
  const done = await taskEnd<Task>(api, ok.body.location);
  t.is(done.state, 'complete', JSON.stringify(done.events.at(-1)));
  const pkg = (await packageNamed(api, fqn))!;
  t.is(pkg.docker_origin, `${registry.address}/private/app:latest`, 'no credentials in the origin');
  t.false(JSON.stringify(done).includes(auth.password));
});

/** A proxy in front of the registry that can change or hold what it answers. */
async function tamperingProxy(t: ExecutionContext, target: string, tamper: (path: string) => 'corrupt' | 'hold' | undefined): Promise<string> {
  const held: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const action = tamper(req.url ?? '');
    const up = httpRequest(`http://${target}${req.url}`, { method: req.method, headers: req.headers }, (upRes) => {
      if (action === 'hold') {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        res.write(Buffer.alloc(1)); // one byte, then nothing: a stalled download
        held.push(() => res.destroy());
        upRes.resume();
        return;
      }
      if (action === 'corrupt') {
        const chunks: Buffer[] = [];
        upRes.on('data', (c: Buffer) => chunks.push(c));
        upRes.on('end', () => {
          const body = Buffer.concat(chunks);
          if (body.length > 0) body[body.length - 1] = body[body.length - 1]! ^ 0xff;
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          res.end(body);
        });
        return;
      }
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const h of held) h();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('images: bad images are refused (missing layer, wrong digest, ../ path, escaping symlink, another architecture, public registry) and leave nothing behind', async (t) => {
  const registry = await registryOrSkip(t);
  if (!registry) return;
  const { proc, api } = await controller(t);
  const missing = await registry.pushImage('bad/missing', 'latest', { layers: [BASE, APP], config: CONFIG });
  await registry.deleteBlob('bad/missing', missing.layers[1]!.digest);
  // A layer of its own: bad/missing may have cached BASE already (its layers are pulled in parallel).
  const corrupt = await registry.pushImage('bad/corrupt', 'latest', { layers: [[...BASE, { path: 'corrupt.txt', content: 'corrupt' }]], config: CONFIG });
  await registry.pushImage('bad/dotdot', 'latest', { layers: [BASE, [{ path: 'app/../../etc/evil', content: 'x' }]], config: CONFIG });
  await registry.pushImage('bad/link', 'latest', { layers: [[{ path: 'app/escape', type: 'symlink', linkpath: '../../../etc/shadow' }]], config: CONFIG });
  await registry.pushImage('bad/abslink', 'latest', { layers: [[{ path: 'app/escape', type: 'symlink', linkpath: '/../../etc/shadow' }]], config: CONFIG });
  // Its config is read while its layer downloads: the refusal stops the download, and the layer is not kept.
  const arm = await registry.pushImage('bad/arm', 'latest', { layers: [[{ path: 'arm/big', content: randomBytes(4 * 1024 * 1024) }]], config: CONFIG, architecture: 'arm64' });
  const proxy = await tamperingProxy(t, registry.address, (path) => (path.includes(corrupt.layers[0]!.digest) ? 'corrupt' : undefined));
  const cases: [string, RegExp][] = [
    [`${registry.address}/bad/missing`, /blob .* is missing from registry/],
    [`${proxy}/bad/corrupt`, /does not match its digest/],
    [`${registry.address}/bad/dotdot`, /has a "\.\." component/],
    [`${registry.address}/bad/link`, /escapes the image's root/],
    [`${registry.address}/bad/abslink`, /escapes the image's root/],
    [`${registry.address}/bad/arm`, /the image is for arm64; amd64 images run here/],
    [`${registry.address}/bad/unknown:v9`, /not found in registry/],
    ['busybox', /public registry registry-1\.docker\.io cannot be reached/],
  ];
  for (const [url, message] of cases) {
    const fqn = `package::/sandbox/admin::${unique('bad')}`;
    const r = await api.post<{ location: string }>('/packages/container', { image_url: url, package_fqn: fqn });
    t.is(r.status, 200, r.text);
    const task = await taskEnd<Task>(api, r.body.location);
    t.is(task.state, 'stopped', url);
    t.is(task.errored, 'errored', url);
    t.regex(task.events.at(-1)!.payload['error'] ?? '', message, url);
    t.is(await packageNamed(api, fqn), undefined, `no package for ${url}`);
  }
  // Nothing left: no half-made archive, no layer of the refused images (the good base layer of
  // bad/missing and bad/dotdot stays: it was right).
  t.deepEqual(readdirSync(join(proc.dataDir, 'images', 'tmp')), []);
  const cached = readdirSync(join(proc.dataDir, 'images', 'layers'));
  t.false(cached.some((f) => f.startsWith('.tmp-')));
  t.false(cached.includes(corrupt.layers[0]!.digest.replace(':', '-')));
  t.false(cached.includes(arm.layers[0]!.digest.replace(':', '-')));
  // Refused before a task: malformed bodies and what the cluster cannot honour yet.
  const bad = await api.post('/packages/container', { image_url: 'UPPER/Case', package_fqn: 'package::/sandbox/admin::x' });
  t.is(bad.status, 400);
  const volumes = await api.post('/jobs/container', { image_url: `${registry.address}/bad/link`, job_fqn: 'job::/sandbox/admin::v', volumes: ['/data'] });
  t.is(volumes.status, 400);
  t.regex(volumes.text, /no volumes yet/);
});

test('images: a controller restart mid-pull ends the task errored', async (t) => {
  const registry = await registryOrSkip(t);
  if (!registry) return;
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-images-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const image = await registry.pushImage('slow/app', 'latest', { layers: [BASE, APP], config: CONFIG });
  const proxy = await tamperingProxy(t, registry.address, (path) => (path.includes(image.layers[1]!.digest) ? 'hold' : undefined));
  let proc = await ControllerProcess.start({ dataDir, args: ['--router-listen', 'none'], allowedRegistries: [registry.address, proxy] });
  t.teardown(() => proc.dispose());
  let api = await proc.admin();
  const r = await api.post<{ location: string }>('/packages/container', { image_url: `${proxy}/slow/app`, package_fqn: 'package::/sandbox/admin::slow' });
  await eventually(async () => (await api.get<Task>(taskPath(r.body.location))).body.events.some((e) => e.subtask.name.includes(image.layers[1]!.digest)), {
    what: 'the pull to reach the held layer',
  });
  await proc.kill9();
  proc = await proc.restart();
  api = await proc.admin();
  const task = (await api.get<Task>(taskPath(r.body.location))).body;
  t.is(task.state, 'stopped');
  t.is(task.errored, 'errored');
  t.regex(task.events.at(-1)!.payload['error']!, /controller stopped while the task ran/);
  t.is(await packageNamed(api, 'package::/sandbox/admin::slow'), undefined);
  t.false(readdirSync(join(dataDir, 'images', 'layers')).some((f) => f.startsWith('.tmp-')));
});

test('images: an image becomes a started job that answers HTTP as its own root file system and named USER; pull false reuses its package and layers are not pulled twice', async (t) => {
  if (!registryAvailable(t) || !busyboxAvailable(t)) return t.pass();
  if (testIsolation(t) !== 'bwrap') {
    t.log('skipped: an image runs as its own root only with the bwrap driver (apt-get install bubblewrap)');
    return t.pass();
  }
  const registry = await Registry.start();
  t.teardown(() => registry.dispose());
  const cluster = await startCluster(t, [{}], { allowedRegistries: [registry.address] });
  const { api } = cluster;
  // The image's own userland (busybox), its own users; the server is its own shell and httpd.
  const web: TarEntrySpec[] = [{ path: 'app/', type: 'dir' }, { path: 'app/start.sh', content: IMAGE_HTTP_SCRIPT, mode: 0o755 }];
  const config = { Env: ['PATH=/bin'], Entrypoint: ['/bin/sh'], Cmd: ['/app/start.sh'], WorkingDir: '/app', User: 'web', ExposedPorts: { '8080/tcp': {} } };
  await registry.pushImage('team/http', 'v1', { layers: [busyboxLayer(), BASE, web], config });
  const name = unique('http');
  const jobFqn = `job::/sandbox/admin::${name}`;
  const r = await api.post<{ location: string }>('/jobs/container', {
    image_url: `${registry.address}/team/http:v1`,
    job_fqn: jobFqn,
    exposed_ports: [0],
    env: { EXTRA: 'yes' },
    start: true,
    resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024 },
  });
  t.is(r.status, 200, r.text);
  const task = await taskEnd<Task>(api, r.body.location);
  t.is(task.state, 'complete', JSON.stringify(task.events.at(-1)));
  const jobUuid = task.events.find((e) => e.payload['job_uuid'])!.payload['job_uuid']!;
  const job = (await api.get<Job>(`/jobs/${jobUuid}`)).body;
  t.is(job.state, 'started');
  t.deepEqual(job.processes['app']!.start_command_raw, ['/bin/sh', '/app/start.sh']);
  t.is(job.processes['app']!.user, 'web');
  t.deepEqual(job.docker_origin, { RegistryUrl: `http://${registry.address}`, ImageName: 'team/http', ImageTag: 'v1', Volumes: [] });
  const [instance] = await runningInstances(api, jobUuid, 1, 90_000);
  const answer = await callInstance<ImageHttpAnswer>(instance!);
  t.is(answer.job, jobUuid);
  // The instance sees the image's /etc/passwd, not the host's, and runs as the image's `web`
  // (its uid and group inside the user namespace; the agent's own uid for it outside).
  t.is(answer.passwd, IMAGE_PASSWD.replaceAll('\n', ';'));
  t.is(answer.host_node, 'no');
  t.deepEqual([answer.user, answer.uid, answer.gid, answer.group], ['web', '4321', '4322', 'web']);

  // pull: false takes the package made from the same image, without the registry.
  // allow_egress: the job is bound to the outbound network service for everything.
  const again = await api.post<{ location: string }>('/jobs/container', { image_url: `${registry.address}/team/http:v1`, job_fqn: `${jobFqn}-2`, exposed_ports: [0], pull: false, allow_egress: true });
  const reused = await taskEnd<Task>(api, again.body.location);
  t.is(reused.state, 'complete', JSON.stringify(reused.events.at(-1)));
  const egress = Object.values((await api.get<Job>(`/jobs/${reused.events.find((e) => e.payload['job_uuid'])!.payload['job_uuid']!}`)).body.bindings);
  t.deepEqual(egress.map((b) => [b.service_fqn, b.parameters]), [['service::/platform::outbound-network', { ipnet: '0.0.0.0/0' }]]);
  t.true(reused.events.some((e) => /^using package /.test(e.subtask.name)));
  t.false(reused.events.some((e) => /layer/.test(e.subtask.name)));
  // Another image sharing two layers: those are not pulled again.
  await registry.pushImage('team/other', 'v1', { layers: [busyboxLayer(), BASE, [{ path: 'other.txt', content: 'other' }]], config: CONFIG });
  const other = await api.post<{ location: string }>('/packages/container', { image_url: `${registry.address}/team/other:v1`, package_fqn: `package::/sandbox/admin::${unique('o')}` });
  const otherTask = await taskEnd<Task>(api, other.body.location);
  t.is(otherTask.state, 'complete', JSON.stringify(otherTask.events.at(-1)));
  t.is(otherTask.events.filter((e) => /already pulled/.test(e.subtask.name)).length, 2);
  t.is(otherTask.events.filter((e) => /^pulled layer/.test(e.subtask.name)).length, 1);
});


test('images: the layer cache keeps to PLATFORM_IMAGE_LAYER_CACHE_BYTES: a budget of 0 keeps no layer once the pull ends, and a later pull fetches them again', async (t) => {
  const registry = await registryOrSkip(t);
  if (!registry) return;
  const proc = await ControllerProcess.start({ args: ['--router-listen', 'none'], env: { PLATFORM_IMAGE_LAYER_CACHE_BYTES: '0' }, allowedRegistries: [registry.address] });
  t.teardown(() => proc.dispose());
  const api = await proc.admin();
  await registry.pushImage('trim/app', 'v1', { layers: [BASE, APP], config: CONFIG });
  const layers = join(proc.dataDir, 'images', 'layers');
  for (const round of [1, 2]) {
    const fqn = `package::/sandbox/admin::${unique('trim')}`;
    const r = await api.post<{ location: string }>('/packages/container', { image_url: `${registry.address}/trim/app:v1`, package_fqn: fqn });
    const done = await taskEnd<Task>(api, r.body.location);
    t.is(done.state, 'complete', JSON.stringify(done.events.at(-1)));
    t.false(done.events.some((e) => /already pulled/.test(e.subtask.name)), `round ${round}: every layer was pulled`);
    t.deepEqual(readdirSync(layers), [], `round ${round}: no layer kept after the pull`);
    t.is((await packageNamed(api, fqn))?.state, 'ready');
  }
  await eventually(() => proc.lines.some((l) => l['msg'] === 'image layers removed from the cache'), { what: 'the trim logged' });
});
