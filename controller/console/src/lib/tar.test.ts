import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { gunzip, tarGz, tarPaths, type TarEntry } from './tar.js';

const long = `deep/${'d'.repeat(90)}/${'e'.repeat(60)}/file.txt`; // over 100 bytes, splits into prefix and name
const longer = `${'x'.repeat(120)}/${'y'.repeat(150)}.txt`; // no split fits: a pax header

test('tar: what tarGz packs, GNU tar unpacks as it was (long paths included), and tarPaths lists it', async (t) => {
  const entries: TarEntry[] = [
    { path: 'lib', type: 'dir' },
    { path: 'lib/a.js', type: 'file', data: new TextEncoder().encode('module.exports = 1;\n') },
    { path: 'server.js', type: 'file', data: new Blob(['console.log("hi")\n']) },
    { path: 'empty', type: 'file', data: new Uint8Array(0) },
    { path: 'big.bin', type: 'file', data: new Uint8Array(70_000).fill(7) },
    { path: long, type: 'file', data: new TextEncoder().encode('long\n') },
    { path: longer, type: 'file', data: new TextEncoder().encode('longer\n') },
    { path: 'ünïcode.txt', type: 'file', data: new TextEncoder().encode('u\n') },
  ];
  const archive = await tarGz(entries);
  const dir = await mkdtemp(join(tmpdir(), 'console-tar-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'a.tar.gz'), archive);
  await mkdir(join(dir, 'out'));
  execFileSync('tar', ['-xzf', join(dir, 'a.tar.gz'), '-C', join(dir, 'out')]);
  t.is(await readFile(join(dir, 'out', 'lib', 'a.js'), 'utf8'), 'module.exports = 1;\n');
  t.is(await readFile(join(dir, 'out', 'server.js'), 'utf8'), 'console.log("hi")\n');
  t.is((await readFile(join(dir, 'out', 'empty'))).length, 0);
  t.deepEqual(await readFile(join(dir, 'out', 'big.bin')), Buffer.alloc(70_000, 7));
  t.is(await readFile(join(dir, 'out', long), 'utf8'), 'long\n');
  t.is(await readFile(join(dir, 'out', longer), 'utf8'), 'longer\n');
  t.is(await readFile(join(dir, 'out', 'ünïcode.txt'), 'utf8'), 'u\n');
  const listed = tarPaths(await gunzip(archive));
  t.deepEqual(listed, entries.map((e) => ({ path: e.path, type: e.type })));
});

test('tar: tarPaths reads archives GNU tar made, ./ prefixes and long names included', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'console-tar-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const src = join(dir, 'src');
  await mkdir(join(src, 'sub'), { recursive: true });
  await writeFile(join(src, 'package.json'), '{}');
  await writeFile(join(src, 'sub', 'x.js'), '1');
  await mkdir(join(src, 'y'.repeat(120)), { recursive: true });
  await writeFile(join(src, 'y'.repeat(120), 'z'.repeat(120)), 'deep');
  for (const format of ['gnu', 'posix']) {
    const file = join(dir, `${format}.tar.gz`);
    execFileSync('tar', ['-czf', file, `--format=${format}`, '-C', src, '.']);
    const paths = tarPaths(await gunzip(await readFile(file)));
    const files = paths.filter((p) => p.type === 'file').map((p) => p.path).sort();
    t.deepEqual(files, ['package.json', 'sub/x.js', `${'y'.repeat(120)}/${'z'.repeat(120)}`].sort(), format);
    t.true(paths.some((p) => p.path === 'sub' && p.type === 'dir'), format);
  }
});
