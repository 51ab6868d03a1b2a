/**
 * The `platform` command as a user runs it: the built client as a subprocess, with its own
 * HOME, against a real controller and agent. Apps are deployed from directories (Node.js and
 * Python), reached through the router, their logs read and tailed, scaled, redeployed with a
 * change, stopped and deleted; a staging failure shows its log; an expired token is refused
 * with the advice to log in; --json output parses; usage mistakes exit 2.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { CLI_BIN, Cli, missingTool, viaRouter } from '../harness/cli.js';
import { startCluster } from '../harness/cluster.js';
import { ControllerProcess, TEST_ADMIN_PASSWORD } from '../harness/controller-process.js';
import { eventually } from '../harness/wait.js';

const NODE_APP = (version: string) => `
const http = require('node:http');
http.createServer((req, res) => {
  console.log(req.method + ' ' + req.url);
  res.end(process.env.GREETING + ' ' + '${version}');
}).listen(process.env.PORT, () => console.log('listening on ' + process.env.PORT));
`;

const PYTHON_APP = `import http.server, os
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"hello from python")
print("python listening", flush=True)
http.server.HTTPServer(("127.0.0.1", int(os.environ["PORT"])), H).serve_forever()
`;

async function appDir(t: ExecutionContext, files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'platform-cli-app-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  return dir;
}

interface DeployJson {
  job: { uuid: string; fqn: string; state: string; version_id: number };
  package: { fqn: string };
  urls: string[];
  created: boolean;
  instances: { uuid: string; state: string }[];
}

test('cli: deploy a Node.js and a Python app from directories, logs and tail, scale, redeploy a change, a manifest, metrics, stop, delete; a staging failure shows its log', async (t) => {
  t.timeout(6 * 60_000);
  if (missingTool(t, 'python3')) return;
  const cluster = await startCluster(t, [{}]);
  const router = cluster.controller.routerAddress;
  const cli = await Cli.create(t);
  const login = await cli.ok(['login', cluster.controller.url, '--user', 'admin', '--password-stdin'], { stdin: `${TEST_ADMIN_PASSWORD}\n` });
  t.regex(login, /Logged in to .* as admin \(namespace \/sandbox\/admin\)/);
  await cli.ok(['target', '--router', router]);

  // Node.js: detected from package.json and *.js; the ignore file keeps secret.txt out.
  const web = await appDir(t, {
    'server.js': NODE_APP('v1'),
    'package.json': '{"name":"web","main":"server.js"}',
    'secret.txt': 'not for the cluster',
    '.platformignore': 'secret.txt\n',
  });
  const first = await cli.run(['app', 'deploy', web, '--name', 'web', '--env', 'GREETING=hi', '--memory', '128M']);
  t.is(first.code, 0, first.stderr);
  t.regex(first.stderr, /runtime nodejs/);
  t.regex(first.stdout, /\[staging\] Staging is complete\./, 'the staging log is shown live');
  const url = /web is running: (http:\/\/web-[a-z0-9]{6}\.localhost:\d+\/)/.exec(first.stdout)?.[1];
  t.truthy(url, first.stdout);
  t.deepEqual(await viaRouter(router, url!), { status: 200, text: 'hi v1' });

  const files = await cli.json<{ name: string }[]>(['app', 'files', 'web', '/app']);
  t.true(files.some((f) => f.name === 'server.js'));
  t.false(files.some((f) => f.name === 'secret.txt'), 'the ignore file is honoured');

  const logs = await cli.ok(['app', 'logs', 'web', '--lines', '20']);
  t.regex(logs, /^\[[0-9a-f]{8}\] listening on \d+$/m);

  // --tail follows: a request made while it runs shows up in it.
  let tailDone = false;
  const tail = cli.run(['app', 'logs', 'web', '--tail', '--lines', '1'], { until: (out) => out.includes('GET /tail-marker') }).finally(() => (tailDone = true));
  await eventually(
    async () => {
      await viaRouter(router, url!, '/tail-marker');
      return tailDone ? true : undefined;
    },
    { timeoutMs: 30_000, what: 'the tailed log line' },
  );
  t.regex((await tail).stdout, /\[[0-9a-f]{8}\] GET \/tail-marker/);

  await cli.ok(['app', 'scale', 'web', '2']);
  const scaled = await cli.json<{ state: string }[]>(['app', 'instances', 'web']);
  t.is(scaled.filter((i) => i.state === 'RUNNING').length, 2);

  // A changed directory: the same job gets the new package (rolling), and answers with it.
  await writeFile(join(web, 'server.js'), NODE_APP('v2'));
  const second = await cli.json<DeployJson>(['app', 'deploy', web, '--name', 'web', '--rolling']);
  t.false(second.created);
  t.is(second.urls[0], url);
  t.true(second.instances.length >= 2);
  await eventually(async () => ((await viaRouter(router, url!)).text === 'hi v2' ? true : undefined), { timeoutMs: 30_000, what: 'v2 through the router' });

  // Python: detected from *.py.
  const py = await appDir(t, { 'app.py': PYTHON_APP });
  const pyDeploy = await cli.json<DeployJson>(['app', 'deploy', py, '--name', 'pyapp']);
  t.true(pyDeploy.created);
  t.is(pyDeploy.job.fqn, 'job::/sandbox/admin::pyapp');
  t.deepEqual(await viaRouter(router, pyDeploy.urls[0]!), { status: 200, text: 'hello from python' });

  // A manifest of one more job running the Python app's package, followed until its task ends.
  const manifest = join(py, '..', `manifest-${Date.now()}.json`);
  t.teardown(() => rm(manifest, { force: true }));
  await writeFile(manifest, JSON.stringify({ jobs: { 'job::/sandbox/admin::py-${ENV}': { packages: [{ fqn: pyDeploy.package.fqn }], exposed_ports: [0], instances: 1, state: 'started' } } }));
  const deployed = await cli.run(['manifest', 'deploy', manifest, '--var', 'ENV=dev']);
  t.is(deployed.code, 0, deployed.stderr);
  t.regex(deployed.stdout, /created job::\/sandbox\/admin::py-dev/);
  t.regex(deployed.stdout, /^Manifest deployed\.$/m);
  t.is((await cli.json<{ job: { state: string } }>(['job', 'show', 'py-dev'])).job.state, 'started');
  await cli.ok(['job', 'delete', 'py-dev']);
  // A metric query answers JSON (series may be empty this early), and a malformed one its error.
  const metrics = await cli.json<{ metrics: Record<string, unknown>; errors: Record<string, string> }>(['metrics', 'jobs', 'job::/sandbox/admin::web,cpu.mean']);
  t.deepEqual(metrics.errors, {});
  t.truthy(metrics.metrics['job::/sandbox/admin::web,cpu.mean']);
  const badQuery = await cli.run(['metrics', 'jobs', 'nonsense']);
  t.is(badQuery.code, 1);
  t.regex(badQuery.stderr, /error: nonsense: /);

  // Placement waiting: no agent has the memory asked for; the deploy says so when it gives up.
  const huge = await cli.run(['--json', 'app', 'deploy', py, '--name', 'huge', '--memory', '4096G', '--timeout', '5']);
  t.is(huge.code, 1);
  const waiting = JSON.parse(huge.stderr) as { error: { reason: string; message: string } };
  t.is(waiting.error.reason, 'placement_waiting', huge.stderr);
  t.regex(waiting.error.message, /did not come up in 5 s: waiting: /);
  await cli.ok(['app', 'delete', 'huge']);

  const list = await cli.json<{ fqn: string; state: string }[]>(['app', 'list']);
  t.deepEqual(list.map((j) => j.fqn).sort(), ['job::/sandbox/admin::pyapp', 'job::/sandbox/admin::web']);
  const table = await cli.ok(['app', 'list']);
  t.regex(table, /^NAME +STATE +INSTANCES +VERSION +URL\n/);
  t.regex(table, /^web +started +2\/2 /m);

  // A staging failure: exit 1, the stager's words and the log.
  const bad = await appDir(t, { 'package.json': 'not json', 'server.js': '' });
  const failed = await cli.run(['app', 'deploy', bad, '--name', 'bad']);
  t.is(failed.code, 1);
  t.regex(failed.stdout, /package\.json is not valid JSON/, 'the staging log is shown');
  t.regex(failed.stderr, /error: staging failed: stager 'nodejs' failed: package\.json is not valid JSON/);
  const failedJson = await cli.run(['--json', 'app', 'deploy', bad, '--name', 'bad']);
  const error = JSON.parse(failedJson.stderr) as { error: { reason: string; log: string[] } };
  t.is(error.error.reason, 'staging_failed');
  t.true(error.error.log.some((l) => l.includes('Staging failed')));

  await cli.ok(['app', 'stop', 'web']);
  t.is((await cli.json<{ job: { state: string } }>(['app', 'show', 'web'])).job.state, 'stopped');
  await cli.ok(['app', 'delete', 'web']);
  await cli.ok(['app', 'delete', 'pyapp']);
  t.deepEqual(await cli.json<unknown[]>(['app', 'list']), []);
  const gone = await cli.run(['app', 'show', 'web']);
  t.is(gone.code, 1);
  t.regex(gone.stderr, /error: no job job::\/sandbox\/admin::web/);
});

test('cli: an expired token is refused with the advice to log in again; API errors show their request id; the password prompt does not echo; usage mistakes exit 2', async (t) => {
  const controller = await ControllerProcess.start();
  t.teardown(() => controller.dispose());
  const admin = await Cli.create(t);
  await admin.ok(['login', controller.url, '--user', 'admin', '--password-stdin'], { stdin: TEST_ADMIN_PASSWORD });
  // Tokens of the user "brief" live one second.
  const policy = join(admin.home, 'brief.pol');
  await writeFile(policy, 'on auth::/ {\n  if (auth_server@platform->name == "brief") { tokenTimeout "1s" }\n}\n');
  await admin.ok(['policy', 'put', 'brief', policy]);
  await admin.ok(['user', 'create', 'brief', '--password-stdin'], { stdin: 'a-long-password' });

  const brief = await Cli.create(t);
  await brief.ok(['login', controller.url, '--user', 'brief', '--password-stdin'], { stdin: 'a-long-password' });
  // A command sent just before the expiry may reach the controller just after it, which then
  // refuses it (the advice is the same, from the controller): wait for the client's own check.
  const expired = await eventually(
    async () => {
      const r = await brief.run(['app', 'list']);
      return r.code === 1 && !r.stderr.includes('request id') ? r : undefined;
    },
    { timeoutMs: 20_000, what: 'the token expired' },
  );
  t.regex(expired.stderr, /^error: your token for http:\/\/127\.0\.0\.1:\d+ expired at .*: run `platform login` again$/m);
  // A client that does not know the expiry hears it from the controller, with the request id.
  const configFile = join(brief.home, '.platform', 'config.json');
  const config = JSON.parse(await readFile(configFile, 'utf8')) as { targets: Record<string, { expires_at?: string }> };
  for (const target of Object.values(config.targets)) delete target.expires_at;
  await writeFile(configFile, JSON.stringify(config));
  const fromServer = await brief.run(['--json', 'app', 'list']);
  t.is(fromServer.code, 1);
  const body = JSON.parse(fromServer.stderr) as { error: { message: string; request_id: string; token_expired: boolean; status: number } };
  t.is(body.error.status, 401);
  t.true(body.error.token_expired);
  t.regex(body.error.message, /expired.*\(request id \S+\): run `platform login` again/);

  // An API refusal: message, method, path, status and request id.
  const missing = await admin.run(['package', 'show', '00000000-0000-4000-8000-000000000000']);
  t.is(missing.code, 1);
  t.regex(missing.stderr, /^error: package 00000000-0000-4000-8000-000000000000 not found \(GET \/v1\/packages\/00000000-0000-4000-8000-000000000000: HTTP 404, request id \S+\)$/m);
  // A policy syntax error at its line and column.
  await writeFile(policy, 'on job::/ {\n  permit read\n  oops here\n}\n');
  const syntax = await admin.run(['policy', 'put', 'broken', policy]);
  t.is(syntax.code, 1);
  t.regex(syntax.stderr, new RegExp(`${policy.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:\\d+: `));

  // On a terminal: the password prompt does not echo what is typed (a pseudo-terminal from python3's pty).
  if (!missingTool(t, 'python3')) {
    const typed = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const script = [
        'import os, pty, sys, time',
        'pid, fd = pty.fork()',
        'if pid == 0:',
        '    os.execv(sys.argv[1], sys.argv[1:])',
        'out = b""',
        'def read_until(marker, limit=30):',
        '    global out',
        '    end = time.time() + limit',
        '    while marker not in out and time.time() < end:',
        '        try: out += os.read(fd, 1024)',
        '        except OSError: break',
        'read_until(b"User: ")',
        'os.write(fd, b"admin\\r")',
        'read_until(b"Password: ")',
        `os.write(fd, b"${TEST_ADMIN_PASSWORD}\\r")`,
        'read_until(b"expires at")',
        'sys.stdout.write(out.decode())',
        'sys.exit(os.waitpid(pid, 0)[1] >> 8)',
      ].join('\n');
      const child = spawn('python3', ['-c', script, process.execPath, CLI_BIN, 'login', controller.url], { env: { ...process.env, HOME: admin.home } });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out }));
    });
    t.is(typed.code, 0, typed.out);
    t.regex(typed.out, /User: admin/, 'the user name is echoed');
    t.regex(typed.out, /Password: /);
    t.false(typed.out.includes(TEST_ADMIN_PASSWORD), 'the password is not echoed');
    t.regex(typed.out, /Logged in to .* as admin/);
  }

  // Usage: exit 2.
  t.is((await admin.run(['no-such-command'])).code, 2);
  t.is((await admin.run(['app', 'scale', 'web', 'many'])).code, 2);
  t.is((await admin.run(['completion', 'fish'])).code, 2);
  t.regex(await admin.ok(['completion', 'bash']), /complete -o default -F _platform_complete platform/);
  t.deepEqual((await admin.ok(['__complete', '2', 'app', 'de'])).trim().split('\n'), ['delete', 'deploy']);
});
