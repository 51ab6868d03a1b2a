/**
 * The deploy workflow of cluster-api.md, steps 1 to 9, end to end on a real agent: the source
 * is uploaded as a tar.gz, the built-in pipeline's stager runs as an instance on the agent and
 * talks to the staging coordinator at STAGER_URL, the package becomes ready, a job with one
 * process `app` runs it, and the app answers HTTP on its PORT.
 */
import test, { type ExecutionContext } from 'ava';
import type { Job, Package, StagingPipeline } from '@platform/controller';
import { archiveOf } from '@platform/stager-sdk/testkit';
import { runningInstances, startCluster, type TestCluster } from '../harness/cluster.js';
import { digestOf, unique } from '../harness/fixtures.js';
import { rawPut } from '../harness/upload.js';
import { eventually } from '../harness/wait.js';

async function deployWorkflow(t: ExecutionContext, cluster: TestCluster, runtime: string, files: Record<string, string>): Promise<string> {
  const { api } = cluster;
  const name = unique(runtime.replace('-', ''));
  const jobFqn = `job::/sandbox/admin::${name}`;
  const pkgFqn = `package::/sandbox/admin::${name}`;
  // 1. the job does not exist yet
  t.deepEqual((await api.get<Job[]>(`/jobs?fqn=${encodeURIComponent(jobFqn)}`)).body, []);
  // 2. the runtime is listed with its patterns
  const runtimes = (await api.get<{ runtime: string }[]>('/runtimes')).body;
  t.true(runtimes.some((r) => JSON.stringify(r).includes(runtime)));
  // 3. its pipeline
  const [pipeline] = (await api.get<StagingPipeline[]>(`/stagingpipelines?fqn=stagpipe::/platform::${runtime}`)).body;
  t.truthy(pipeline);
  // 4. the package does not exist yet
  t.deepEqual((await api.get<Package[]>(`/packages?fqn=${encodeURIComponent(pkgFqn)}`)).body, []);
  // 5. create it, uploading
  const data = await archiveOf(files);
  const created = await api.post<Package>('/packages', {
    fqn: pkgFqn,
    name,
    resource: { length: data.length, digest: digestOf(data) },
    staging_pipeline: { uuid: pipeline!.uuid },
  });
  t.is(created.status, 200, created.text);
  t.is(created.body.state, 'uploading');
  // 6. upload the archive
  const up = await rawPut(`${api.base}/packages/${created.body.uuid}/resources/${created.body.resources[0]!.uuid}`, [data], data.length, api.defaultHeaders);
  t.is(up.status, 200, String(up.body));
  // 7. poll until staged
  const staged = await eventually(
    async () => {
      const p = (await api.get<Package>(`/packages/${created.body.uuid}`)).body;
      return p.state === 'ready' || p.state === 'failed' ? p : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 500, what: `the ${runtime} package staged` },
  );
  const stagingLog = (await api.get(`/packages/${staged.uuid}/logs?lines=1000`, { headers: { accept: 'text/plain' } })).text;
  t.is(staged.state, 'ready', `${staged.error_message}\n${stagingLog}`);
  t.regex(stagingLog, /\[staging\] Beginning staging with 'stagpipe::\/platform::/);
  // 8. the job
  const job = await api.post<Job>('/jobs', {
    fqn: jobFqn,
    name,
    num_instances: 1,
    packages: [{ uuid: staged.uuid }],
    processes: { app: {} },
    ports: [{ number: 0, optional: false }],
    restart: { restart_mode: 'always' },
    tags: { app: '' },
    state: 'started',
  });
  t.is(job.status, 200, job.text);
  t.true(job.body.packages.some((p) => p.source === 'system'), 'the resolved dependencies are listed as system packages');
  // 9. link the package to the job
  const linked = await api.put<Package>(`/packages/${staged.uuid}`, { ...staged, tags: { ...staged.tags, 'linked-job': job.body.uuid } });
  t.is(linked.status, 200, linked.text);
  t.true(linked.body.version_id > staged.version_id);

  const [instance] = await runningInstances(api, job.body.uuid, 1, 90_000);
  const address = Object.values(instance!.ports)[0]!;
  const res = await fetch(`http://${address}/`);
  t.is(res.status, 200);
  return res.text();
}

test('deploy: Node.js, Python, bash and static-site apps are staged on an agent and answer on their PORT', async (t) => {
  const cluster = await startCluster(t, [{}], { env: { PLATFORM_STAGER_TIMEOUT_MS: '120000' } });
  t.is(
    await deployWorkflow(t, cluster, 'nodejs', {
      'package.json': JSON.stringify({ name: 'web', main: 'server.js' }),
      'server.js': 'require("http").createServer((q, s) => s.end("hello from node")).listen(process.env.PORT);',
    }),
    'hello from node',
  );
  t.is(
    await deployWorkflow(t, cluster, 'python', {
      'app.py': [
        'import http.server, os',
        'class H(http.server.BaseHTTPRequestHandler):',
        '    def do_GET(self):',
        '        self.send_response(200); self.end_headers(); self.wfile.write(b"hello from python")',
        'http.server.HTTPServer(("0.0.0.0", int(os.environ["PORT"])), H).serve_forever()',
      ].join('\n'),
      'requirements.txt': '',
    }),
    'hello from python',
  );
  t.is(
    await deployWorkflow(t, cluster, 'bash', {
      'bash_setup.sh': 'echo "hello from bash" > body.txt\n',
      'bash_start.sh': 'exec node -e "require(\'http\').createServer((q,s)=>s.end(require(\'fs\').readFileSync(\'body.txt\',\'utf8\').trim())).listen(process.env.PORT)"\n',
    }),
    'hello from bash',
  );
  t.is(await deployWorkflow(t, cluster, 'static-site', { 'index.html': '<h1>hello static</h1>' }), '<h1>hello static</h1>');
});
