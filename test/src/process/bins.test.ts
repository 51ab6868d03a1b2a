/**
 * The operator contract's binaries (platform-controller, platform-agent) work from a fresh clone
 * after the README's set-up. `npm ci` links each package's bin while it installs, before the
 * build, and skips a link whose target does not exist: so a bin must be a committed launcher,
 * never a file under dist/. CI runs this in a fresh clone (.ci/run).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Manifest {
  workspaces?: string[];
  bin?: Record<string, string>;
}

function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;
}

const bins = (manifest('.').workspaces ?? []).flatMap((ws) => Object.entries(manifest(ws).bin ?? {}).map(([name, target]) => ({ ws, name, target: join(ws, target) })));

test('bins: every bin is a committed launcher, outside dist/, that npm has linked', (t) => {
  t.true(bins.some((b) => b.name === 'platform-controller') && bins.some((b) => b.name === 'platform-agent'));
  for (const { name, target } of bins) {
    t.false(target.split('/').includes('dist'), `${name} points into dist/, which does not exist when npm links bins`);
    // `env -S` passes an environment and Node flags on the first line (the controller's, see its launcher).
    t.regex(readFileSync(join(ROOT, target), 'utf8'), /^#!\/usr\/bin\/env (node|-S ([A-Z_]+=\S+ )*node( --[a-z-]+(=\S+)?)+)\n/, `${name}: a node script`);
    const tracked = spawnSync('git', ['ls-files', '--error-unmatch', target], { cwd: ROOT, encoding: 'utf8' });
    t.is(tracked.status, 0, `${target} is committed`);
    const link = join(ROOT, 'node_modules', '.bin', name);
    t.true(existsSync(link), `node_modules/.bin/${name} exists`);
    t.is(realpathSync(link), realpathSync(join(ROOT, target)), `node_modules/.bin/${name} is the launcher`);
  }
});

test('bins: npx platform-controller and npx platform-agent answer --version', (t) => {
  for (const name of ['platform-controller', 'platform-agent']) {
    const run = spawnSync('npx', ['--no', '--', name, '--version'], { cwd: ROOT, encoding: 'utf8' });
    t.is(run.status, 0, `${name}: ${run.stderr}`);
    t.regex(run.stdout, /^\d+\.\d+\.\d+\n$/, name);
  }
});

test('bins: the controller runs with the environment and Node flags of its launcher\'s first line (glibc\'s arenas bounded, the heap\'s growth too)', (t) => {
  // What Node starts with, printed before the program runs (NODE_OPTIONS reaches the node that env starts).
  const show = 'data:text/javascript,console.log(JSON.stringify({ arenas: process.env.MALLOC_ARENA_MAX, flags: process.execArgv }))';
  const run = spawnSync('npx', ['--no', '--', 'platform-controller', '--version'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, MALLOC_ARENA_MAX: '', NODE_OPTIONS: `--import="${show}"` } });
  t.is(run.status, 0, run.stderr);
  // The last line before the version is the controller's (npx, a node program too, prints its own first).
  const lines = run.stdout.trim().split('\n');
  t.regex(lines.at(-1)!, /^\d+\.\d+\.\d+$/);
  const seen = JSON.parse(lines.at(-2)!) as { arenas?: string; flags: string[] };
  t.is(seen.arenas, '2');
  t.true(seen.flags.includes('--heap-growing-percent=50') && seen.flags.includes('--initial-old-space-size=128'), seen.flags.join(' '));
});

test('bins: platform-agent --instance-networks takes on or off (alone: on, the opt-in of earlier releases); anything else is a usage error', (t) => {
  const bad = spawnSync('npx', ['--no', '--', 'platform-agent', '--instance-networks=maybe'], { cwd: ROOT, encoding: 'utf8' });
  t.is(bad.status, 2, bad.stderr);
  t.regex(bad.stderr, /^platform-agent: --instance-networks: "maybe" is not on or off/);
  const badEnv = spawnSync('npx', ['--no', '--', 'platform-agent'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PLATFORM_AGENT_INSTANCE_NETWORKS: 'sometimes' } });
  t.regex(badEnv.stderr, /^platform-agent: PLATFORM_AGENT_INSTANCE_NETWORKS: "sometimes" is not on or off/);
  // Accepted forms get past the flags (and stop at the missing join secret, before anything runs).
  for (const form of ['--instance-networks', '--instance-networks=off', '--instance-networks=on']) {
    const run = spawnSync('npx', ['--no', '--', 'platform-agent', form, '--join-token-file', '/nonexistent/token'], { cwd: ROOT, encoding: 'utf8' });
    t.is(run.status, 2, run.stderr);
    t.regex(run.stderr, /^platform-agent: --join-token-file/, `${form}: ${run.stderr}`);
  }
});
