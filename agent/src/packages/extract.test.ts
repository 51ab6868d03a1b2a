import test from 'ava';
import { mkdtempSync, readFileSync, readlinkSync, writeFileSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { checkLinkTarget, DiskBudget, DiskLimitError, extractArchive, UnsafeArchiveError } from './extract.js';
import { makeTarGz, type TarEntry } from '../test-support/tar.js';

const made: string[] = [];
test.after.always(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

function setup(entries: TarEntry[]): { archive: string; root: string; base: string } {
  const base = tempDir('agent-extract-');
  const archive = join(base, 'a.tar.gz');
  writeFileSync(archive, makeTarGz(entries));
  const root = join(base, 'root');
  mkdirSync(root);
  return { archive, root, base };
}

test('extract: files, directories, relative links and hard links land under the install path', async (t) => {
  const { archive, root } = setup([
    { path: '/app/', type: 'Directory' },
    { path: '/app/index.html', body: '<h1>hi</h1>' },
    { path: './app/bin/run.sh', body: '#!/bin/sh\necho run\n', mode: 0o4755 },
    { path: 'app/current', type: 'SymbolicLink', linkpath: 'bin' },
    { path: 'app/copy.html', type: 'Link', linkpath: '/app/index.html' },
  ]);
  const r = await extractArchive(archive, root, '/');
  t.is(r.entries, 5);
  t.is(readFileSync(join(root, 'app/index.html'), 'utf8'), '<h1>hi</h1>');
  t.is(readlinkSync(join(root, 'app/current')), 'bin');
  t.is(readFileSync(join(root, 'app/copy.html'), 'utf8'), '<h1>hi</h1>');
  t.is(lstatSync(join(root, 'app/copy.html')).ino, lstatSync(join(root, 'app/index.html')).ino);
  t.is(lstatSync(join(root, 'app/bin/run.sh')).mode & 0o7777, 0o755, 'setuid dropped');
});

test('extract: an install path puts the archive below it', async (t) => {
  const { archive, root } = setup([{ path: 'bin/node', body: 'x' }]);
  await extractArchive(archive, root, '/opt/node');
  t.true(existsSync(join(root, 'opt/node/bin/node')));
});

const refused: [string, TarEntry[], RegExp][] = [
  ['a ".." component', [{ path: '../evil', body: 'x' }], /"\.\.\/evil" has a "\.\." component/],
  ['an absolute path escaping with ".."', [{ path: '/../../etc/evil', body: 'x' }], /has a "\.\." component/],
  ['a ".." in the middle', [{ path: 'app/../../evil', body: 'x' }], /has a "\.\." component/],
  ['a symlink pointing out', [{ path: 'app/link', type: 'SymbolicLink', linkpath: '../../etc' }], /points outside the root/],
  ['an absolute symlink', [{ path: 'app/passwd', type: 'SymbolicLink', linkpath: '/etc/passwd' }], /is absolute/],
  ['a hard link out of the root', [{ path: 'app/h', type: 'Link', linkpath: '../../etc/passwd' }], /has a "\.\." component/],
  ['a hard link to nothing extracted', [{ path: 'app/h', type: 'Link', linkpath: 'etc/passwd' }], /does not name a file/],
  ['a character device', [{ path: 'dev/null2', type: 'CharacterDevice' }], /device file; refused/],
  ['a block device', [{ path: 'dev/sda9', type: 'BlockDevice' }], /device file; refused/],
  ['a FIFO', [{ path: 'app/pipe', type: 'FIFO' }], /FIFO; refused/],
  ['a file written through a symlink of the archive',
    [{ path: 'app/d', type: 'SymbolicLink', linkpath: '.' }, { path: 'app/d/x', body: 'x' }], /is a symlink; refusing to write through it/],
  // Chains of links: each text alone looks harmless, resolved through the links before it escapes.
  ['a link through a link to the root, then up',
    [{ path: 'app/a/b/s', type: 'SymbolicLink', linkpath: '../../..' }, { path: 'app/l', type: 'SymbolicLink', linkpath: 'a/b/s/../../../..' }],
    /symlink \/app\/l -> a\/b\/s\/\.\.\/\.\.\/\.\.\/\.\. points outside the root \(resolved through \/app\/a\/b\/s -> \.\.\/\.\.\/\.\.\)/],
  ['a link whose intermediate step escapes although it comes back down',
    [{ path: 'app/up', type: 'SymbolicLink', linkpath: '..' }, { path: 'app/l', type: 'SymbolicLink', linkpath: 'up/../app/x' }],
    /points outside the root/],
  ['a link through a chain of two links',
    [{ path: 'app/r', type: 'SymbolicLink', linkpath: '..' }, { path: 'app/q', type: 'SymbolicLink', linkpath: 'r' }, { path: 'app/l', type: 'SymbolicLink', linkpath: 'q/..' }],
    /points outside the root \(resolved through \/app\/q -> r, \/app\/r -> \.\.\)/],
  ['a link that climbs out of a path not extracted yet (a later link could redirect it)',
    [{ path: 'app/l', type: 'SymbolicLink', linkpath: 'later/../..' }, { path: 'app/later', type: 'SymbolicLink', linkpath: '.' }],
    /climbs \("\.\."\) out of a path that is not extracted yet/],
  ['a link that climbs out of a file (a later entry could make it a link)',
    [{ path: 'app/f', body: 'x' }, { path: 'app/l', type: 'SymbolicLink', linkpath: 'f/../..' }], /not extracted yet/],
  ['a link replaced by a link that changes the meaning of an earlier one',
    [{ path: 'app/sub/', type: 'Directory' }, { path: 'app/x', type: 'SymbolicLink', linkpath: 'sub' }, { path: 'app/l', type: 'SymbolicLink', linkpath: 'x/../..' },
      { path: 'app/x', type: 'SymbolicLink', linkpath: '.' }], /would replace a symlink extracted before it/],
  ['a link replaced by a file, then by a link (the earlier link through it would escape)',
    [{ path: 'app/sub/', type: 'Directory' }, { path: 'app/x', type: 'SymbolicLink', linkpath: 'sub' }, { path: 'app/l', type: 'SymbolicLink', linkpath: 'x/../..' },
      { path: 'app/x', body: 'now a file' }, { path: 'app/x', type: 'SymbolicLink', linkpath: '.' }], /entry \/app\/x would replace a symlink extracted before it/],
  ['a file written over a symlink', [{ path: 'app/s', type: 'SymbolicLink', linkpath: 'f' }, { path: 'app/s', body: 'x' }], /would replace a symlink/],
  ['a loop of links', [{ path: 'app/a', type: 'SymbolicLink', linkpath: 'b' }, { path: 'app/b', type: 'SymbolicLink', linkpath: 'a' },
    { path: 'app/c', type: 'SymbolicLink', linkpath: 'a/x' }], /too many levels of symbolic links/],
  ['a directory entry over a symlink', [{ path: 'app/d', type: 'SymbolicLink', linkpath: '.' }, { path: 'app/d/', type: 'Directory' }], /is a symlink already/],
  ['a hard link through a symlinked directory',
    [{ path: 'app/f', body: 'x' }, { path: 'app/d', type: 'SymbolicLink', linkpath: '.' }, { path: 'app/h', type: 'Link', linkpath: 'app/d/f' }], /goes through a symlink/],
  ['a hard link to a symlink', [{ path: 'app/s', type: 'SymbolicLink', linkpath: '.' }, { path: 'app/h', type: 'Link', linkpath: 'app/s' }], /does not name a file/],
  ['a hard link to a directory', [{ path: 'app/d/', type: 'Directory' }, { path: 'app/h', type: 'Link', linkpath: 'app/d' }], /does not name a file/],
  ['a hard link with an absolute path out', [{ path: 'app/h', type: 'Link', linkpath: '/etc/passwd' }], /does not name a file/],
];

for (const [name, entries, message] of refused) {
  test(`extract: refuses ${name}`, async (t) => {
    const { archive, root, base } = setup(entries);
    const err = await t.throwsAsync(extractArchive(archive, root, '/'), { instanceOf: UnsafeArchiveError });
    t.regex(err.message, message);
    t.false(existsSync(join(base, 'evil')));
    t.false(existsSync('/etc/evil'));
  });
}

test('extract: a link resolved through earlier links that stays inside is fine', async (t) => {
  const { archive, root } = setup([
    { path: 'app/a/b/s', type: 'SymbolicLink', linkpath: '../../..' },
    { path: 'app/l', type: 'SymbolicLink', linkpath: 'a/b/s/app/a' },
    { path: 'app/lib/libx.so.1', body: 'elf' },
    { path: 'app/lib/libx.so', type: 'SymbolicLink', linkpath: 'libx.so.1' },
    { path: 'app/bin/libx', type: 'SymbolicLink', linkpath: '../lib/libx.so' },
    { path: 'app/later', type: 'SymbolicLink', linkpath: 'not/yet/there' },
  ]);
  await extractArchive(archive, root, '/');
  t.is(readFileSync(join(root, 'app/bin/libx'), 'utf8'), 'elf');
  t.is(readlinkSync(join(root, 'app/l')), 'a/b/s/app/a');
});

test('extract: checkLinkTarget resolves through links planted by an earlier package', (t) => {
  const root = tempDir('agent-links-');
  mkdirSync(join(root, 'opt/x'), { recursive: true });
  symlinkSync('../..', join(root, 'opt/x/top'));
  t.notThrows(() => checkLinkTarget(root, ['app'], '../opt/x/top/app', 'l'));
  t.throws(() => checkLinkTarget(root, ['app'], '../opt/x/top/..', 'l'), { message: /points outside the root/ });
  symlinkSync('/etc', join(root, 'opt/abs'));
  t.throws(() => checkLinkTarget(root, [], 'opt/abs/passwd', 'l'), { message: /goes through an absolute link \(resolved through \/opt\/abs -> \/etc\); refused/ });
});

/** A gzip tar of `count` files of `size` zero bytes each: about 1000:1. */
function bomb(count: number, size: number): TarEntry[] {
  const zeros = Buffer.alloc(size);
  return Array.from({ length: count }, (_, i) => ({ path: `app/zero${i}`, body: zeros }));
}

function du(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) total += statSync(join(dir, name)).size;
  return total;
}

test('extract: a compression bomb stops at the disk budget, before writing past it', async (t) => {
  const { archive, root } = setup(bomb(64, 256 * 1024)); // 16 MiB in a ~17 KB archive
  t.true(statSync(archive).size < 64 * 1024);
  const budget = new DiskBudget(1024 * 1024);
  const err = await t.throwsAsync(extractArchive(archive, root, '/', { label: 'package p', budget }), { instanceOf: DiskLimitError });
  t.regex(err.message, /^package p: file \/app\/zero\d+ \(256 KiB\) would exceed the job's disk resource of 1 MiB \(.* extracted before it\); extraction stopped$/);
  t.true(du(root) <= 1024 * 1024, `${du(root)} bytes written`);
  t.true(budget.used <= 1024 * 1024);
});

test('extract: one huge entry is refused on its declared size, with nothing of it written', async (t) => {
  const { archive, root } = setup([{ path: 'app/big', body: Buffer.alloc(8 * 1024 * 1024) }]);
  await t.throwsAsync(extractArchive(archive, root, '/', { budget: new DiskBudget(4 * 1024 * 1024) }), { message: /file \/app\/big \(8 MiB\) would exceed/ });
  t.false(existsSync(join(root, 'app/big')));
});

test('extract: empty files and directories are charged too (no free inodes)', async (t) => {
  const entries: TarEntry[] = Array.from({ length: 300 }, (_, i) => ({ path: `app/e${i}` }));
  const { archive, root } = setup(entries);
  await t.throwsAsync(extractArchive(archive, root, '/', { budget: new DiskBudget(64 * 4096) }), { instanceOf: DiskLimitError });
  t.true(readdirSync(join(root, 'app')).length < 64);
});

test('extract: the budget is shared by the packages of an instance', async (t) => {
  const { archive, root } = setup(bomb(2, 100 * 1024));
  const budget = new DiskBudget(300 * 1024);
  await extractArchive(archive, root, '/one', { budget });
  await t.throwsAsync(extractArchive(archive, root, '/two', { budget }), { instanceOf: DiskLimitError });
});

test('extract: refuses a symlink planted in the root before (a dependency package) as a path component', async (t) => {
  const { archive, root, base } = setup([{ path: 'data/x', body: 'x' }]);
  mkdirSync(join(base, 'outside'));
  symlinkSync(join(base, 'outside'), join(root, 'data'));
  await t.throwsAsync(extractArchive(archive, root, '/'), { message: /symlink/ });
  t.false(existsSync(join(base, 'outside/x')));
});

test('extract: a corrupt archive is a clear error', async (t) => {
  const base = tempDir('agent-extract-');
  const archive = join(base, 'bad.tar.gz');
  writeFileSync(archive, Buffer.from('this is not a tar archive at all'.repeat(40)));
  mkdirSync(join(base, 'root'));
  await t.throwsAsync(extractArchive(archive, join(base, 'root'), '/'), { message: /not a valid tar archive|Unrecognized/ });
});

test('extract: data that writes nothing cannot make the agent decompress far past the budget', async (t) => {
  const base = tempDir('agent-extract-');
  const tar = gunzipSync(makeTarGz([{ path: 'app/a', body: 'a' }]));
  // 16 MiB of zero blocks after the archive's end: they write nothing, and cost decompressing.
  const archive = join(base, 'a.tar.gz');
  writeFileSync(archive, gzipSync(Buffer.concat([tar, Buffer.alloc(16 * 1024 * 1024)])));
  mkdirSync(join(base, 'root'));
  const err = await t.throwsAsync(extractArchive(archive, join(base, 'root'), '/', { budget: new DiskBudget(1024 * 1024) }), { instanceOf: DiskLimitError });
  t.regex(err.message, /the archive expands to more than 5 MiB of tar data, far more than the job's disk resource of 1 MiB allows; extraction stopped/);
  // Without a budget (a disk resource of 0) the same archive is fine.
  mkdirSync(join(base, 'root2'));
  t.is((await extractArchive(archive, join(base, 'root2'), '/')).entries, 1);
});

test('extract: an archive compressed twice, or with zstd, is refused', async (t) => {
  const base = tempDir('agent-extract-');
  mkdirSync(join(base, 'root'));
  const twice = join(base, 'twice.tar.gz.gz');
  writeFileSync(twice, gzipSync(makeTarGz([{ path: 'app/a', body: 'a' }])));
  await t.throwsAsync(extractArchive(twice, join(base, 'root'), '/'), { message: /compressed twice; refused/ });
  const zstd = join(base, 'a.tar.zst');
  writeFileSync(zstd, Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0]));
  await t.throwsAsync(extractArchive(zstd, join(base, 'root'), '/'), { message: /zstd archives are not supported/ });
  const plain = join(base, 'a.tar');
  writeFileSync(plain, gunzipSync(makeTarGz([{ path: 'app/plain', body: 'p' }])));
  await extractArchive(plain, join(base, 'root'), '/');
  t.is(readFileSync(join(base, 'root/app/plain'), 'utf8'), 'p');
});
