/**
 * GET /cli/download/{platform}: every platform of the specification is listed in GET
 * /version with its real size and sha256; the archives (gzip tar, or zip for Accept:
 * application/zip) download, unpack, and the client in them logs in and talks to the cluster.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { x as untar } from 'tar';
import { Cli, missingTool } from '../harness/cli.js';
import { ControllerProcess, TEST_ADMIN_PASSWORD } from '../harness/controller-process.js';

const PLATFORMS = ['linux', 'osx', 'linux_amd64', 'osx_amd64', 'darwin_amd64', 'darwin'];

interface VersionInfo {
  download_urls: Record<string, { url: string; size: number; sha256: string }>;
}

test('cli download: every platform is in /version with its size and sha256; the tar.gz and zip unpack and the client runs', async (t) => {
  t.timeout(3 * 60_000);
  if (missingTool(t, 'unzip')) return;
  const controller = await ControllerProcess.start();
  t.teardown(() => controller.dispose());
  const api = await controller.admin();
  const version = (await api.get<VersionInfo>('/v1/version')).body;
  t.deepEqual(Object.keys(version.download_urls).sort(), [...PLATFORMS].sort());
  const dir = await mkdtemp(join(tmpdir(), 'platform-download-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));

  for (const platform of ['linux_amd64', 'osx']) {
    const listed = version.download_urls[platform]!;
    t.is(listed.url, `${controller.url}/v1/cli/download/${platform}`);
    // No token needed: a new user downloads the client before logging in.
    const gz = await fetch(listed.url, { headers: { Accept: 'application/x-gzip' } });
    t.is(gz.status, 200);
    t.is(gz.headers.get('content-type'), 'application/x-gzip');
    const gzBytes = Buffer.from(await gz.arrayBuffer());
    t.is(gzBytes.length, listed.size);
    t.is(createHash('sha256').update(gzBytes).digest('hex'), listed.sha256);
    const zip = await fetch(listed.url, { headers: { Accept: 'application/zip' } });
    t.is(zip.headers.get('content-type'), 'application/zip');
    const zipBytes = Buffer.from(await zip.arrayBuffer());
    t.is(zip.headers.get('x-platform-digest'), `sha256:${createHash('sha256').update(zipBytes).digest('hex')}`);

    const fromTar = join(dir, `${platform}-tar`);
    const fromZip = join(dir, `${platform}-zip`);
    await writeFile(join(dir, `${platform}.tar.gz`), gzBytes);
    await writeFile(join(dir, `${platform}.zip`), zipBytes);
    await Promise.all([mkdir(fromTar), mkdir(fromZip)]);
    await untar({ file: join(dir, `${platform}.tar.gz`), cwd: fromTar });
    t.is(spawnSync('unzip', ['-q', join(dir, `${platform}.zip`), '-d', fromZip]).status, 0);
    const readme = await readFile(join(fromTar, 'platform', 'README.md'), 'utf8');
    const exe = join(fromTar, 'platform', 'platform');
    // The single executable on linux_amd64 needs no node; the bundled client runs on node.
    const single = platform === 'linux_amd64' && !readme.includes('runs on Node.js 20.19');
    t.log(`${platform}: ${single ? 'single executable' : 'bundled client'}, ${gzBytes.length} bytes`);
    if (platform === 'osx') t.regex(readme, /runs on Node\.js 20\.19 or later/);
    await chmod(exe, 0o755);
    for (const [where, file] of [['tar', exe], ['zip', join(fromZip, 'platform', 'platform')]] as const) {
      const cli = await Cli.create(t, single ? [file] : [process.execPath, file]);
      t.is((await cli.ok(['--version'])).trim(), '0.1.0', where);
      await cli.ok(['login', controller.url, '--user', 'admin', '--password-stdin'], { stdin: `${TEST_ADMIN_PASSWORD}\n` });
      const whoami = await cli.json<{ user: string; namespace: string }>(['whoami']);
      t.is(whoami.user, 'admin');
      t.is(whoami.namespace, '/sandbox/admin');
    }
  }

  const wrong = await fetch(`${controller.url}/v1/cli/download/windows`);
  t.is(wrong.status, 404);
  t.regex(((await wrong.json()) as { message: string }).message, /no command-line client for platform "windows"/);
});
