import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import test from 'ava';

const BIN = fileURLToPath(new URL('./platform-controller.js', import.meta.url));

/**
 * Runs the binary with `args` under a module hook that notes every module it loads; resolves
 * with their URLs once it exits.
 */
async function modulesLoaded(args: string[]): Promise<{ code: number | null; urls: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'controller-bin-'));
  try {
    const out = join(dir, 'loaded.txt');
    // The hooks run on a thread of their own: they write to a file, read once the process ends.
    await writeFile(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';\n` +
        `export async function load(url, context, next) { appendFileSync(${JSON.stringify(out)}, url + '\\n'); return next(url, context); }\n`,
    );
    await writeFile(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`);
    const child = spawn(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', resolve);
    });
    const urls = (await readFile(out, 'utf8').catch(() => '')).split('\n').filter((u) => u !== '');
    return { code, urls };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('the binary loads neither the etcd store nor its client unless --store etcd:// asks for them', async (t) => {
  const { code, urls } = await modulesLoaded(['--help']);
  t.is(code, 0);
  // The hook saw the controller's modules: the check below can fail.
  t.true(urls.some((u) => u.endsWith('/dist/controller.js')), urls.join('\n'));
  t.deepEqual(urls.filter((u) => /\/etcd3\/|\/store\/etcd-store\.js$|\/dist\/node\.js$/.test(u)), []);
});
