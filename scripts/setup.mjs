// Makes a fresh clone runnable: installs dependencies when they are missing or
// older than the lock file, then builds every workspace (tsc -b is incremental) and the web console.
// Used by `npm start`, `npm test` and `npm run bench`, so that each works alone.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`setup: ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}

const marker = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');
const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
if (stale) {
  console.log('setup: installing dependencies (npm ci)');
  run(npm, ['ci', '--no-audit', '--no-fund']);
}
console.log('setup: building (tsc -b)');
run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b']);
// The web console's bundle, which the controller serves at /console/ (controller/console/build.mjs).
run(process.execPath, [join(root, 'controller', 'console', 'build.mjs')]);
// The command-line client's archives for GET /cli/download (skipped when up to date). `npm start`
// passes --no-downloads and builds them in the background once the controller runs: a first
// start need not wait for them (the controller serves them as soon as they are there).
if (!process.argv.includes('--no-downloads')) run(process.execPath, [join(root, 'cli', 'scripts', 'build-downloads.mjs')]);
