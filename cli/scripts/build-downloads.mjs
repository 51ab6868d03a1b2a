// Builds the archives of the command-line client that the controller serves at
// GET /cli/download/{platform} (and lists in GET /version), into cli/downloads/:
//
//   platform-<platform>.tar.gz and .zip   for linux, osx, linux_amd64, osx_amd64, darwin_amd64, darwin
//   manifest.json                          each archive's size and sha256, what the controller serves
//
// The client is bundled into one file with esbuild. On linux_amd64 it becomes a single
// executable (Node's single executable applications: the bundle as a blob injected into a
// copy of this node binary with postject), when this machine is linux x64 and its node
// binary carries the SEA fuse; every other platform, or linux_amd64 when that cannot be
// built here, gets the bundle as a script that runs on Node 20.19+, and a README saying so.
//
// Run by scripts/setup.mjs after tsc (npm start, npm test, npm run build:downloads -w cli):
// skipped when nothing it depends on changed (a stamp of the inputs), so only the first
// build and a change of the client pay for it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { build } from 'esbuild';
import { create as createTar } from 'tar';
import yazl from 'yazl';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(cli, 'downloads');
const work = join(out, '.work');
export const PLATFORMS = ['linux', 'osx', 'linux_amd64', 'osx_amd64', 'darwin_amd64', 'darwin'];
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const log = (msg) => console.log(`build-downloads: ${msg}`);

async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.js') && !e.name.endsWith('.test.js')).map((e) => join(e.parentPath ?? e.path, e.name)).sort();
}

/** What the archives depend on: the client's compiled code, its package.json, this script, the node binary. */
async function stampOf() {
  const h = createHash('sha256');
  for (const f of await filesUnder(join(cli, 'dist'))) h.update(relative(cli, f)).update(await readFile(f));
  h.update(await readFile(join(cli, 'package.json')));
  h.update(await readFile(fileURLToPath(import.meta.url)));
  const node = await stat(process.execPath);
  h.update(`${process.version} ${process.platform} ${process.arch} ${node.size} ${node.mtimeMs}`);
  return h.digest('hex');
}

async function bundle(version) {
  const file = join(work, 'platform.cjs');
  await build({
    entryPoints: [join(cli, 'dist', 'entry.js')],
    bundle: true,
    platform: 'node',
    target: 'node20.19',
    format: 'cjs',
    outfile: file,
    define: { PLATFORM_CLI_VERSION: JSON.stringify(version) },
    banner: { js: '#!/usr/bin/env node' },
    legalComments: 'inline',
    logLevel: 'warning',
    // version.ts reads package.json through import.meta only when PLATFORM_CLI_VERSION is not defined, never in the bundle.
    logOverride: { 'empty-import-meta': 'silent' },
  });
  await chmod(file, 0o755);
  return file;
}

/** The single executable, or the reason it cannot be built here. */
async function singleExecutable(bundleFile) {
  if (process.platform !== 'linux' || process.arch !== 'x64') return { reason: `this machine is ${process.platform}/${process.arch}, not linux/x64` };
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) return { reason: `node ${process.version} is older than 20.19` };
  const binary = await readFile(process.execPath);
  if (!binary.includes(SEA_FUSE)) return { reason: `${process.execPath} has no single-executable fuse (a distribution build without it)` };
  const config = join(work, 'sea-config.json');
  const blob = join(work, 'sea.blob');
  await writeFile(config, JSON.stringify({ main: bundleFile, output: blob, disableExperimentalSEAWarning: true }));
  const gen = spawnSync(process.execPath, ['--experimental-sea-config', config], { cwd: work, encoding: 'utf8' });
  if (gen.status !== 0) return { reason: `node --experimental-sea-config failed: ${gen.stderr.trim()}` };
  const exe = join(work, 'platform');
  await copyFile(process.execPath, exe);
  await chmod(exe, 0o755);
  const postject = join(dirname(fileURLToPath(import.meta.resolve('postject'))), 'cli.js');
  const inject = spawnSync(process.execPath, [postject, exe, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE], { encoding: 'utf8' });
  if (inject.status !== 0) return { reason: `postject failed: ${(inject.stderr || inject.stdout).trim()}` };
  const check = spawnSync(exe, ['--version'], { encoding: 'utf8' });
  if (check.status !== 0) return { reason: `the single executable does not run: ${check.stderr.trim()}` };
  return { exe };
}

function readme(platform, kind, version, reason) {
  const lines = [`# platform ${version} (${platform})`, ''];
  if (kind === 'sea') {
    lines.push('`platform` is a single executable (Node.js single executable application): it needs nothing installed.', '');
  } else {
    lines.push(
      '`platform` is the bundled client, one JavaScript file: it runs on Node.js 20.19 or later',
      '(`node --version`), found as `node` on the PATH (or run it as `node platform ...`).',
      '',
    );
    if (reason) lines.push(`A single executable for this platform could not be built where this archive was made: ${reason}.`, '');
  }
  lines.push('Put it on your PATH, then:', '', '```sh', 'platform login <API URL>', 'platform app deploy ./my-app', 'platform --help', '```', '', 'Shell completion: `source <(platform completion bash)` (or `zsh`).', '');
  return lines.join('\n');
}

async function tarGz(dir, file) {
  await pipeline(createTar({ cwd: dir, portable: true, gzip: false }, ['platform']), createGzip({ level: 6 }), createWriteStream(file));
}

async function zip(dir, file) {
  const z = new yazl.ZipFile();
  for (const name of ['platform/platform', 'platform/README.md']) {
    const path = join(dir, name);
    z.addFile(path, name, { mode: (await stat(path)).mode });
  }
  z.end();
  await pipeline(z.outputStream, createWriteStream(file));
}

async function sha256(file) {
  const h = createHash('sha256');
  await pipeline(createReadStream(file), h);
  return h.digest('hex');
}

async function main() {
  if (!existsSync(join(cli, 'dist', 'entry.js'))) throw new Error('cli/dist/entry.js is missing: run tsc -b first');
  const stamp = await stampOf();
  const stampFile = join(out, 'manifest.json');
  if (existsSync(stampFile)) {
    const manifest = JSON.parse(await readFile(stampFile, 'utf8'));
    if (manifest.stamp === stamp && PLATFORMS.every((p) => existsSync(join(out, `platform-${p}.tar.gz`)) && existsSync(join(out, `platform-${p}.zip`)))) {
      log('up to date');
      return;
    }
  }
  const started = Date.now();
  const version = JSON.parse(await readFile(join(cli, 'package.json'), 'utf8')).version;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const bundleFile = await bundle(version);
  const sea = process.env.PLATFORM_CLI_NO_SEA === '1' ? { reason: 'PLATFORM_CLI_NO_SEA=1' } : await singleExecutable(bundleFile);
  if (sea.reason) log(`linux_amd64 gets the bundled client: ${sea.reason}`);
  const manifest = { stamp, version, platforms: {} };
  for (const platform of PLATFORMS) {
    const kind = platform === 'linux_amd64' && sea.exe ? 'sea' : 'bundle';
    const dir = join(work, platform);
    await mkdir(join(dir, 'platform'), { recursive: true });
    await copyFile(kind === 'sea' ? sea.exe : bundleFile, join(dir, 'platform', 'platform'));
    await chmod(join(dir, 'platform', 'platform'), 0o755);
    await writeFile(join(dir, 'platform', 'README.md'), readme(platform, kind, version, platform === 'linux_amd64' ? sea.reason : undefined));
    const files = {};
    for (const [ext, make] of [['tar.gz', tarGz], ['zip', zip]]) {
      const tmp = join(work, `platform-${platform}.${ext}`);
      await make(dir, tmp);
      files[ext] = { file: `platform-${platform}.${ext}`, size: (await stat(tmp)).size, sha256: await sha256(tmp) };
      await rename(tmp, join(out, files[ext].file));
    }
    manifest.platforms[platform] = { kind, ...files };
  }
  await writeFile(stampFile, `${JSON.stringify(manifest, null, 2)}\n`);
  await rm(work, { recursive: true, force: true });
  log(`built ${PLATFORMS.length * 2} archives in ${((Date.now() - started) / 1000).toFixed(1)} s (linux_amd64: ${sea.exe ? 'single executable' : 'bundled client'})`);
}

await main();
