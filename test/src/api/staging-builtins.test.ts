/**
 * Built-in packages, stagers and pipelines, POST /packages/dependencies, and
 * staging with the built-in stagers, over the real controller binary. Stagers
 * run as local child processes (PLATFORM_STAGER_LAUNCHER=local): the
 * coordinator, the stager API and the SDK's stagers are the real ones; only
 * agents are left out. Staged apps are then started from their archive the way
 * an instance would (START_PATH, START_COMMAND, PORT) and asked over HTTP.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import test, { type ExecutionContext } from 'ava';
import type { ApiErrorBody, Job, Package, StagingPipeline } from '@platform/controller';
import { extractArchive } from '@platform/stager-sdk';
import { archiveOf } from '@platform/stager-sdk/testkit';
import { digestOf, unique } from '../harness/fixtures.js';
import { freePort } from '../harness/net.js';
import type { ApiClient } from '../harness/http.js';
import { useController } from '../harness/suite.js';
import { rawPut } from '../harness/upload.js';
import { eventually } from '../harness/wait.js';

const suite = useController(test, { env: { PLATFORM_STAGER_LAUNCHER: 'local', PLATFORM_STAGER_TIMEOUT_MS: '120000' } });
const RUNTIMES = ['bash', 'ruby', 'nodejs', 'java', 'perl', 'php', 'python', 'static-site', 'go'];

test('built-ins: an os package, runtime packages of the host, and a pipeline with a stager job per runtime', async (t) => {
  const api = suite.api();
  const [os] = (await api.get<Package[]>('/packages?fqn=package::/platform/os::linux')).body;
  t.truthy(os);
  t.is(os!.state, 'ready');
  t.true(os!.provides.some((p) => p.type === 'os' && p.name === 'linux'));
  t.true((os!.host_paths ?? []).includes('/usr'));
  const runtimes = (await api.get<Package[]>('/packages?fqn=package::/platform/runtimes&matchPartialFQN=true')).body;
  const node = runtimes.find((p) => p.fqn === `package::/platform/runtimes::node-${process.versions.node}`);
  t.truthy(node, runtimes.map((r) => r.fqn).join(', '));
  const [major, minor] = process.versions.node.split('.');
  t.deepEqual(
    node!.provides.map((p) => p.name),
    ['node', `node-${major}`, `node-${major}.${minor}`, `node-${process.versions.node}`],
  );
  t.regex(node!.environment['PATH'] ?? '', /:\$PATH$/);
  t.deepEqual(node!.dependencies, [{ type: 'os', name: 'linux' }]);
  for (const runtime of RUNTIMES) {
    const [pipeline] = (await api.get<StagingPipeline[]>(`/stagingpipelines?fqn=stagpipe::/platform::${runtime}`)).body;
    t.truthy(pipeline, runtime);
    const job = (await api.get<Job>(`/jobs/${pipeline!.stagers[0]!.uuid}`)).body;
    t.is(job.fqn, `job::/platform/stagers::${runtime}`);
    // The stager SDK package, with its resolved dependencies shown as system packages.
    t.deepEqual(job.packages.map((p) => p.source), ['user', 'system', 'system']);
  }
});

test('POST /packages/dependencies: resolves general requirements to installable packages, dependencies first', async (t) => {
  const api = suite.api();
  const r = await api.post<Package[]>('/packages/dependencies', { job_target: '/sandbox/admin', dependencies: [{ type: 'runtime', name: 'node' }] });
  t.is(r.status, 200);
  t.is(r.headers.get('content-type'), 'application/vnd.platform.packages;version=1');
  t.deepEqual(
    r.body.map((p) => p.fqn),
    ['package::/platform/os::linux', `package::/platform/runtimes::node-${process.versions.node}`],
  );
  const missing = await api.post<ApiErrorBody>('/packages/dependencies', { dependencies: [{ type: 'package', name: 'nginx' }] });
  t.is(missing.status, 400);
  t.is(missing.body.message, 'Failed to update package dependencies: Failed to resolve packages: no packages satisfy dependency "package.nginx"');
  t.is((await api.post<ApiErrorBody>('/packages/dependencies', { dependencies: [{ type: 'lib', name: 'x' }] })).status, 400);
  t.is((await api.post<ApiErrorBody>('/packages/dependencies', { dependencies: [] })).status, 400);
  t.is((await api.post<ApiErrorBody>('/packages/dependencies', { job_target: 'no-slash', dependencies: [{ type: 'os', name: 'linux' }] })).status, 400);
});

/** Uploads `files` as a package staged by the built-in pipeline of `runtime`; resolves when staging has ended. */
async function deploy(api: ApiClient, runtime: string, files: Record<string, string>): Promise<Package> {
  const [pipeline] = (await api.get<StagingPipeline[]>(`/stagingpipelines?fqn=stagpipe::/platform::${runtime}`)).body;
  const data = await archiveOf(files);
  const created = await api.post<Package>('/packages', {
    fqn: `package::/sandbox/admin::${unique(runtime.replace('-', ''))}`,
    resource: { length: data.length, digest: digestOf(data) },
    staging_pipeline: { uuid: pipeline!.uuid },
  });
  if (created.status !== 200) throw new Error(created.text);
  const up = await rawPut(`${api.base}/packages/${created.body.uuid}/resources/${created.body.resources[0]!.uuid}`, [data], data.length, api.defaultHeaders);
  if (up.status !== 200) throw new Error(String(up.body));
  return eventually(
    async () => {
      const p = (await api.get<Package>(`/packages/${created.body.uuid}`)).body;
      return p.state === 'ready' || p.state === 'failed' ? p : undefined;
    },
    { timeoutMs: 120_000, what: `the ${runtime} package to be staged` },
  );
}

/**
 * Runs a staged package the way an instance does: its archive extracted in a
 * root, START_COMMAND run by /bin/sh in START_PATH with PORT and the
 * environment of its dependencies; answers the body of GET /.
 */
async function runStaged(t: ExecutionContext, api: ApiClient, pkg: Package): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'staged-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const res = await api.fetch(`/packages/${pkg.uuid}/resources/${pkg.resources[0]!.uuid}`);
  await extractArchive(Readable.fromWeb(res.body as WebReadableStream), root);
  const deps = (await api.post<Package[]>('/packages/dependencies', { dependencies: pkg.dependencies })).body;
  const env: Record<string, string> = { ...process.env } as Record<string, string>;
  for (const d of deps) for (const [k, v] of Object.entries(d.environment)) env[k] = v.replace(/\$(\w+)/g, (_, n: string) => env[n] ?? '');
  // A port known free a moment ago: a random one could be taken (the ephemeral
  // range overlaps), and the app would then exit before it ever answered.
  const port = await freePort();
  env['PORT'] = String(port);
  const child = spawn('/bin/sh', ['-c', pkg.environment['START_COMMAND']!], {
    cwd: join(root, pkg.environment['START_PATH'] ?? '/app'),
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4096)));
  // An app that ends has failed: say so at once, with what it wrote.
  const ended = new Promise<never>((_, reject) =>
    child.once('close', (code, signal) => reject(new Error(`${pkg.fqn} exited (${signal ?? code}) before answering: ${stderr}`))),
  );
  ended.catch(() => undefined);
  t.teardown(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Ended already.
    }
  });
  const answered = eventually(
    async () => {
      const r = await fetch(`http://127.0.0.1:${port}/`);
      return r.status === 200 ? r.text() : undefined;
    },
    { timeoutMs: 30_000, what: `${pkg.fqn} to answer on its PORT` },
  );
  return Promise.race([answered, ended]);
}

test('staging: a Node.js app is staged by the nodejs pipeline and answers on its PORT', async (t) => {
  const api = suite.api();
  const pkg = await deploy(api, 'nodejs', {
    'package.json': JSON.stringify({ name: 'web', main: 'server.js' }),
    'server.js': 'require("http").createServer((q, s) => s.end("hello from node")).listen(process.env.PORT);',
  });
  t.is(pkg.state, 'ready', pkg.error_message);
  t.is(pkg.environment['START_COMMAND'], 'node server.js');
  t.deepEqual(pkg.dependencies, [{ type: 'runtime', name: 'node' }]);
  t.true(pkg.version_id > 2);
  t.is(await runStaged(t, api, pkg), 'hello from node');
});

test('staging: a Python app is staged by the python pipeline and answers on its PORT', async (t) => {
  const api = suite.api();
  const pkg = await deploy(api, 'python', {
    'app.py': [
      'import http.server, os',
      'class H(http.server.BaseHTTPRequestHandler):',
      '    def do_GET(self):',
      '        self.send_response(200); self.end_headers(); self.wfile.write(b"hello from python")',
      'http.server.HTTPServer(("127.0.0.1", int(os.environ["PORT"])), H).serve_forever()',
    ].join('\n'),
    'requirements.txt': '',
  });
  t.is(pkg.state, 'ready', pkg.error_message);
  t.is(pkg.environment['START_COMMAND'], 'python3 app.py');
  t.is(await runStaged(t, api, pkg), 'hello from python');
});

test('staging: a bash app is staged by the bash pipeline and answers on its PORT', async (t) => {
  const api = suite.api();
  const pkg = await deploy(api, 'bash', {
    'bash_setup.sh': 'echo "hello from bash" > body.txt\n',
    'bash_start.sh': 'exec node -e "require(\'http\').createServer((q,s)=>s.end(require(\'fs\').readFileSync(\'body.txt\',\'utf8\').trim())).listen(process.env.PORT)"\n',
  });
  t.is(pkg.state, 'ready', pkg.error_message);
  t.is(pkg.environment['START_COMMAND'], 'bash bash_start.sh');
  t.is(await runStaged(t, api, pkg), 'hello from bash');
});

test('staging: a static site is served by the SDK static server on its PORT', async (t) => {
  const api = suite.api();
  const pkg = await deploy(api, 'static-site', { 'index.html': '<h1>hello static</h1>' });
  t.is(pkg.state, 'ready', pkg.error_message);
  t.true(pkg.dependencies.some((d) => d.type === 'package' && d.name === 'stager-sdk'));
  t.is(await runStaged(t, api, pkg), '<h1>hello static</h1>');
});

test('staging: source a stager cannot stage fails the package with the reason', async (t) => {
  const pkg = await deploy(suite.api(), 'static-site', { 'readme.txt': 'no index' });
  t.is(pkg.state, 'failed');
  t.regex(pkg.error_message, /index\.html/);
});

test('POST /packages/dependencies: only packages the caller may read satisfy its request', async (t) => {
  const api = suite.api();
  const name = unique('lib');
  const data = await archiveOf({ 'lib.txt': 'private' });
  const created = await api.post<Package>('/packages', {
    fqn: `package::/team-a::${name}`,
    resource: { length: data.length, digest: digestOf(data) },
    provides: [{ type: 'package', name }],
  });
  t.is(created.status, 200, created.text);
  const up = await rawPut(`${api.base}/packages/resources/${created.body.uuid}`, [data], data.length, api.defaultHeaders);
  t.is(up.status, 200);
  const request = { dependencies: [{ type: 'package', name }] };
  const forAdmin = await api.post<Package[]>('/packages/dependencies', request);
  t.deepEqual(forAdmin.body.map((p) => p.fqn), [`package::/team-a::${name}`]);
  const bob = await api.createUser(unique('bob'), 'bob-password-123');
  const forBob = await bob.post<ApiErrorBody>('/packages/dependencies', request);
  t.is(forBob.status, 400);
  t.regex(forBob.body.message, /no packages satisfy dependency/);
  t.false(forBob.text.includes('team-a'));
});
