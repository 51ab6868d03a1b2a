/**
 * The staging coordinator over the real controller binary, with stagers that are small Node
 * scripts packaged like any stager and run as instances on a real agent: a pipeline of two
 * stagers with a relaunch, a failing stager, a stager that never reports (a short
 * PLATFORM_STAGER_TIMEOUT_MS), uploads with a wrong sha256 or without Content-Length, and
 * bodies that break, stall or never end (a short PLATFORM_HTTP_BODY_IDLE_TIMEOUT_MS).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import test from 'ava';
import type { Job, Package, StagingPipeline } from '@platform/controller';
import { AgentProcess } from '../harness/agent-process.js';
import { tarGz, uploadPackage } from '../harness/apps.js';
import { FAST_AGENT_TIMING, testIsolation } from '../harness/cluster.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { digestOf, unique } from '../harness/fixtures.js';
import type { ApiClient } from '../harness/http.js';
import { rawPut } from '../harness/upload.js';
import { eventually } from '../harness/wait.js';

let controller: ControllerProcess | undefined;
let agent: AgentProcess | undefined;
let isolation: 'bwrap' | 'process' = 'process';
let client: ApiClient | undefined;
const suite = { api: () => client!, controller: () => controller! };
test.before(async (t) => {
  // A short body timeout for the broken bodies a stager sends below.
  controller = await ControllerProcess.start({ env: { ...FAST_AGENT_TIMING, PLATFORM_STAGER_TIMEOUT_MS: '20000', PLATFORM_HTTP_BODY_IDLE_TIMEOUT_MS: '1000' } });
  client = await controller.admin();
  isolation = testIsolation(t);
  agent = await AgentProcess.start(controller, client, { isolation });
});
test.after.always(async () => {
  await agent?.dispose();
  await controller?.dispose();
});

const HELPERS = `
const base = process.env.STAGER_URL;
const form = (method, path, body) => fetch(base + path, { method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
const hash = async (b) => (await import('node:crypto')).createHash('sha256').update(b).digest('hex');
`;

async function pipeline(api: ApiClient, bodies: string[]): Promise<StagingPipeline> {
  const stagers = [];
  for (const body of bodies) {
    const pkg = await uploadPackage(api, '/sandbox/admin/stagers', tarGz({ 'stager/run.mjs': HELPERS + body }));
    const job = await api.post<Job>('/jobs', {
      fqn: `job::/sandbox/admin/stagers::${unique('s')}`,
      packages: [{ uuid: pkg.uuid }],
      processes: { app: { start_command: 'node /stager/run.mjs' } },
    });
    if (job.status !== 200) throw new Error(job.text);
    stagers.push({ uuid: job.body.uuid });
  }
  return (await api.post<StagingPipeline>('/stagingpipelines', { fqn: `stagpipe::/sandbox/admin::${unique('p')}`, stagers })).body;
}

async function stage(api: ApiClient, pipe: StagingPipeline, data: Buffer = randomBytes(1000)): Promise<Package> {
  const created = await api.post<Package>('/packages', {
    fqn: `package::/sandbox/admin::${unique('a')}`,
    resource: { length: data.length, digest: digestOf(data) },
    staging_pipeline: { uuid: pipe.uuid },
  });
  if (created.status !== 200) throw new Error(created.text);
  const up = await rawPut(`${api.base}/packages/resources/${created.body.uuid}`, [data], data.length, api.defaultHeaders);
  if (up.status !== 200) throw new Error(`upload: ${up.status} ${String(up.body)}`);
  return eventually(
    async () => {
      const p = (await api.get<Package>(`/packages/${created.body.uuid}`)).body;
      return p.state === 'ready' || p.state === 'failed' ? p : undefined;
    },
    { timeoutMs: 60_000, what: 'staging to end' },
  );
}

test('staging: two stagers in order, the second relaunching with a runtime dependency installed', async (t) => {
  const api = suite.api();
  const pipe = await pipeline(api, [
    `const data = Buffer.from(await (await fetch(base + '/data')).arrayBuffer());
     const out = Buffer.concat([data, Buffer.from('first')]);
     const up = await fetch(base + '/data?sha256=' + await hash(out), { method: 'POST', body: out });
     if (up.status !== 200) { await form('POST', '/failed', 'message=' + encodeURIComponent(await up.text())); process.exit(1); }
     await form('PUT', '/meta', 'resource=environment&action=add&key=START_COMMAND&value=node%20index.js');
     await form('POST', '/done', '');`,
    // The node runtime package puts its bin directory first on PATH: seen only after the relaunch.
    `const meta = await (await fetch(base + '/meta')).json();
     if (!meta.dependencies.some((d) => d.name === 'node')) {
       await form('PUT', '/meta', 'resource=dependencies&action=add&type=runtime&name=node');
       await form('POST', '/relaunch', '');
       process.exit(0);
     }
     await form('PUT', '/meta', 'resource=environment&action=add&key=SECOND_SAW_PATH&value=' + encodeURIComponent(process.env.PATH.split(':')[0]));
     await form('POST', '/done', '');`,
  ]);
  const data = randomBytes(1000);
  const p = await stage(api, pipe, data);
  t.is(p.state, 'ready', p.error_message);
  t.is(p.resources[0]!.length, data.length + 'first'.length);
  t.is(p.environment['START_COMMAND'], 'node index.js');
  const [nodeRuntime] = (await api.post<Package[]>('/packages/dependencies', { dependencies: [{ type: 'runtime', name: 'node' }] })).body.slice(-1);
  t.is(`${p.environment['SECOND_SAW_PATH']}:$PATH`, nodeRuntime!.environment['PATH'] ?? '');
  t.deepEqual(p.dependencies, [{ type: 'runtime', name: 'node' }]);
  t.deepEqual(p.stager_job_fqns.length, 2);
});

test('staging: a failing stager fails the package; a stager that never reports is stopped at the limit', async (t) => {
  const api = suite.api();
  const failing = await stage(api, await pipeline(api, [`await form('POST', '/failed', 'message=cannot%20build'); process.exit(1);`]));
  t.is(failing.state, 'failed');
  t.regex(failing.error_message, /failed: cannot build/);
  const job = await api.post<Job>('/jobs', { fqn: `job::/sandbox/admin::${unique('j')}`, packages: [{ uuid: failing.uuid }] });
  t.is(job.body.state, 'staging_failed');
  const silent = await stage(api, await pipeline(api, [`setInterval(() => {}, 1000);`]));
  t.is(silent.state, 'failed');
  t.regex(silent.error_message, /time limit/);
});

test('stager API: uploads with a wrong sha256 or without Content-Length are refused with 499 and change nothing', async (t) => {
  const api = suite.api();
  const pipe = await pipeline(api, [
    `const http = await import('node:http');
     const r1 = await fetch(base + '/data?sha256=' + '0'.repeat(64), { method: 'POST', body: 'abc' });
     const noLength = await new Promise((resolve, reject) => {
       const req = http.request(base + '/data?sha256=' + '0'.repeat(64), { method: 'POST' }, (res) => {
         let text = ''; res.on('data', (c) => (text += c)); res.on('end', () => resolve(res.statusCode + ' ' + text));
       });
       req.on('error', reject);
       req.write('abc'); req.end();
     });
     await form('PUT', '/meta', 'resource=environment&action=add&key=WRONG_SHA&value=' + encodeURIComponent(r1.status + ' ' + await r1.text()));
     await form('PUT', '/meta', 'resource=environment&action=add&key=NO_LENGTH&value=' + encodeURIComponent(noLength));
     await form('POST', '/done', '');`,
  ]);
  const data = randomBytes(500);
  const p = await stage(api, pipe, data);
  t.is(p.state, 'ready', p.error_message);
  t.regex(p.environment['WRONG_SHA'] ?? '', /^499 digest mismatch/);
  t.regex(p.environment['NO_LENGTH'] ?? '', /^499 a Content-Length must be provided/);
  t.is(p.resources[0]!.digest, digestOf(data));
});

test('stager API: bodies that break, stall or never end are answered 499 saying why, and the stager goes on', async (t) => {
  const api = suite.api();
  const pipe = await pipeline(api, [
    `const net = await import('node:net');
     const u = new URL(base);
     // A raw request on its own connection: the answer ("<status> <text>") once the server closed it.
     const raw = (method, path, head, body, endless) => new Promise((resolve) => {
       const s = net.connect(Number(u.port), u.hostname);
       let text = '';
       s.on('data', (d) => (text += d));
       s.on('error', () => {});
       s.on('close', () => {
         const m = /^HTTP\\/1\\.1 (\\d+)[^\\r]*\\r\\n[\\s\\S]*?\\r\\n\\r\\n([\\s\\S]*)$/.exec(text);
         resolve(m ? m[1] + ' ' + m[2] : 'no answer: ' + text);
       });
       s.write(method + ' ' + u.pathname + path + ' HTTP/1.1\\r\\nHost: x\\r\\n' + head + '\\r\\n' + body);
       if (endless) {
         const chunk = '4000\\r\\n' + 'x'.repeat(0x4000) + '\\r\\n';
         const more = () => { while (s.writable && s.write(chunk)); if (s.writable) s.once('drain', more); };
         more();
       }
     });
     const chunked = 'Content-Type: application/x-www-form-urlencoded\\r\\nTransfer-Encoding: chunked\\r\\n';
     const seen = {
       MALFORMED: await raw('PUT', '/meta', chunked, '9\\r\\nresource=\\r\\nzz\\r\\n'),
       STALLED: await raw('PUT', '/meta', 'Content-Type: application/x-www-form-urlencoded\\r\\nContent-Length: 100\\r\\n', 'resource=en'),
       ENDLESS: await raw('PUT', '/meta', chunked, '', true),
       UPLOAD_STALLED: await raw('POST', '/data?sha256=' + '0'.repeat(64), 'Content-Length: 1000\\r\\n', 'abc'),
     };
     for (const [key, value] of Object.entries(seen)) await form('PUT', '/meta', 'resource=environment&action=add&key=' + key + '&value=' + encodeURIComponent(value));
     await form('POST', '/done', '');`,
  ]);
  const p = await stage(api, pipe);
  t.is(p.state, 'ready', p.error_message);
  t.regex(p.environment['MALFORMED'] ?? '', /^499 malformed HTTP request: Invalid character in chunk size/);
  t.regex(p.environment['STALLED'] ?? '', /^499 the request body stalled: no byte of it arrived for 1 s/);
  t.regex(p.environment['ENDLESS'] ?? '', /^499 the request body is over the limit of 262144 bytes/);
  t.regex(p.environment['UPLOAD_STALLED'] ?? '', /^499 the request body stalled: no byte of it arrived for 1 s/);
});

test('stager API: an unknown token answers 404 and needs no bearer token', async (t) => {
  const url = `${suite.controller().url}/stager/${'A'.repeat(32)}/meta`;
  const status = await new Promise<number>((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
  t.is(status, 404);
  t.is((await fetch(`${suite.controller().url}/v1/stager/short/meta`)).status, 451);
});

test('stager API: POST /snapshot adds the files the stager changed on its agent to the package', async (t) => {
  const api = suite.api();
  const pipe = await pipeline(api, [
    `const fs = await import('node:fs');
     fs.mkdirSync('/built', { recursive: true });
     fs.writeFileSync('/built/out.txt', 'made by the stager');
     fs.writeFileSync('/outside.txt', 'not under the directory');
     const r = await form('POST', '/snapshot', 'directory=/built');
     if (r.status !== 200) { await form('POST', '/failed', 'message=' + encodeURIComponent('snapshot: ' + r.status + ' ' + await r.text())); process.exit(1); }
     await form('POST', '/done', '');`,
  ]);
  const source = tarGz({ 'app/index.js': 'console.log(1)' });
  const p = await stage(api, pipe, source);
  t.is(p.state, 'ready', p.error_message);
  const res = await api.fetch(`/packages/${p.uuid}/resources/${p.resources[0]!.uuid}`);
  t.is(res.status, 200);
  // Archives carry full paths (/app/index.js), as the design says; tar -t prints them relative.
  const listing = spawnSync('tar', ['-tzf', '-'], { input: Buffer.from(await res.arrayBuffer()) }).stdout.toString();
  t.regex(listing, /app\/index\.js/, 'the source is still there');
  t.regex(listing, /built\/out\.txt/, 'the stager-made file was added');
  t.notRegex(listing, /outside\.txt/, 'only files under the directory');
  t.notRegex(listing, /stager\/run\.mjs/, 'not the stager\'s own files');
});

test('staging: a relaunch keeps what the stager uploaded; /stagerfs holds the dependencies and a stager may chroot into it', async (t) => {
  const api = suite.api();
  const pipe = await pipeline(api, [
    `const data = Buffer.from(await (await fetch(base + '/data')).arrayBuffer());
     const meta = await (await fetch(base + '/meta')).json();
     if (!meta.dependencies.some((d) => d.name === 'node')) {
       const out = Buffer.concat([data, Buffer.from('R')]);
       const up = await fetch(base + '/data?sha256=' + await hash(out), { method: 'POST', body: out });
       if (up.status !== 200) { await form('POST', '/failed', 'message=' + encodeURIComponent(await up.text())); process.exit(1); }
       await form('PUT', '/meta', 'resource=dependencies&action=add&type=runtime&name=node');
       await form('POST', '/relaunch', '');
       process.exit(0);
     }
     const { execFileSync } = await import('node:child_process');
     let chrooted;
     try {
       chrooted = execFileSync('/usr/sbin/chroot', [process.env.STAGERFS, '/bin/sh', '-c', 'node -e "console.log(40 + 2)"; test -r /proc/self/status && echo proc; test -c /dev/null && echo dev'], { encoding: 'utf8' });
     } catch (err) {
       chrooted = 'error: ' + err.message;
     }
     const add = (k, v) => form('PUT', '/meta', 'resource=environment&action=add&key=' + k + '&value=' + encodeURIComponent(v));
     await add('RELAUNCH_SAW', data.subarray(-1).toString());
     await add('STAGERFS_SEEN', process.env.STAGERFS);
     await add('CHROOTED', chrooted.trim().split('\\n').join(' '));
     // A relative template path is accepted (resolved under START_PATH by the agent).
     const tpl = await form('PUT', '/meta', 'resource=templates&action=add&path=conf/app.conf');
     const bad = await form('PUT', '/meta', 'resource=templates&action=add&path=../../etc/passwd');
     await add('TEMPLATES', tpl.status + ' ' + bad.status);
     await form('POST', '/done', '');`,
  ]);
  const data = randomBytes(300);
  const p = await stage(api, pipe, data);
  t.is(p.state, 'ready', p.error_message);
  t.is(p.environment['RELAUNCH_SAW'], 'R', 'the relaunched stager downloaded what the first run uploaded');
  t.is(p.resources[0]!.length, data.length + 1);
  t.deepEqual(p.templates.map((x) => x.path), ['conf/app.conf']);
  t.is(p.environment['TEMPLATES'], '200 499');
  if (isolation === 'bwrap') {
    t.is(p.environment['STAGERFS_SEEN'], '/stagerfs');
    t.is(p.environment['CHROOTED'], '42 proc dev');
  } else {
    t.regex(p.environment['STAGERFS_SEEN'] ?? '', /\/stagerfs$/);
  }
});

test('staging: the package log keeps the stager\'s output and the coordinator\'s lines in the order they happened', async (t) => {
  const api = suite.api();
  const pipe = await pipeline(api, [
    // The request follows the line at once (a warm connection, no lazy loading): without the
    // coordinator waiting for the agent to ship the line, its own line would come first.
    `const http = await import('node:http');
     const agent = new http.Agent({ keepAlive: true });
     const get = (path) => new Promise((resolve, reject) => http.get(base + path, { agent }, (res) => { res.resume(); res.on('end', resolve); }).on('error', reject));
     await get('/meta');
     for (let i = 0; i < 3; i++) {
       console.log('stager: before download ' + i);
       await get('/data');
     }
     console.log('stager: after download');
     await form('POST', '/done', '');`,
  ]);
  const p = await stage(api, pipe);
  t.is(p.state, 'ready', p.error_message);
  const log = await eventually(async () => {
    const text = (await api.get(`/packages/${p.uuid}/logs?lines=1000`, { headers: { accept: 'text/plain' } })).text;
    return text.includes('Staging is complete.') && text.includes('stager: after download') ? text.split('\n') : undefined;
  }, { what: 'the staging log' });
  const lines = log.filter((l) => l.startsWith('stager:') || l.startsWith('[staging]')).map((l) => l.replace(/^\[staging\] /, ''));
  const launched = lines.findIndex((l) => l.startsWith('Launching instance of stager'));
  t.true(launched >= 0, log.join('\n'));
  t.deepEqual(lines.slice(launched + 1, launched + 8), [
    'stager: before download 0',
    'Downloading package for processing...',
    'stager: before download 1',
    'Downloading package for processing...',
    'stager: before download 2',
    'Downloading package for processing...',
    'stager: after download',
  ]);
});

test('stager API: a request without the token (/stager//meta) answers 450', async (t) => {
  const { hostname, port } = new URL(suite.controller().url);
  const status = (path: string, method = 'GET') =>
    new Promise<number>((resolve, reject) => {
      request({ hostname, port, path, method }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
  t.is(await status('/stager//meta'), 450);
  t.is(await status('/v1/stager//data'), 450);
  t.is(await status('/stager//done', 'POST'), 450);
});
