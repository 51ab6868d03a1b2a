/**
 * The staging coordinator over a real controller (RocksDB, HTTP on port 0)
 * with the local launcher: stagers are real child processes (small Node
 * scripts speaking the stager API with fetch) that reach STAGER_URL.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import test, { type ExecutionContext } from 'ava';
import { Controller, type ControllerOptions } from '../../controller.js';
import { JsonLogger, MemorySink } from '@platform/proto/common';
import type { Package } from '../../model/package.js';
import { createControllerMetrics } from '../../telemetry/controller-metrics.js';
import type { StagerLauncher } from '../stager-launcher.js';

const ctx = { principal: 'admin', requestId: 'test' };

interface Harness {
  controller: Controller;
  lines: { pkg: string; stream: string; text: string }[];
  dir: string;
}

async function startController(t: ExecutionContext, options: Partial<ControllerOptions> = {}, dir?: string): Promise<Harness> {
  const ownsDir = dir === undefined;
  dir ??= await mkdtemp(join(tmpdir(), 'staging-test-'));
  const lines: Harness['lines'] = [];
  const controller = await Controller.start({
    dataDir: join(dir, 'data'),
    listen: { host: '127.0.0.1', port: 0 },
    grpcListen: { host: '127.0.0.1', port: 0 },
    adminPassword: 'test-password',
    sync: false,
    builtins: false,
    stagerLauncher: 'local',
    stagerTimeoutMs: 60_000,
    log: new JsonLogger(new MemorySink(), 'info'),
    metrics: createControllerMetrics(),
    stagingLogSink: (pkg, stream, text) => lines.push({ pkg, stream, text }),
    ...options,
  });
  const data = dir;
  t.teardown(async () => {
    await controller.stop();
    if (ownsDir) await rm(data, { recursive: true, force: true });
  });
  return { controller, lines, dir };
}

/** A stager job running `script` (an ES module using fetch and STAGER_URL), and a pipeline of such jobs. */
async function pipelineOf(h: Harness, scripts: string[]): Promise<string> {
  const stagers = [];
  for (const [i, script] of scripts.entries()) {
    const file = join(h.dir, `stager-${randomBytes(4).toString('hex')}.mjs`);
    await writeFile(file, `const base = process.env.STAGER_URL;\n${script}`);
    const job = await h.controller.jobs.create(
      { fqn: `job::/stagers::s${i}-${randomBytes(3).toString('hex')}`, processes: { app: { start_command_raw: [process.execPath, file] } } },
      ctx,
      h.controller.references.trusted(),
    );
    stagers.push({ uuid: job.uuid });
  }
  const pipeline = await h.controller.pipelines.create({ fqn: `stagpipe::/pipes::p${randomBytes(3).toString('hex')}`, stagers }, ctx, h.controller.references.trusted());
  return pipeline.uuid;
}

async function stagePackage(h: Harness, pipelineUuid: string, data = randomBytes(2000)): Promise<Package> {
  const digest = `sha256:${createHash('sha256').update(data).digest('hex')}`;
  const created = await h.controller.packages.create(
    { fqn: `package::/apps::a${randomBytes(4).toString('hex')}`, resources: [{ length: data.length, digest }], staging_pipeline: { uuid: pipelineUuid } },
    ctx,
    h.controller.references.trusted(),
  );
  return h.controller.packages.upload(created.uuid, undefined, Readable.from([data]), data.length, ctx);
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const settled = (h: Harness, uuid: string) =>
  until('the package to leave staging', async () => {
    const p = await h.controller.packages.get(uuid);
    return p.state === 'staging' ? undefined : p;
  });

/** Script parts. */
const COPY_WITH_SUFFIX = `
const data = Buffer.from(await (await fetch(base + '/data')).arrayBuffer());
const out = Buffer.concat([data, Buffer.from('+')]);
const sha = (await import('node:crypto')).createHash('sha256').update(out).digest('hex');
const up = await fetch(base + '/data?sha256=' + sha, { method: 'POST', body: out, headers: { 'content-length': String(out.length) } });
if (up.status !== 200) throw new Error('upload ' + up.status + ' ' + await up.text());
`;
const put = (fields: string) => `await fetch(base + '/meta', { method: 'PUT', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: ${JSON.stringify(fields)} });\n`;
const post = (what: string, body = '') =>
  `await fetch(base + '/${what}', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: ${JSON.stringify(body)} });\n`;

test('coordinator: a pipeline of two stagers runs in order on each output and ends ready', async (t) => {
  const h = await startController(t);
  const pipe = await pipelineOf(h, [
    COPY_WITH_SUFFIX + put('resource=environment&action=add&key=START_COMMAND&value=node%20index.js') + post('done'),
    COPY_WITH_SUFFIX + put('resource=environment&action=add&key=SECOND&value=yes') + put('resource=provides&action=add&type=package&name=thing') + post('done'),
  ]);
  const data = randomBytes(3000);
  const before = await stagePackage(h, pipe, data);
  t.is(before.state, 'staging');
  const after = await settled(h, before.uuid);
  t.is(after.state, 'ready', after.error_message);
  const expected = Buffer.concat([data, Buffer.from('++')]);
  t.is(after.resources[0]!.length, expected.length);
  t.is(after.resources[0]!.digest, `sha256:${createHash('sha256').update(expected).digest('hex')}`);
  t.is(after.resources[0]!.uuid, before.resources[0]!.uuid);
  t.deepEqual(after.environment, { SECOND: 'yes', START_COMMAND: 'node index.js' });
  t.deepEqual(after.provides, [{ type: 'package', name: 'thing' }]);
  t.true(after.version_id > before.version_id);
  const download = await h.controller.packages.download(after.uuid, undefined, ctx);
  const chunks: Buffer[] = [];
  for await (const c of download.stream) chunks.push(c as Buffer);
  t.deepEqual(Buffer.concat(chunks), expected);
  const console = h.lines.filter((l) => l.pkg === after.uuid && l.stream === 'staging').map((l) => l.text);
  t.regex(console[0]!, /^\[staging\] Beginning staging with 'stagpipe::\/pipes::p\w+' pipeline, 2 stager\(s\) defined\.$/);
  t.true(console.includes('[staging] Downloading package for processing...'));
  t.is(console.at(-1), '[staging] Staging is complete.');
});

test('coordinator: a stager that reports failed fails the package with its message', async (t) => {
  const h = await startController(t);
  const pipe = await pipelineOf(h, [post('failed', 'message=no%20index.js%20here') + 'process.exit(1);']);
  const p = await settled(h, (await stagePackage(h, pipe)).uuid);
  t.is(p.state, 'failed');
  t.regex(p.error_message, /no index\.js here/);
  t.true(h.lines.some((l) => l.stream === 'staging' && l.text.startsWith('[staging] Staging failed:')));
});

test('coordinator: a stager that exits without reporting fails the package', async (t) => {
  const h = await startController(t);
  const pipe = await pipelineOf(h, ['console.log("bye"); process.exit(3);']);
  const p = await settled(h, (await stagePackage(h, pipe)).uuid);
  t.is(p.state, 'failed');
  t.regex(p.error_message, /without reporting done or failed \(exit code 3\)/);
  t.true(h.lines.some((l) => l.stream === 'stdout' && l.text === 'bye'));
});

test('coordinator: a stager that never reports is stopped at the time limit and the package fails', async (t) => {
  const h = await startController(t, { stagerTimeoutMs: 1500 });
  const pipe = await pipelineOf(h, ['setInterval(() => {}, 1000);']);
  const p = await settled(h, (await stagePackage(h, pipe)).uuid);
  t.is(p.state, 'failed');
  t.regex(p.error_message, /did not finish within the stager time limit/);
});

test('coordinator: relaunch starts the stager again with the added dependency installed and its environment applied', async (t) => {
  const h = await startController(t);
  await h.controller.packages.registerBuiltin(
    { fqn: 'package::/platform/runtimes::testrt-1.2', provides: [{ type: 'runtime', name: 'testrt' }, { type: 'runtime', name: 'testrt-1.2' }], dependencies: [], environment: { TESTRT: 'installed' }, hostPaths: [] },
    ctx,
  );
  const pipe = await pipelineOf(h, [
    `if (process.env.TESTRT !== 'installed') {\n` + put('resource=dependencies&action=add&type=runtime&name=testrt') + post('relaunch') + 'process.exit(0);\n}\n' +
      put('resource=environment&action=add&key=SAW&value=' + "' + process.env.TESTRT + '") + post('done'),
  ]);
  const p = await settled(h, (await stagePackage(h, pipe)).uuid);
  t.is(p.state, 'ready', p.error_message);
  t.deepEqual(p.dependencies, [{ type: 'runtime', name: 'testrt' }]);
  t.true(h.lines.some((l) => l.text.startsWith('[staging] Relaunching stager')));
  // The job that uses the package shows the resolved dependency as a system package.
  const job = await h.controller.jobs.create({ fqn: `job::/apps::j${randomBytes(3).toString('hex')}`, packages: [{ uuid: p.uuid }] }, ctx, h.controller.references.trusted());
  const shown = JSON.parse(await h.controller.jobs.getJson(job.uuid)) as { packages: { uuid: string; source: string }[] };
  t.is(shown.packages.length, 2);
  t.is(shown.packages[1]!.source, 'system');
});

test('coordinator: a dependency that nothing satisfies fails the package with the notes message', async (t) => {
  const h = await startController(t);
  const pipe = await pipelineOf(h, [put('resource=dependencies&action=add&type=package&name=nginx') + post('relaunch')]);
  const p = await settled(h, (await stagePackage(h, pipe)).uuid);
  t.is(p.state, 'failed');
  t.is(p.error_message, 'Failed to update package dependencies: Failed to resolve packages: no packages satisfy dependency "package.nginx"');
});

test('stager API: status codes for missing Content-Length, wrong sha256, unsupported resource, reported runs, dead and malformed tokens', async (t) => {
  const h = await startController(t);
  const pipe = await pipelineOf(h, ['console.log("URL " + base); setInterval(() => {}, 1000);']);
  const pkg = await stagePackage(h, pipe);
  const url = await until('the stager to print its URL', async () => h.lines.find((l) => l.text.startsWith('URL '))?.text.slice(4));
  t.regex(url, /^http:\/\/127\.0\.0\.1:\d+\/stager\/[A-Za-z0-9_-]{32}$/);

  // No bearer token needed; GET /meta answers the package's metadata.
  const meta = await fetch(`${url}/meta`);
  t.is(meta.status, 200);
  t.deepEqual(await meta.json(), { dependencies: [], provides: [], environment: {}, templates: [] });

  // A streamed body without Content-Length.
  const chunked = await fetch(`${url}/data?sha256=${'0'.repeat(64)}`, {
    method: 'POST',
    body: Readable.toWeb(Readable.from([Buffer.from('abc')])) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  t.is(chunked.status, 499);
  t.regex(await chunked.text(), /a Content-Length must be provided/);

  const wrong = await fetch(`${url}/data?sha256=${'0'.repeat(64)}`, { method: 'POST', body: 'abc' });
  t.is(wrong.status, 499);
  t.regex(await wrong.text(), /digest mismatch/);
  const noSha = await fetch(`${url}/data`, { method: 'POST', body: 'abc' });
  t.is(noSha.status, 499);

  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const unsupported = await fetch(`${url}/meta`, { method: 'PUT', headers: form, body: 'resource=volumes&action=add' });
  t.is(unsupported.status, 448);
  const older = await fetch(`${url}/meta`, { method: 'POST', headers: form, body: 'resource=environment&action=add&key=K&value=V' });
  t.is(older.status, 200);
  t.is(await older.text(), 'OK');

  t.is((await fetch(`${url.slice(0, url.lastIndexOf('/'))}/not-a-token/meta`)).status, 451);

  const done = await fetch(`${url}/done`, { method: 'POST' });
  t.is(done.status, 200);
  // Reported: no longer current until the run is torn down, then gone.
  const late = await fetch(`${url}/meta`, { method: 'PUT', headers: form, body: 'resource=environment&action=add&key=L&value=1' });
  t.true(late.status === 452 || late.status === 404, String(late.status));
  const p = await settled(h, pkg.uuid);
  t.is(p.state, 'ready', p.error_message);
  t.deepEqual(p.environment, { K: 'V' });
  t.is((await fetch(`${url}/meta`)).status, 404);
});

test('coordinator: a package left staging by a stop runs its pipeline again at the next start', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'staging-restart-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const first = await startController(t, { stagerLauncher: 'none' }, dir);
  const pipe = await pipelineOf(first, [put('resource=environment&action=add&key=RESUMED&value=1') + post('done')]);
  const pkg = await stagePackage(first, pipe);
  t.is((await first.controller.packages.get(pkg.uuid)).state, 'staging');
  await first.controller.stop();
  const second = await startController(t, {}, dir);
  const p = await settled(second, pkg.uuid);
  t.is(p.state, 'ready', p.error_message);
  t.deepEqual(p.environment, { RESUMED: '1' });
});

test('stager API: POST /snapshot lays the files the launcher reports changed over the package', async (t) => {
  const tar = await import('tar');
  const { LocalStagerLauncher } = await import('../local-launcher.js');
  const { mkdir } = await import('node:fs/promises');
  const dir = await mkdtemp(join(tmpdir(), 'snapshot-test-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const pack = async (name: string, files: Record<string, string>) => {
    const root = join(dir, name);
    for (const [path, content] of Object.entries(files)) {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), content);
    }
    const chunks: Buffer[] = [];
    for await (const c of tar.c({ gzip: true, cwd: root, prefix: '/', portable: true }, ['app']) as unknown as AsyncIterable<Buffer>) chunks.push(c);
    return Buffer.concat(chunks);
  };
  const base = await pack('base', { 'app/a.txt': 'old a', 'app/b.txt': 'b' });
  const changes = await pack('changes', { 'app/a.txt': 'new a', 'app/c.txt': 'c' });
  const directories: (string | undefined)[] = [];
  // A launcher with a layered file system would diff the instance; this one runs local
  // processes and answers fixed changes.
  const holder: { local?: InstanceType<typeof LocalStagerLauncher> } = {};
  const launcher: StagerLauncher = {
    launch: async (req) => ({
      ...(await holder.local!.launch(req)),
      snapshot: async (directory) => {
        directories.push(directory);
        return Readable.from([changes]);
      },
    }),
  };
  const h = await startController(t, { stagerLauncher: launcher }, dir);
  holder.local = new LocalStagerLauncher({ jobs: h.controller.jobs, resolver: h.controller.resolver, sink: () => undefined, log: new JsonLogger(new MemorySink(), 'silent'), workDir: join(dir, 'runs') });
  const pipe = await pipelineOf(h, [post('snapshot', 'directory=/app') + post('done')]);
  const p = await settled(h, (await stagePackage(h, pipe, base)).uuid);
  t.is(p.state, 'ready', p.error_message);
  t.deepEqual(directories, ['/app']);
  const download = await h.controller.packages.download(p.uuid, undefined, ctx);
  const files = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    const parser = new tar.Parser({
      onReadEntry: (e) => {
        let text = '';
        e.on('data', (c: Buffer) => (text += c.toString()));
        e.on('end', () => e.type === 'File' && files.set(e.path, text));
      },
    });
    parser.on('end', resolve);
    parser.on('error', reject);
    download.stream.pipe(parser);
  });
  t.deepEqual(Object.fromEntries([...files].sort()), { '/app/a.txt': 'new a', '/app/b.txt': 'b', '/app/c.txt': 'c' });
});
