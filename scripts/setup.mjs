// Makes a fresh clone runnable: installs dependencies when they are missing or
// older than the lock file, then builds every workspace (tsc -b is incremental) and the web console.
// Used by `npm start`, `npm test` and `npm run bench`, so that each works alone.
//
// `npm start` passes --quick: the workspaces the running cluster needs are transpiled with esbuild
// (no type check; a second on a fresh clone, only the sources newer than their output after that)
// instead of type-checked by tsc, which takes a minute on a fresh clone of a small machine.
// start.mjs then runs the full `tsc -b` in the background, which writes the same code with the
// declarations and reports type errors, and builds the command-line client's downloads after it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quick = process.argv.includes('--quick');

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
if (quick) {
  await transpile();
} else {
  console.log('setup: building (tsc -b)');
  run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b']);
}
// The web console's bundle, which the controller serves at /console/ (controller/console/build.mjs).
run(process.execPath, [join(root, 'controller', 'console', 'build.mjs')]);
// The command-line client's archives for GET /cli/download (skipped when up to date). `npm start`
// builds them in the background once the controller runs: a first start need not wait for them
// (the controller serves them as soon as they are there).
if (!quick && !process.argv.includes('--no-downloads')) run(process.execPath, [join(root, 'cli', 'scripts', 'build-downloads.mjs')]);

/**
 * What a running cluster needs of each workspace, `src/**\/*.ts` as `dist/**\/*.js`, transpiled one
 * file at a time as tsc emits them (ES2022 modules, import paths as written, source maps), for the
 * sources whose output is missing or older. Tests and the test workspace are left to tsc.
 */
async function transpile() {
  const { build } = await import('esbuild');
  const started = Date.now();
  let count = 0;
  for (const ws of ['proto', 'stager-sdk', 'gateway-sdk', 'controller', 'agent', 'cli']) {
    const src = join(root, ws, 'src');
    const entries = readdirSync(src, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.test.ts'))
      .map((e) => join(e.parentPath ?? e.path, e.name))
      .filter((file) => {
        const out = join(root, ws, 'dist', file.slice(src.length + 1).replace(/\.ts$/, '.js'));
        return !existsSync(out) || statSync(out).mtimeMs < statSync(file).mtimeMs;
      });
    if (entries.length === 0) continue;
    await build({
      absWorkingDir: join(root, ws),
      entryPoints: entries,
      outbase: src,
      outdir: join(root, ws, 'dist'),
      bundle: false,
      format: 'esm',
      platform: 'node',
      target: 'es2022',
      // tsc's emit for target ES2022: class fields are defined, as in the language.
      tsconfigRaw: { compilerOptions: { useDefineForClassFields: true, verbatimModuleSyntax: true } },
      sourcemap: true,
      logLevel: 'warning',
    });
    count += entries.length;
  }
  console.log(count === 0 ? 'setup: workspaces up to date' : `setup: ${count} source${count === 1 ? '' : 's'} transpiled (esbuild) in ${Date.now() - started} ms; tsc -b type-checks them in the background`);
}
