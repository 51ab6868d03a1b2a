/**
 * What `npm start` builds before it starts (`scripts/setup.mjs --quick`), on a copy of the
 * repository's sources: the workspaces the cluster runs are transpiled file by file (esbuild, no
 * type check, so a fresh clone answers soon), the console is built, and a controller and an agent
 * run from that output: the agent joins and runs a job's instance. A second run transpiles
 * nothing, and a changed source is transpiled again.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import type { Job } from '@platform/controller';
import { AgentProcess } from '../harness/agent-process.js';
import { uploadPackage } from '../harness/apps.js';
import { runningInstances, testIsolation } from '../harness/cluster.js';
import { ControllerProcess } from '../harness/controller-process.js';
import { envAppArchive, envAppJob } from '../harness/gateway-app.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const RUNTIME = ['proto', 'stager-sdk', 'gateway-sdk', 'controller', 'agent', 'cli'];

/**
 * A copy of the repository's sources (no dist/) with a node_modules of links to the repository's
 * own packages, except the workspaces', which lead to the copy: what a clone after `npm ci` holds.
 */
async function sourceCopy(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'quick-start-'));
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.base.json', 'tsconfig.json', 'scripts']) await cp(join(REPO, file), join(dir, file), { recursive: true });
  for (const ws of [...RUNTIME, 'test']) {
    await cp(join(REPO, ws), join(dir, ws), {
      recursive: true,
      filter: (src) => !/[/\\](dist|node_modules|downloads|screenshots)([/\\]|$)/.test(src.slice(join(REPO, ws).length)),
    });
  }
  const modules = join(dir, 'node_modules');
  await mkdir(join(modules, '@platform'), { recursive: true });
  for (const entry of await readdir(join(REPO, 'node_modules'))) {
    if (entry === '@platform' || entry === '.package-lock.json') continue;
    await symlink(join(REPO, 'node_modules', entry), join(modules, entry));
  }
  for (const ws of [...RUNTIME, 'test']) {
    await symlink(join(dir, ws), join(modules, '@platform', ws));
    // A workspace's own packages (versions that differ from the root's).
    if (await exists(join(REPO, ws, 'node_modules'))) await symlink(join(REPO, ws, 'node_modules'), join(dir, ws, 'node_modules'));
  }
  // Installed after the lock file: setup does not run npm ci.
  await writeFile(join(modules, '.package-lock.json'), await readFile(join(REPO, 'node_modules', '.package-lock.json')));
  return dir;
}

const exists = (path: string) => stat(path).then(() => true, () => false);

function setup(dir: string): { status: number | null; output: string; ms: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, [join(dir, 'scripts', 'setup.mjs'), '--quick'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}`, ms: Date.now() - started };
}

test('npm start\'s setup transpiles what the cluster runs without a type check, and a controller and an agent run from it', async (t) => {
  const dir = await sourceCopy();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const first = setup(dir);
  t.is(first.status, 0, first.output);
  t.regex(first.output, /setup: \d+ sources transpiled \(esbuild\)/);
  t.notRegex(first.output, /tsc -b\)/, 'no tsc build before the start');
  t.log(`setup --quick on a fresh copy: ${first.ms} ms`);
  for (const ws of RUNTIME) {
    await t.throwsAsync(stat(join(dir, ws, 'dist', '.tsbuildinfo')), undefined, `${ws}: tsc did not run`);
  }
  await stat(join(dir, 'controller', 'dist', 'console-app', 'index.html'));

  // A controller and an agent from that output: the agent joins, an instance runs.
  const controller = await ControllerProcess.start({ bin: join(dir, 'controller', 'dist', 'bin', 'platform-controller.js') });
  t.teardown(() => controller.dispose());
  const api = await controller.admin();
  const agent = await AgentProcess.start(controller, api, { bin: join(dir, 'agent', 'dist', 'bin', 'platform-agent.js'), isolation: testIsolation(t) });
  t.teardown(() => agent.dispose());
  const pkg = (await uploadPackage(api, '/quick', envAppArchive())).uuid;
  const job = await api.post<Job>('/jobs', envAppJob('job::/quick::app', pkg));
  t.is(job.status, 200, job.text);
  await runningInstances(api, job.body.uuid, 1);
  const page = await fetch(`${controller.url}/console/`);
  t.is(page.status, 200);

  // Again: nothing to transpile; a changed source is transpiled again.
  const second = setup(dir);
  t.is(second.status, 0, second.output);
  t.regex(second.output, /setup: workspaces up to date/);
  const source = join(dir, 'controller', 'src', 'cluster', 'version.ts');
  const later = new Date(Date.now() + 2000);
  await utimes(source, later, later);
  const third = setup(dir);
  t.is(third.status, 0, third.output);
  t.regex(third.output, /setup: 1 source transpiled/);
});
